#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

static int foo_sum(struct scsi_cmnd *cmd)
{
	struct scatterlist *sg;
	int i, size = 0, n = scsi_dma_map(cmd);

	scsi_for_each_sg(cmd, sg, n, i)
		size += sg_dma_len(sg);
	scsi_dma_unmap(cmd);
	return size;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
