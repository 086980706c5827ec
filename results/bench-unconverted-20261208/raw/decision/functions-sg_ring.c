@@ block/blk-merge.c __blk_bios_map_sg
static __always_inline int __blk_bios_map_sg(struct request_queue *q,
					     struct bio *bio,
					     struct blk_sg_cursor *c,
					     const bool ring)
{
	struct bio_vec bvec, bvprv = { NULL };
	struct bvec_iter iter;
	int nsegs = 0;
	bool new_bio = false;

	for_each_bio(bio) {
		bio_for_each_bvec(bvec, bio, iter) {
			/*
			 * Only try to merge bvecs from two bios given we
			 * have done bio internal merge when adding pages
			 * to bio
			 */
			if (new_bio &&
			    __blk_segment_map_sg_merge(q, &bvec, &bvprv, c, ring))
				goto next_bvec;

			if (bvec.bv_offset + bvec.bv_len <= PAGE_SIZE)
				nsegs += __blk_bvec_map_sg(bvec, c, ring);
			else
				nsegs += blk_bvec_map_sg(q, &bvec, c, ring);
 next_bvec:
			new_bio = false;
		}
		if (likely(bio->bi_iter.bi_size)) {
			bvprv = bvec;
			new_bio = true;
		}
	}

	return nsegs;
}
@@ block/blk-merge.c __blk_rq_map_cursor
static __always_inline int __blk_rq_map_cursor(struct request_queue *q,
					       struct request *rq,
					       struct blk_sg_cursor *c,
					       const bool ring)
{
	int nsegs = 0;

	if (rq->rq_flags & RQF_SPECIAL_PAYLOAD)
		nsegs = __blk_bvec_map_sg(rq->special_vec, c, ring);
	else if (rq->bio)
		nsegs = __blk_bios_map_sg(q, rq->bio, c, ring);

	/*
	 * Something must have been wrong if the figured number of
	 * segment is bigger than number of req's physical segments
	 */
	WARN_ON(nsegs > blk_rq_nr_phys_segments(rq));

	return nsegs;
}
@@ block/blk-merge.c blk_next_sg
static __always_inline struct scatterlist *
blk_next_sg(struct blk_sg_cursor *c, const bool ring)
{
	struct sg_ring *next;

	if (ring) {
		/* Fast path: the next entry is in the same array. */
		if (likely(c->sg != c->last)) {
			if (!c->sg) {
				c->sg = c->ring->sg;
				return c->sg;
			}
			/* As below: drop a stale end marker. */
			sg_unmark_end(c->sg);
			return ++c->sg;
		}
		if (unlikely(c->overflow))
			return NULL;
		next = blk_next_sg_ring(c->head, c->ring, c->sg);
		if (unlikely(!next)) {
			c->overflow = true;
			return NULL;
		}
		c->ring = next;
		c->last = &next->sg[next->max - 1];
		c->sg = next->sg;
		return c->sg;
	}

	if (!c->sg) {
		c->sg = c->sglist;
		return c->sg;
	}

	/*
	 * If the driver previously mapped a shorter list, we could see a
	 * termination bit prematurely unless it fully inits the sg table
	 * on each mapping. We KNOW that there must be more entries here
	 * or the driver would be buggy, so force clear the termination bit
	 * to avoid doing a full sg_init_table() in drivers for each command.
	 */
	sg_unmark_end(c->sg);
	c->sg = sg_next(c->sg);
	return c->sg;
}
@@ block/blk-merge.c blk_next_sg_ring
static struct sg_ring *blk_next_sg_ring(struct sg_ring *head,
					struct sg_ring *ring,
					struct scatterlist *sg)
{
	if (sg) {
		sg_mark_end(sg);
		ring->num = ring->max;
	}
	do {
		ring = sg_ring_next(ring, head);
		if (!ring)
			return NULL;
		ring->num = 0;
	} while (!ring->max);
	return ring;
}
@@ block/blk-merge.c blk_rq_map_sg_ring
int blk_rq_map_sg_ring(struct request_queue *q, struct request *rq,
		       struct sg_ring *head)
{
	struct blk_sg_cursor c = {
		.head = head,
		.ring = head,
		.last = head->max ? &head->sg[head->max - 1] : NULL,
	};
	struct sg_ring *ring;
	int nsegs;

	head->num = 0;
	nsegs = __blk_rq_map_cursor(q, rq, &c, true);

	ring = c.ring;
	if (c.sg) {
		sg_mark_end(c.sg);
		ring->num = c.sg - ring->sg + 1;
	}
	for (ring = sg_ring_next(ring, head); ring;
	     ring = sg_ring_next(ring, head))
		ring->num = 0;

