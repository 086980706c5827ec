#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the DMA view walked over scsi_sg_count() entries, not the DMA count */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	if (n < 0)
		return n;
	scsi_for_each_sg(cmd, sg, scsi_sg_count(cmd), i) {
		tbl[i] = sg_dma_address(sg);
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
