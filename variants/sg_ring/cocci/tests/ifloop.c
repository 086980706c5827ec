#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the loop is the only statement of an if: braces are added */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i = 0, n = scsi_dma_map(cmd);

	if (n > 0)
		scsi_for_each_sg(cmd, sg, n, i) {
			tbl[i] = sg_dma_address(sg);
		}
	return i;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