	return unlikely(c.overflow) ? -EOVERFLOW : nsegs;
}
@@ drivers/iommu/dma-iommu.c iommu_dma_can_map_sg_ring
static bool iommu_dma_can_map_sg_ring(struct device *dev)
{
	return !dev_use_swiotlb(dev);
}
@@ drivers/iommu/dma-iommu.c iommu_dma_map_sg_ring
static int iommu_dma_map_sg_ring(struct device *dev, struct sg_ring *head,
				 enum dma_data_direction dir,
				 unsigned long attrs)
{
	struct iommu_domain *domain = iommu_get_dma_domain(dev);
	struct iommu_dma_cookie *cookie = domain->iova_cookie;
	struct iova_domain *iovad = &cookie->iovad;
	int prot = dma_info_to_prot(dir, dev_is_dma_coherent(dev), attrs);
	struct iommu_dma_sg_layout lo = {};
	dma_addr_t iova = 0, next;
	struct sg_ring *ring;
	size_t mapped = 0;
	ssize_t ret;
	int total = 0;

	if (static_branch_unlikely(&iommu_deferred_attach_enabled)) {
		ret = iommu_deferred_attach(dev, domain);
		if (ret)
			goto out;
	}

	for (ring = head; ring; ring = sg_ring_next(ring, head)) {
		if (!ring->num)
			continue;
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			iommu_dma_sync_sg_for_device(dev, ring->sg, ring->num,
						     dir);
		ret = iommu_dma_layout_sg(dev, iovad, &lo, ring->sg, ring->num);
		if (ret)
			goto out_restore_sg;
	}

	if (lo.iova_len) {
		iova = iommu_dma_alloc_iova(domain, lo.iova_len,
					    dma_get_mask(dev), dev);
		if (!iova) {
			ret = -ENOMEM;
			goto out_restore_sg;
		}
		for (ring = head; ring; ring = sg_ring_next(ring, head)) {
			if (!ring->num)
				continue;
			ret = iommu_map_sg_atomic(domain, iova + mapped,
						  ring->sg, ring->num, prot);
			if (ret < 0)
				goto out_unmap;
			mapped += ret;
		}
		if (mapped < lo.iova_len) {
			ret = -EINVAL;
			goto out_unmap;
		}
	}

	/* Each array's segments start where the previous array's ended. */
	next = iova;
	for (ring = head; ring; ring = sg_ring_next(ring, head)) {
		if (!ring->num)
			continue;
		ring->dma_num = iommu_dma_finalise_sg(dev, ring->sg, ring->num,
						      &next);
		total += ring->dma_num;
	}
	return total;

out_unmap:
	if (mapped)
		iommu_unmap(domain, iova, mapped);
	iommu_dma_free_iova(cookie, iova, lo.iova_len, NULL);
out_restore_sg:
	for (ring = head; ring; ring = sg_ring_next(ring, head))
		__invalidate_sg(ring->sg, ring->num);
out:
	if (ret != -ENOMEM && ret != -EREMOTEIO)
		return -EINVAL;
	return ret;
}
@@ drivers/iommu/dma-iommu.c iommu_dma_unmap_sg_ring
static void iommu_dma_unmap_sg_ring(struct device *dev, struct sg_ring *head,
				    enum dma_data_direction dir,
				    unsigned long attrs)
{
	dma_addr_t end = 0, start = 0;
	struct sg_ring *ring;

	for (ring = head; ring; ring = sg_ring_next(ring, head)) {
		if (!ring->dma_num)
			continue;
		if (!(attrs & DMA_ATTR_SKIP_CPU_SYNC))
			iommu_dma_sync_sg_for_cpu(dev, ring->sg, ring->num, dir);
		iommu_dma_sg_range(ring->sg, ring->num, &start, &end);
		ring->dma_num = 0;
	}
	if (end)
		__iommu_dma_unmap(dev, start, end - start);
}
@@ drivers/scsi/scsi_debug.c do_device_access
static int do_device_access(struct sdeb_store_info *sip, struct scsi_cmnd *scp,
			    u32 sg_skip, u64 lba, u32 num, bool do_write)
{
	int ret;
	u64 block, rest = 0;
	enum dma_data_direction dir;
	struct scsi_data_buffer *sdb = &scp->sdb;
	u8 *fsp;

	if (do_write) {
		dir = DMA_TO_DEVICE;
		write_since_sync = true;
	} else {
		dir = DMA_FROM_DEVICE;
	}

	/* As in 6.1, a command with data has its ring. */
	if (!sdb->length || !sip)
		return 0;
	if (scp->sc_data_direction != dir)
		return -1;
	fsp = sip->storep;

	block = do_div(lba, sdebug_store_sectors);
	/* The common case: the transfer does not wrap around the store. */
	if (likely(block + num <= sdebug_store_sectors))
		return sdeb_copy_ring(sdb->ring,
				      fsp + (block * sdebug_sector_size),
				      (u64)num * sdebug_sector_size, sg_skip,
				      do_write);
	rest = block + num - sdebug_store_sectors;

	ret = sg_ring_copy_buffer(sdb->ring, fsp + (block * sdebug_sector_size),
				  (num - rest) * sdebug_sector_size, sg_skip,
				  do_write);
	if (ret != (num - rest) * sdebug_sector_size)
		return ret;

	if (rest) {
		ret += sg_ring_copy_buffer(sdb->ring, fsp,
					   rest * sdebug_sector_size,
					   sg_skip + ((num - rest) *
						      sdebug_sector_size),
					   do_write);
	}

	return ret;
}
@@ drivers/scsi/scsi_debug.c fetch_to_dev_buffer
static int fetch_to_dev_buffer(struct scsi_cmnd *scp, unsigned char *arr,
			       int arr_len)
{
	if (!scsi_bufflen(scp) || !scsi_sgring(scp))
		return 0;
	if (scp->sc_data_direction != DMA_TO_DEVICE)
		return -1;

	return sg_ring_copy_to_buffer(scsi_sgring(scp), arr, arr_len);
}
@@ drivers/scsi/scsi_debug.c fill_from_dev_buffer
static int fill_from_dev_buffer(struct scsi_cmnd *scp, unsigned char *arr,
				int arr_len)
{
	int act_len;
	struct scsi_data_buffer *sdb = &scp->sdb;

	if (!sdb->length || !sdb->ring)
		return 0;
	if (scp->sc_data_direction != DMA_FROM_DEVICE)
		return DID_ERROR << 16;

	act_len = sg_ring_copy_from_buffer(sdb->ring, arr, arr_len);
	scsi_set_resid(scp, scsi_bufflen(scp) - act_len);

	return 0;
}
@@ drivers/scsi/scsi_error.c scsi_eh_prep_cmnd
void scsi_eh_prep_cmnd(struct scsi_cmnd *scmd, struct scsi_eh_save *ses,
			unsigned char *cmnd, int cmnd_size, unsigned sense_bytes)
{
	struct scsi_device *sdev = scmd->device;
#ifdef CONFIG_BLK_INLINE_ENCRYPTION
	struct request *rq = scsi_cmd_to_rq(scmd);
#endif

	/*
	 * We need saved copies of a number of fields - this is because
	 * error handling may need to overwrite these with different values
	 * to run different commands, and once error handling is complete,
	 * we will need to restore these values prior to running the actual
	 * command.
	 */
	ses->cmd_len = scmd->cmd_len;
	ses->data_direction = scmd->sc_data_direction;
	/*
	 * Only the pointer to the ring is saved: the ring head lives in the
	 * command's pdu and is neither copied nor touched until it is put
	 * back by scsi_eh_restore_cmnd().
	 */
	ses->sdb = scmd->sdb;
	ses->result = scmd->result;
	ses->resid_len = scmd->resid_len;
	ses->underflow = scmd->underflow;
	ses->prot_op = scmd->prot_op;
	ses->eh_eflags = scmd->eh_eflags;

	scmd->prot_op = SCSI_PROT_NORMAL;
	scmd->eh_eflags = 0;
	memcpy(ses->cmnd, scmd->cmnd, sizeof(ses->cmnd));
	memset(scmd->cmnd, 0, sizeof(scmd->cmnd));
	memset(&scmd->sdb, 0, sizeof(scmd->sdb));
	scmd->result = 0;
	scmd->resid_len = 0;

	if (sense_bytes) {
		scmd->sdb.length = min_t(unsigned, SCSI_SENSE_BUFFERSIZE,
					 sense_bytes);
		sg_ring_single(&ses->sense_sg.ring, scmd->sense_buffer,
			       scmd->sdb.length);
		scmd->sdb.ring = &ses->sense_sg.ring;
		if (!sdev->host->hostt->use_sg_ring) {
			scmd->sdb.table.sgl = ses->sense_sg.ring.sg;
			scmd->sdb.table.nents = 1;
			scmd->sdb.table.orig_nents = 1;
		}
		scmd->sc_data_direction = DMA_FROM_DEVICE;
		scmd->cmnd[0] = REQUEST_SENSE;
		scmd->cmnd[4] = scmd->sdb.length;
		scmd->cmd_len = COMMAND_SIZE(scmd->cmnd[0]);
	} else {
		scmd->sc_data_direction = DMA_NONE;
		if (cmnd) {
			BUG_ON(cmnd_size > sizeof(scmd->cmnd));
			memcpy(scmd->cmnd, cmnd, cmnd_size);
			scmd->cmd_len = COMMAND_SIZE(scmd->cmnd[0]);
		}
	}

	scmd->underflow = 0;

	if (sdev->scsi_level <= SCSI_2 && sdev->scsi_level != SCSI_UNKNOWN)
		scmd->cmnd[1] = (scmd->cmnd[1] & 0x1f) |
			(sdev->lun << 5 & 0xe0);

	/*
	 * Encryption must be disabled for the commands submitted by the error handler.
	 * Hence, clear the encryption context information.
	 */
#ifdef CONFIG_BLK_INLINE_ENCRYPTION
	ses->rq_crypt_keyslot = rq->crypt_keyslot;
	ses->rq_crypt_ctx = rq->crypt_ctx;

	rq->crypt_keyslot = NULL;
	rq->crypt_ctx = NULL;
#endif

	/*
	 * Zero the sense buffer.  The scsi spec mandates that any
	 * untransferred sense data should be interpreted as being zero.
	 */
	memset(scmd->sense_buffer, 0, SCSI_SENSE_BUFFERSIZE);
}
@@ drivers/scsi/scsi_error.c scsi_eh_restore_cmnd
void scsi_eh_restore_cmnd(struct scsi_cmnd* scmd, struct scsi_eh_save *ses)
{
#ifdef CONFIG_BLK_INLINE_ENCRYPTION
	struct request *rq = scsi_cmd_to_rq(scmd);
#endif

	/*
	 * Restore original data
	 */
	scmd->cmd_len = ses->cmd_len;
	memcpy(scmd->cmnd, ses->cmnd, sizeof(ses->cmnd));
	scmd->sc_data_direction = ses->data_direction;
	scmd->sdb = ses->sdb;
	scmd->result = ses->result;
	scmd->resid_len = ses->resid_len;
	scmd->underflow = ses->underflow;
	scmd->prot_op = ses->prot_op;
	scmd->eh_eflags = ses->eh_eflags;

#ifdef CONFIG_BLK_INLINE_ENCRYPTION
	rq->crypt_keyslot = ses->rq_crypt_keyslot;
	rq->crypt_ctx = ses->rq_crypt_ctx;
#endif
}
@@ drivers/scsi/scsi_lib.c scsi_alloc_sgtables
blk_status_t scsi_alloc_sgtables(struct scsi_cmnd *cmd)
{
	struct scsi_device *sdev = cmd->device;
	struct Scsi_Host *shost = sdev->host;
	struct request *rq = scsi_cmd_to_rq(cmd);
	unsigned short nr_segs = blk_rq_nr_phys_segments(rq);
	struct sg_ring *head = scsi_mq_sg_head(shost, cmd);
	struct scatterlist *last_sg;
	blk_status_t ret;
	bool need_drain = scsi_cmd_needs_dma_drain(sdev, rq);
	int count, err;

	if (WARN_ON_ONCE(!nr_segs))
		return BLK_STS_IOERR;

	/*
	 * Make sure there is space for the drain.  The driver must adjust
	 * max_hw_segments to be prepared for this.
	 */
	if (need_drain)
		nr_segs++;

	/*
	 * If sg ring allocation fails, requeue request later.
	 */
	err = scsi_alloc_ring(shost, head, nr_segs, scsi_mq_inline_sg_cnt(shost));
	if (unlikely(err))
		return err == -ENOMEM ? BLK_STS_RESOURCE : BLK_STS_IOERR;
	cmd->sdb.ring = head;

	/*
	 * Next, walk the list, and fill in the addresses and sizes of
	 * each segment.  A ring too small for the request (nr_phys_segments
	 * understated it) would describe fewer bytes than the command
	 * transfers: fail the command rather than start it.
	 */
	count = blk_rq_map_sg_ring(rq->q, rq, head);
	if (unlikely(count < 0)) {
		pr_err_ratelimited("scsi: request of more than its %u segments: failing it\n",
				   nr_segs);
		ret = BLK_STS_IOERR;
		goto out_free_sgtables;
	}

	/* DMA pad and drain act on the last entry in use, in any array. */
	if (blk_rq_bytes(rq) & rq->q->dma_pad_mask) {
		unsigned int pad_len =
			(rq->q->dma_pad_mask & ~blk_rq_bytes(rq)) + 1;
		unsigned int data_len;

		last_sg = sg_ring_last(head);
		data_len = last_sg->length;

		last_sg->length += pad_len;
		sg_zero_buffer(last_sg, 1, pad_len, data_len);
		cmd->extra_len += pad_len;
	}

	if (need_drain) {
		struct scatterlist *drain_sg;

		last_sg = sg_ring_last(head);
		drain_sg = scsi_sg_ring_append(head);
		if (WARN_ON_ONCE(!drain_sg)) {
			ret = BLK_STS_IOERR;
			goto out_free_sgtables;
		}
		if (drain_sg == last_sg + 1)
			sg_unmark_end(last_sg);
		sg_set_buf(drain_sg, sdev->dma_drain_buf, sdev->dma_drain_len);
		sg_mark_end(drain_sg);

		cmd->extra_len += sdev->dma_drain_len;
	}

	cmd->sdb.length = blk_rq_payload_bytes(rq);
	scsi_sdb_set_table(shost, &cmd->sdb);

	if (blk_integrity_rq(rq)) {
		struct scsi_data_buffer *prot_sdb = cmd->prot_sdb;
		struct sg_ring *prot_head;
		int ivecs;

		if (WARN_ON_ONCE(!prot_sdb)) {
			/*
			 * This can happen if someone (e.g. multipath)
			 * queues a command to a device on an adapter
			 * that does not support DIX.
			 */
			ret = BLK_STS_IOERR;
			goto out_free_sgtables;
		}

		ivecs = blk_rq_count_integrity_sg(rq->q, rq->bio);

		prot_head = scsi_mq_prot_sg_head(cmd);
		err = scsi_alloc_ring(shost, prot_head, ivecs,
				      SCSI_INLINE_PROT_SG_CNT);
		if (err) {
			ret = err == -ENOMEM ? BLK_STS_RESOURCE : BLK_STS_IOERR;
			goto out_free_sgtables;
		}
		prot_sdb->ring = prot_head;

		count = blk_rq_map_integrity_sg_ring(rq->q, rq->bio, prot_head);
		BUG_ON(count > ivecs);
		BUG_ON(count > queue_max_integrity_segments(rq->q));
		scsi_sdb_set_table(shost, prot_sdb);
	}

	return BLK_STS_OK;
out_free_sgtables:
	scsi_free_sgtables(cmd);
	/*
	 * A command this function failed has no ring attached; a table over
	 * the inline entries may stay, as in 6.1.
	 */
	cmd->sdb.ring = NULL;
	if (cmd->prot_sdb)
		cmd->prot_sdb->ring = NULL;
	return ret;
}
@@ drivers/scsi/scsi_lib.c scsi_free_sgtables
void scsi_free_sgtables(struct scsi_cmnd *cmd)
{
	scsi_free_sdb(&cmd->sdb);
	if (cmd->prot_sdb)
		scsi_free_sdb(cmd->prot_sdb);
}
@@ drivers/scsi/scsi_lib.c scsi_sg_ring_append
static struct scatterlist *scsi_sg_ring_append(struct sg_ring *head)
{
	struct sg_ring *ring, *last = head;

