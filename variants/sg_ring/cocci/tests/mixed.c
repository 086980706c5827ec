#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the body reads the DMA view and the CPU view of one entry */
static void foo_fill(struct scsi_cmnd *cmd, int nseg, u64 *tbl, u32 *len)
{
	struct scatterlist *sg;
	int i;

	scsi_for_each_sg(cmd, sg, nseg, i) {
		tbl[i] = sg_dma_address(sg);
		len[i] = sg->length;
	}
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
