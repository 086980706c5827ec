#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the DMA count is changed before the loop: the bound is kept */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i, n;

	n = scsi_dma_map(cmd);
	if (n > 16)
		n = 16;
	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