	for (ring = head; ring; ring = sg_ring_next(ring, head))
		if (ring->num)
			last = ring;
	for (ring = last; ring; ring = sg_ring_next(ring, head)) {
		if (ring->num < ring->max)
			return &ring->sg[ring->num++];
	}
	return NULL;
}
@@ drivers/scsi/scsi_lib_dma.c scsi_dma_map
int scsi_dma_map(struct scsi_cmnd *cmd)
{
	int nseg = 0;

	if (WARN_ON_ONCE(cmd->device->host->hostt->use_sg_ring))
		return -EINVAL;

	if (scsi_sg_count(cmd)) {
		struct device *dev = cmd->device->host->dma_dev;

		nseg = dma_map_sg(dev, scsi_sglist(cmd), scsi_sg_count(cmd),
				  cmd->sc_data_direction);
		if (unlikely(!nseg))
			return -ENOMEM;
	}
	return nseg;
}
@@ drivers/scsi/scsi_lib_dma.c scsi_dma_unmap
void scsi_dma_unmap(struct scsi_cmnd *cmd)
{
	if (scsi_sg_count(cmd)) {
		struct device *dev = cmd->device->host->dma_dev;

		dma_unmap_sg(dev, scsi_sglist(cmd), scsi_sg_count(cmd),
			     cmd->sc_data_direction);
	}
}
@@ drivers/scsi/virtio_scsi.c __virtscsi_add_cmd
static int __virtscsi_add_cmd(struct virtqueue *vq,
			    struct virtio_scsi_cmd *cmd,
			    size_t req_size, size_t resp_size)
{
	struct scsi_cmnd *sc = cmd->sc;
	struct scatterlist *stack_sgs[VIRTSCSI_STACK_SGS], **sgs = stack_sgs;
	struct scatterlist req, resp;
	struct sg_ring *data = NULL, *prot = NULL;
	unsigned int out_num = 0, in_num = 0, nsgs;
	bool out = false, in = false;
	int err;

	if (sc && sc->sc_data_direction != DMA_NONE) {
		data = scsi_sgring(sc);
		prot = scsi_prot_sgring(sc);
		if (sc->sc_data_direction != DMA_FROM_DEVICE)
			out = true;
		if (sc->sc_data_direction != DMA_TO_DEVICE)
			in = true;
	}

	nsgs = 2 + (out + in) *
		(virtscsi_ring_lists(data) + virtscsi_ring_lists(prot));
	if (nsgs > ARRAY_SIZE(stack_sgs)) {
		sgs = kmalloc_array(nsgs, sizeof(*sgs), GFP_ATOMIC);
		if (!sgs)
			return -ENOMEM;
	}

	/* Request header.  */
	sg_init_one(&req, &cmd->req, req_size);
	sgs[out_num++] = &req;

	/* Data-out buffer.  */
	if (out) {
		/* Place WRITE protection SGLs before Data OUT payload */
		out_num += virtscsi_add_ring(&sgs[out_num], prot);
		out_num += virtscsi_add_ring(&sgs[out_num], data);
	}

	/* Response header.  */
	sg_init_one(&resp, &cmd->resp, resp_size);
	sgs[out_num + in_num++] = &resp;

	/* Data-in buffer */
	if (in) {
		/* Place READ protection SGLs before Data IN payload */
		in_num += virtscsi_add_ring(&sgs[out_num + in_num], prot);
		in_num += virtscsi_add_ring(&sgs[out_num + in_num], data);
	}

	err = virtqueue_add_sgs(vq, sgs, out_num, in_num, cmd, GFP_ATOMIC);
	if (sgs != stack_sgs)
		kfree(sgs);
	return err;
}
@@ drivers/scsi/vmw_pvscsi.c pvscsi_create_sg
static void pvscsi_create_sg(struct pvscsi_ctx *ctx,
			     struct sg_ring *head, unsigned int count)
{
	struct PVSCSISGElement *sge;
	struct sg_ring *ring;
	unsigned int i, n = 0;

