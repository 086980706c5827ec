#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/* iscsi_tcp's shape: sdb.table of a struct scsi_data_buffer handed in */
static int foo_send(struct foo_conn *conn, struct scsi_data_buffer *sdb)
{
	return foo_send_sg(conn, sdb->table.sgl, sdb->table.nents);
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
};
