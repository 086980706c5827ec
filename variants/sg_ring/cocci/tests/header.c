#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>
#include "header.h"

/*
 * The driver maps in an inline function of its own header (as
 * drivers/scsi/arm/arm_scsi.h walks scsi_sglist()): the rule would rewrite
 * the unmap below and not the map there.
 */
static int foo_queue(struct scsi_cmnd *cmd)
{
	return foo_map(cmd);
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