	BUG_ON(count > PVSCSI_MAX_NUM_SG_ENTRIES_PER_SEGMENT);

	sge = &ctx->sgl->sge[0];
	sg_ring_for_each_dma(head, ring, i) {
		sge[n].addr   = sg_dma_address(&ring->sg[i]);
		sge[n].length = sg_dma_len(&ring->sg[i]);
		sge[n].flags  = 0;
		n++;
	}
}
@@ drivers/scsi/vmw_pvscsi.c pvscsi_first_dma_sg
static struct scatterlist *pvscsi_first_dma_sg(struct sg_ring *head)
{
	struct sg_ring *ring;

	for (ring = head; ring; ring = sg_ring_next(ring, head))
		if (ring->dma_num)
			return &ring->sg[0];
	return NULL;
}
@@ drivers/scsi/vmw_pvscsi.c pvscsi_map_buffers
static int pvscsi_map_buffers(struct pvscsi_adapter *adapter,
			      struct pvscsi_ctx *ctx, struct scsi_cmnd *cmd,
			      struct PVSCSIRingReqDesc *e)
{
	unsigned count;
	unsigned bufflen = scsi_bufflen(cmd);
	struct sg_ring *ring;

	e->dataLen = bufflen;
	e->dataAddr = 0;
	if (bufflen == 0)
		return 0;

