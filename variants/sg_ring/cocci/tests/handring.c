#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/*
 * A driver whose hand conversion already walks the ring (as the hpsa
 * draft does): the rule converts the rest and leaves that walk alone.
 */
static int foo_fill(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct sg_ring *sgr;
	unsigned int sgi;
	int n = scsi_dma_map_ring(cmd);

	sg_ring_for_each_dma(scsi_sgring(cmd), sgr, sgi) {
		*tbl = sg_dma_address(&sgr->sg[sgi]);
		tbl++;
	}
	return n;
}

static int foo_fill_small(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
	}
	return n;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
