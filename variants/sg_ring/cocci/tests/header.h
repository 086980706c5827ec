/* a driver header: spatch does not rewrite it */
static inline int foo_map(struct scsi_cmnd *cmd)
{
	return scsi_dma_map(cmd);
}