	ring = scsi_sgring(cmd);
	count = ring ? sg_ring_num(ring) : 0;
	if (count != 0) {
		int segs = scsi_dma_map_ring(cmd);

		if (segs == -ENOMEM) {
			scmd_printk(KERN_DEBUG, cmd,
				    "vmw_pvscsi: Failed to map cmd sglist for DMA.\n");
			return -ENOMEM;
		} else if (segs > 1) {
			pvscsi_create_sg(ctx, ring, segs);

			e->flags |= PVSCSI_FLAG_CMD_WITH_SG_LIST;
			ctx->sglPA = dma_map_single(&adapter->dev->dev,
					ctx->sgl, SGL_SIZE, DMA_TO_DEVICE);
			if (dma_mapping_error(&adapter->dev->dev, ctx->sglPA)) {
				scmd_printk(KERN_ERR, cmd,
					    "vmw_pvscsi: Failed to map ctx sglist for DMA.\n");
				scsi_dma_unmap_ring(cmd);
				ctx->sglPA = 0;
				return -ENOMEM;
			}
			e->dataAddr = ctx->sglPA;
		} else
			e->dataAddr = sg_dma_address(pvscsi_first_dma_sg(ring));
	} else {
		/*
		 * In case there is no S/G list, the first array of the ring
		 * points directly to the buffer.
		 */
		ctx->dataPA = dma_map_single(&adapter->dev->dev,
					     ring ? ring->sg : NULL, bufflen,
					     cmd->sc_data_direction);
		if (dma_mapping_error(&adapter->dev->dev, ctx->dataPA)) {
			scmd_printk(KERN_DEBUG, cmd,
				    "vmw_pvscsi: Failed to map direct data buffer for DMA.\n");
			return -ENOMEM;
		}
		e->dataAddr = ctx->dataPA;
	}

