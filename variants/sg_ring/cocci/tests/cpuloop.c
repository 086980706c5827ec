#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

static unsigned int foo_len(struct scsi_cmnd *cmd)
{
	struct scatterlist *sg;
	unsigned int len = 0;
	int i;

	scsi_for_each_sg(cmd, sg, scsi_sg_count(cmd), i) {
		len += sg->length;
	}
	return len;
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
	.queuecommand	= foo_queuecommand,
};
