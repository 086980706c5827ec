#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/*
 * hpsa_scatter_gather() of 6.1: the first loop is bounded below the DMA
 * count, reads the entry only through a helper, and a raw for_each_sg()
 * continues from where it stopped.
 */
static void foo_set_desc(struct foo_desc *desc, struct scatterlist *sg)
{
	desc->addr = sg_dma_address(sg);
	desc->len = sg_dma_len(sg);
}

static int foo_scatter_gather(struct foo_ctlr *h, struct foo_desc *curr,
			      struct scsi_cmnd *cmd)
{
	struct scatterlist *sg;
	int use_sg, i, sg_limit, chained;

	use_sg = scsi_dma_map(cmd);
	if (use_sg < 0)
		return use_sg;
	chained = use_sg > h->max_cmd_sg_entries;
	sg_limit = chained ? h->max_cmd_sg_entries - 1 : use_sg;
	scsi_for_each_sg(cmd, sg, sg_limit, i) {
		foo_set_desc(curr, sg);
		curr++;
	}
	if (chained) {
		curr = h->chain_block;
		sg_limit = use_sg - sg_limit;
		for_each_sg(sg, sg, sg_limit, i) {
			foo_set_desc(curr, sg);
			curr++;
		}
	}
	return 0;
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