	return 0;
}
@@ drivers/scsi/vmw_pvscsi.c pvscsi_unmap_buffers
static void pvscsi_unmap_buffers(const struct pvscsi_adapter *adapter,
				 struct pvscsi_ctx *ctx)
{
	struct scsi_cmnd *cmd;
	unsigned bufflen;

	cmd = ctx->cmd;
	bufflen = scsi_bufflen(cmd);

	if (bufflen != 0) {
		struct sg_ring *ring = scsi_sgring(cmd);

		if (ring && sg_ring_num(ring)) {
			scsi_dma_unmap_ring(cmd);
			if (ctx->sglPA) {
				dma_unmap_single(&adapter->dev->dev, ctx->sglPA,
						 SGL_SIZE, DMA_TO_DEVICE);
				ctx->sglPA = 0;
			}
		} else
			dma_unmap_single(&adapter->dev->dev, ctx->dataPA,
					 bufflen, cmd->sc_data_direction);
	}
	if (cmd->sense_buffer)
		dma_unmap_single(&adapter->dev->dev, ctx->sensePA,
				 SCSI_SENSE_BUFFERSIZE, DMA_FROM_DEVICE);
}
@@ include/linux/sg_ring.h sg_alloc_ring_chained
static inline int sg_alloc_ring_chained(struct sg_ring *head,
					unsigned int nents, gfp_t gfp)
{
	/* Checked out of line, and here only with CONFIG_DEBUG_SG. */
	if (IS_ENABLED(CONFIG_DEBUG_SG) && WARN_ON_ONCE(!list_empty(&head->list)))
		return -EINVAL;
	if (likely(nents <= head->max))
		return 0;
	return __sg_alloc_ring_chained(head, nents, gfp);
}
@@ include/linux/sg_ring.h sg_free_ring_chained
static inline void sg_free_ring_chained(struct sg_ring *head)
{
	if (!list_empty(&head->list))
		__sg_free_ring_chained(head);
}
@@ kernel/dma/mapping.c __dma_map_sg_ring_ops
static int __dma_map_sg_ring_ops(struct device *dev, struct sg_ring *head,
				 enum dma_data_direction dir,
				 unsigned long attrs,
				 const struct dma_map_ops *ops)
{
	bool overfull = false;
	struct sg_ring *ring;
	int ents;

	for (ring = head; ring; ring = sg_ring_next(ring, head)) {
		ring->dma_num = 0;
		overfull |= ring->num > ring->max;
	}
	if (WARN_ON_ONCE(overfull || !valid_dma_direction(dir)))
		return -EINVAL;
	if (WARN_ON_ONCE(!dev->dma_mask))
		return -EIO;

	ents = ops->map_sg_ring(dev, head, dir, attrs);
	if (ents < 0) {
		if (WARN_ON_ONCE(ents != -EINVAL && ents != -ENOMEM &&
				 ents != -EIO && ents != -EREMOTEIO))
			return -EIO;
		return ents;
	}

	if (IS_ENABLED(CONFIG_KMSAN)) {
		for (ring = head; ring; ring = sg_ring_next(ring, head))
			if (ring->dma_num)
				kmsan_handle_dma_sg(ring->sg, ring->num, dir);
	}
	debug_dma_map_sg_ring(dev, head, dir, attrs);
	return ents;
}
@@ kernel/dma/mapping.c __dma_unmap_sg_ring_attrs
static void __dma_unmap_sg_ring_attrs(struct device *dev,
				      struct sg_ring *head,
				      enum dma_data_direction dir,
				      unsigned long attrs)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);
	struct sg_ring *ring;

	if (dma_map_sg_ring_at_once(dev, ops, head)) {
		if (WARN_ON_ONCE(!valid_dma_direction(dir)))
			return;
		debug_dma_unmap_sg_ring(dev, head, dir);
		/* which resets every dma_num */
		ops->unmap_sg_ring(dev, head, dir, attrs);
		return;
	}

	for (ring = head; ring; ring = sg_ring_next(ring, head)) {
		if (!ring->dma_num)
			continue;
		/* Unmap with the original number of entries, as required. */
		dma_unmap_sg_attrs(dev, ring->sg, ring->num, dir, attrs);
		ring->dma_num = 0;
	}
}
@@ kernel/dma/mapping.c dma_map_sg_ring_at_once
static __always_inline bool
dma_map_sg_ring_at_once(struct device *dev, const struct dma_map_ops *ops,
			const struct sg_ring *head)
{
	return !list_empty(&head->list) && !dma_map_direct(dev, ops) &&
		ops->map_sg_ring &&
		(!ops->can_map_sg_ring || ops->can_map_sg_ring(dev));
}
@@ kernel/dma/mapping.c dma_map_sg_ring_attrs
int dma_map_sg_ring_attrs(struct device *dev, struct sg_ring *head,
			  enum dma_data_direction dir, unsigned long attrs)
{
	const struct dma_map_ops *ops = get_dma_ops(dev);
	struct sg_ring *ring;
	int total = 0;
	int ents;

