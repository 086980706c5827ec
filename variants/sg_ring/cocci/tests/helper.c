#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the entry is handed to a helper, which may read either view or walk on */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
		foo_trace(sg);
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
