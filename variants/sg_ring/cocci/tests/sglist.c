#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* initio's and pmcraid's loops: the entry is not called sg */
static int foo_fill(struct scsi_cmnd *cmd, struct foo_sg *sg)
{
	struct scatterlist *sglist;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sglist, n, i) {
		sg->data = sg_dma_address(sglist);
		sg++;
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
