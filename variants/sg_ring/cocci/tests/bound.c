#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/*
 * A DMA walk bounded below the DMA count: the bound is kept.  The index is
 * read after the loop; it still counts the entries visited.
 */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl, int max)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	if (n < 0)
		return n;
	scsi_for_each_sg(cmd, sg, min(n, max), i) {
		tbl[i] = sg_dma_address(sg);
	}
	return i;
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
