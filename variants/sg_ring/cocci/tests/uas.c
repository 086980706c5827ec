#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* uas_alloc_data_urb() of 6.1: sdb.table through a pointer to &cmnd->sdb */
static void foo_fill_urb(struct scsi_cmnd *cmnd, struct urb *urb)
{
	struct scsi_data_buffer *sdb = &cmnd->sdb;

	urb->num_sgs = sdb->table.nents;
	urb->sg = sdb->table.sgl;
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
