#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* a CPU walk bounded by a count handed in, in a function that maps nothing */
static unsigned int foo_len(struct scsi_cmnd *cmd, int nseg)
{
	struct scatterlist *sg;
	unsigned int len = 0;
	int i;

	scsi_for_each_sg(cmd, sg, nseg, i) {
		len += sg->length;
	}
	return len;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
