#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* a walk inside a walk: both would get the cursor sgr, sgi */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg, *sg2;
	int i, j, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
		scsi_for_each_sg(cmd, sg2, n, j) {
			tbl[j] += sg_dma_len(sg2);
		}
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
