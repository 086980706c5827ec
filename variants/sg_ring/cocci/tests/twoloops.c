#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* two walks with one entry variable: the second loop sets it afresh */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl, u32 *len)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
	}
	scsi_for_each_sg(cmd, sg, n, i) {
		len[i] = sg_dma_len(sg);
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
