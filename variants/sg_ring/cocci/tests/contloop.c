#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		if (!sg_dma_len(sg))
			continue;
		tbl[i] = sg_dma_address(sg);
	}
	scsi_dma_unmap(cmd);
	return i;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
