#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the CPU view walked up to the DMA count, after scsi_dma_map() */
static int foo_fill(struct scsi_cmnd *cmd, u32 *len)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		len[i] = sg->length;
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
