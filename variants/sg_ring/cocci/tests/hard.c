#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

static int foo_map(struct device *dev, struct scsi_cmnd *cmd)
{
	return dma_map_sg(dev, scsi_sglist(cmd), scsi_sg_count(cmd),
			  cmd->sc_data_direction);
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
