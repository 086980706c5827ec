#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* a use in a macro body: spatch parses the body and rewrites it */
#define FOO_MAP(cmd)	scsi_dma_map(cmd)

static int foo_queue(struct scsi_cmnd *cmd)
{
	return FOO_MAP(cmd);
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
