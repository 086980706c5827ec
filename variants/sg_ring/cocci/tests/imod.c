#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* the index is written in the body: it changes where 6.1's loop stops */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
		i += tbl[i] ? 0 : 1;
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
