#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the function already has a variable called sgr */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl, struct foo_sgr *sgr)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
		sgr->count++;
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
