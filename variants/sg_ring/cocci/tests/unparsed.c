#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_host.h>

/*
 * atp870u's shape: DEF_SCSI_QCMD() without a semicolon makes spatch give
 * up on the function after it, which maps and walks the buffer
 */
static int foo_queuecommand_lck(struct scsi_cmnd *cmd)
{
	return 0;
}

static DEF_SCSI_QCMD(foo_queuecommand)

static void foo_send(struct scsi_cmnd *cmd, u64 *tbl)
{
	struct scatterlist *sg;
	int i, n;

	n = scsi_dma_map(cmd);
	scsi_for_each_sg(cmd, sg, n, i) {
		tbl[i] = sg_dma_address(sg);
	}
}

static void foo_done(struct scsi_cmnd *cmd)
{
	scsi_dma_unmap(cmd);
}

static struct scsi_host_template foo_template = {
	.name		= "foo",
	.sg_tablesize	= 128,
	.queuecommand	= foo_queuecommand,
};