	if (dma_map_sg_ring_at_once(dev, ops, head))
		return __dma_map_sg_ring_ops(dev, head, dir, attrs, ops);

	for (ring = head; ring; ring = sg_ring_next(ring, head)) {
		ring->dma_num = 0;
		if (!ring->num)
			continue;
		if (WARN_ON_ONCE(ring->num > ring->max)) {
			ents = -EINVAL;
			goto unmap;
		}
		ents = __dma_map_sg_attrs(dev, ring->sg, ring->num, dir, attrs);
		if (ents <= 0) {
			if (!ents)
				ents = -EIO;
			goto unmap;
		}
		ring->dma_num = ents;
		total += ents;
	}
	return total;

unmap:
	/* The arrays after @ring were not reached: clear their dma_num. */
	while ((ring = sg_ring_next(ring, head)))
		ring->dma_num = 0;
	/* Nothing reached the device: no need to sync for the CPU. */
	__dma_unmap_sg_ring_attrs(dev, head, dir,
				  attrs | DMA_ATTR_SKIP_CPU_SYNC);
	return ents;
}
@@ kernel/dma/mapping.c dma_unmap_sg_ring_attrs
void dma_unmap_sg_ring_attrs(struct device *dev, struct sg_ring *head,
			     enum dma_data_direction dir, unsigned long attrs)
{
	__dma_unmap_sg_ring_attrs(dev, head, dir, attrs);
}
@@ lib/sg_pool.c __sg_alloc_ring_chained
int __sg_alloc_ring_chained(struct sg_ring *head, unsigned int nents, gfp_t gfp)
{
	return sg_ring_alloc_tail(head, nents, gfp, sg_ring_pool_alloc,
				  sg_ring_pool_free, false);
}
@@ lib/sg_pool.c __sg_free_ring_chained
void __sg_free_ring_chained(struct sg_ring *head)
{
	sg_ring_free_tail(head, sg_ring_pool_free);
}
@@ lib/sg_pool.c sg_ring_free_tail
static __always_inline void sg_ring_free_tail(struct sg_ring *head,
					      sg_ring_free_fn *free_fn)
{
	struct sg_ring *ring, *next;

	list_for_each_entry_safe(ring, next, &head->list, list) {
		list_del(&ring->list);
		free_fn(ring);
	}
}
@@ lib/sg_ring.c sg_ring_copy_buffer
size_t sg_ring_copy_buffer(const struct sg_ring *head, void *buf,
			   size_t buflen, off_t skip, bool to_buffer)
{
	if (WARN_ON_ONCE(!buf && buflen))
		return 0;
	/* A ring of one array is a scatterlist: copy it as 6.1 does. */
	if (list_empty(&head->list) && skip >= 0)
		return sg_copy_buffer((struct scatterlist *)head->sg, head->num,
				      buf, buflen, skip, to_buffer);
	return sg_ring_xfer(head, buf, buflen, skip, to_buffer);
}
@@ lib/sg_ring.c sg_ring_miter_next
bool sg_ring_miter_next(struct sg_ring_miter *m)
{
	while (!sg_miter_next(&m->miter)) {
		/* sg_miter_next() has already released the last mapping. */
		if (!sg_ring_miter_next_array(m))
			return false;
	}
	return true;
}
@@ lib/sg_ring.c sg_ring_miter_next_array
static bool sg_ring_miter_next_array(struct sg_ring_miter *m)
{
	unsigned int flags = m->miter.__flags;
	const struct sg_ring *next;

	if (!m->cur)
		return false;
	next = sg_ring_used(m->head, sg_ring_next(m->cur, m->head));
	sg_ring_miter_set(m, next, flags);
	return !!next;
}
@@ lib/sg_ring.c sg_ring_miter_set
static void sg_ring_miter_set(struct sg_ring_miter *m,
			      const struct sg_ring *ring, unsigned int flags)
{
	m->cur = ring;
	if (ring)
		sg_miter_start(&m->miter, (struct scatterlist *)ring->sg,
			       ring->num, flags);
	else
		sg_miter_start(&m->miter, NULL, 0, flags);
}
@@ lib/sg_ring.c sg_ring_xfer
static size_t sg_ring_xfer(const struct sg_ring *head, void *buf,
			   size_t buflen, off_t skip, bool to_buffer)
{
	const struct sg_ring *ring;
	size_t offset = 0;

	if (skip < 0)
		return 0;

	for (ring = sg_ring_used(head, head); ring && offset < buflen;
	     ring = sg_ring_used(head, sg_ring_next(ring, head))) {
		struct scatterlist *sgl = (struct scatterlist *)ring->sg;

		if (skip) {
			size_t len = sg_ring_array_len(ring);

			if (skip >= len) {
				skip -= len;
				continue;
			}
		}

		if (buf)
			offset += sg_copy_buffer(sgl, ring->num, buf + offset,
						 buflen - offset, skip,
						 to_buffer);
		else
			offset += sg_zero_buffer(sgl, ring->num,
						 buflen - offset, skip);
		skip = 0;
	}

	return offset;
}
