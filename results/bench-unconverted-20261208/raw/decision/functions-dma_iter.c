@@ block/blk-mq-dma.c blk_dma_iova_next
static bool blk_dma_iova_next(struct request *req, struct blk_dma_iter *iter)
{
	unsigned long mask = queue_segment_boundary(req->q);
	size_t len;

	if (!iter->iova_left)
		return false;
	len = min_t(unsigned long, mask - (iter->iova_next & mask),
		    queue_max_segment_size(req->q) - 1) + 1;
	len = min(len, iter->iova_left);
	iter->addr = iter->iova_next;
	iter->len = len;
	iter->iova_next += len;
	iter->iova_left -= len;
	return true;
}
@@ block/blk-mq-dma.c blk_dma_map_iova
static bool blk_dma_map_iova(struct request *req, struct device *dma_dev,
			     struct dma_iova_state *state,
			     struct blk_dma_iter *iter)
{
	unsigned long mask = dma_get_merge_boundary(dma_dev);
	size_t total = blk_rq_payload_bytes(req), mapped = 0;
	struct blk_map_iter walk = iter->iter;
	bool end_aligned = true;
	unsigned int offset, len;
	struct page *page;
	phys_addr_t phys;

	if (!mask || !total)
		return false;
	while (blk_map_iter_next(req, &walk, &page, &offset, &len)) {
		phys = page_to_phys(page) + offset;
		if (!mapped) {
			if (!dma_iova_try_alloc(dma_dev, state, phys, total))
				return false;
		} else if (!end_aligned || (phys & mask)) {
			goto unlink;
		}
		if (dma_iova_link(dma_dev, state, phys, mapped, len,
				  rq_dma_dir(req), 0)) {
			dma_iova_destroy(dma_dev, state, mapped,
					 rq_dma_dir(req), 0);
			iter->status = BLK_STS_RESOURCE;
			return true;
		}
		end_aligned = !((phys + len) & mask);
		mapped += len;
	}
	/* the walk covers the payload, as __blk_rq_map_sg()'s does */
	if (WARN_ON_ONCE(mapped != total))
		goto unlink;
	dma_iova_sync(dma_dev, state, 0, total);
	iter->iova_next = state->addr;
	iter->iova_left = total;
	return blk_dma_iova_next(req, iter);

unlink:
	dma_iova_destroy(dma_dev, state, mapped, rq_dma_dir(req), 0);
	return false;
}
@@ block/blk-mq-dma.c blk_dma_map_seg
static bool blk_dma_map_seg(struct request *req, struct device *dma_dev,
			    struct blk_dma_iter *iter, struct page *page,
			    unsigned int offset, unsigned int len)
{
	iter->addr = dma_map_page_attrs(dma_dev, page, offset, len,
					rq_dma_dir(req), 0);
	if (unlikely(dma_mapping_error(dma_dev, iter->addr))) {
		iter->status = BLK_STS_RESOURCE;
		return false;
	}
	iter->len = len;
	return true;
}
@@ block/blk-mq-dma.c blk_map_iter_fetch
static bool blk_map_iter_fetch(struct blk_map_iter *it)
{
	while (!it->iter.bi_size) {
		if (!it->bio || !it->bio->bi_next)
			return false;
		it->bio = it->bio->bi_next;
		it->iter = it->bio->bi_iter;
	}
	it->bv = mp_bvec_iter_bvec(it->bio->bi_io_vec, it->iter);
	bvec_iter_advance_single(it->bio->bi_io_vec, &it->iter, it->bv.bv_len);
	it->bv_done = 0;
	return true;
}
@@ block/blk-mq-dma.c blk_map_iter_merge
static void blk_map_iter_merge(struct request_queue *q,
			       struct blk_map_iter *it, unsigned int *len)
{
	struct bio_vec prev = it->bv, next;
	struct bio *bio = it->bio;

	while (!it->iter.bi_size && bio->bi_next) {
		bio = bio->bi_next;
		if (!bio->bi_iter.bi_size)
			continue;
		it->bio = bio;
		it->iter = bio->bi_iter;
		next = mp_bvec_iter_bvec(bio->bi_io_vec, it->iter);
		if (*len + next.bv_len > queue_max_segment_size(q) ||
		    !biovec_phys_mergeable(q, &prev, &next))
			return;
		*len += next.bv_len;
		bvec_iter_advance_single(bio->bi_io_vec, &it->iter,
					 next.bv_len);
		it->bv = next;
		it->bv_done = next.bv_len;
		prev = next;
	}
}
@@ block/blk-mq-dma.c blk_map_iter_next
static bool blk_map_iter_next(struct request *req, struct blk_map_iter *it,
			      struct page **page, unsigned int *offset,
			      unsigned int *len)
{
	struct bio_vec *bv = &it->bv;
	unsigned int off;

	if (it->bv_done == bv->bv_len && !blk_map_iter_fetch(it))
		return false;

	if (!it->bv_done && bv->bv_offset + bv->bv_len <= PAGE_SIZE) {
		*page = bv->bv_page;
		*offset = bv->bv_offset;
		*len = bv->bv_len;
	} else {
		off = bv->bv_offset + it->bv_done;
		*len = min(get_max_segment_size(&req->q->limits, bv->bv_page,
						off),
			   bv->bv_len - it->bv_done);
		*page = bv->bv_page + (off >> PAGE_SHIFT);
		*offset = off & ~PAGE_MASK;
	}
	it->bv_done += *len;

	if (it->bv_done == bv->bv_len && !it->iter.bi_size && it->bio)
		blk_map_iter_merge(req->q, it, len);
	return true;
}
@@ block/blk-mq-dma.c blk_rq_dma_map_iter_next
bool blk_rq_dma_map_iter_next(struct request *req, struct device *dma_dev,
			      struct dma_iova_state *state,
			      struct blk_dma_iter *iter)
{
	struct page *page;
	unsigned int offset, len;

	if (dma_use_iova(state))
		return blk_dma_iova_next(req, iter);
	if (!blk_map_iter_next(req, &iter->iter, &page, &offset, &len))
		return false;
	return blk_dma_map_seg(req, dma_dev, iter, page, offset, len);
}
@@ block/blk-mq-dma.c blk_rq_dma_map_iter_start
bool blk_rq_dma_map_iter_start(struct request *req, struct device *dma_dev,
			       struct dma_iova_state *state,
			       struct blk_dma_iter *iter)
{
	struct blk_map_iter *it = &iter->iter;
	struct bio *bio = req->bio;
	struct page *page;
	unsigned int offset, len;

	iter->status = BLK_STS_OK;
	iter->iova_left = 0;
	state->__size = 0;
	it->bv_done = 0;
	it->bv.bv_len = 0;

	if (req->rq_flags & RQF_SPECIAL_PAYLOAD) {
		it->bio = NULL;
		it->iter.bi_size = 0;
		return blk_dma_map_seg(req, dma_dev, iter,
				       req->special_vec.bv_page,
				       req->special_vec.bv_offset,
				       req->special_vec.bv_len);
	}
	/* the flush request has no bio */
	if (!bio) {
		it->bio = NULL;
		it->iter.bi_size = 0;
		return false;
	}

	it->bio = bio;
	it->iter = bio->bi_iter;
	if (!bio->bi_next && bio->bi_iter.bi_size) {
		struct bio_vec bv = mp_bvec_iter_bvec(bio->bi_io_vec,
						      bio->bi_iter);

		/* the single-segment fast path */
		if (bv.bv_len == bio->bi_iter.bi_size &&
		    bv.bv_offset + bv.bv_len <= PAGE_SIZE) {
			it->iter.bi_size = 0;
			return blk_dma_map_seg(req, dma_dev, iter, bv.bv_page,
					       bv.bv_offset, bv.bv_len);
		}
	}

	if (blk_dma_map_iova(req, dma_dev, state, iter))
		return iter->status == BLK_STS_OK;
	if (!blk_map_iter_next(req, it, &page, &offset, &len))
		return false;
	return blk_dma_map_seg(req, dma_dev, iter, page, offset, len);
}
@@ drivers/iommu/dma-iommu.c dma_iova_destroy
void dma_iova_destroy(struct device *dev, struct dma_iova_state *state,
		      size_t mapped_len, enum dma_data_direction dir,
		      unsigned long attrs)
{
	struct iommu_domain *domain = iommu_get_dma_domain(dev);
	struct iommu_dma_cookie *cookie = domain->iova_cookie;
	struct iova_domain *iovad = &cookie->iovad;
	size_t iova_start_pad = iova_offset(iovad, state->addr);
	dma_addr_t addr = state->addr - iova_start_pad;
	size_t size = iova_align(iovad, state->__size + iova_start_pad);
	struct iommu_iotlb_gather iotlb_gather;
	size_t unmapped;

	if (!mapped_len) {
		dma_iova_free(dev, state);
		return;
	}
	if (!dev_is_dma_coherent(dev) && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		iommu_dma_iova_sync_for_cpu(domain, state->addr, mapped_len,
					    dir);

	iommu_iotlb_gather_init(&iotlb_gather);
	iotlb_gather.queued = READ_ONCE(cookie->fq_domain);
	mapped_len = iova_align(iovad, mapped_len + iova_start_pad);
	unmapped = iommu_unmap_fast(domain, addr, mapped_len, &iotlb_gather);
	WARN_ON(unmapped != mapped_len);
	if (!iotlb_gather.queued)
		iommu_iotlb_sync(domain, &iotlb_gather);
	iommu_dma_free_iova(cookie, addr, size, &iotlb_gather);
	state->__size = 0;
}
@@ drivers/iommu/dma-iommu.c dma_iova_free
void dma_iova_free(struct device *dev, struct dma_iova_state *state)
{
	struct iommu_domain *domain = iommu_get_dma_domain(dev);
	struct iommu_dma_cookie *cookie = domain->iova_cookie;
	struct iova_domain *iovad = &cookie->iovad;
	size_t iova_off = iova_offset(iovad, state->addr);

	iommu_dma_free_iova(cookie, state->addr - iova_off,
			    iova_align(iovad, state->__size + iova_off), NULL);
	state->__size = 0;
}
@@ drivers/iommu/dma-iommu.c dma_iova_link
int dma_iova_link(struct device *dev, struct dma_iova_state *state,
		  phys_addr_t phys, size_t offset, size_t size,
		  enum dma_data_direction dir, unsigned long attrs)
{
	struct iommu_domain *domain = iommu_get_dma_domain(dev);
	struct iommu_dma_cookie *cookie = domain->iova_cookie;
	struct iova_domain *iovad = &cookie->iovad;
	size_t iova_start_pad = iova_offset(iovad, phys);
	bool coherent = dev_is_dma_coherent(dev);

	if (WARN_ON_ONCE(iova_start_pad && offset > 0))
		return -EIO;
	if (WARN_ON_ONCE(offset + size > state->__size))
		return -EIO;

	if (!coherent && !(attrs & DMA_ATTR_SKIP_CPU_SYNC))
		arch_sync_dma_for_device(phys, size, dir);

	return iommu_map_nosync(domain, state->addr + offset - iova_start_pad,
				phys - iova_start_pad,
				iova_align(iovad, size + iova_start_pad),
				dma_info_to_prot(dir, coherent, attrs),
				GFP_ATOMIC);
}
@@ drivers/iommu/dma-iommu.c dma_iova_sync
int dma_iova_sync(struct device *dev, struct dma_iova_state *state,
		  size_t offset, size_t size)
{
	struct iommu_domain *domain = iommu_get_dma_domain(dev);
	struct iommu_dma_cookie *cookie = domain->iova_cookie;
	struct iova_domain *iovad = &cookie->iovad;
	dma_addr_t addr = state->addr + offset;
	size_t iova_start_pad = iova_offset(iovad, addr);

	iommu_sync_map(domain, addr - iova_start_pad,
		       iova_align(iovad, size + iova_start_pad));
	return 0;
}
@@ drivers/iommu/dma-iommu.c dma_iova_try_alloc
bool dma_iova_try_alloc(struct device *dev, struct dma_iova_state *state,
			phys_addr_t phys, size_t size)
{
	struct iommu_domain *domain;
	struct iova_domain *iovad;
	size_t iova_off;
	dma_addr_t iova;

	memset(state, 0, sizeof(*state));
	if (get_dma_ops(dev) != &iommu_dma_ops || dev_use_swiotlb(dev))
		return false;
	if (WARN_ON_ONCE(!size))
		return false;

	domain = iommu_get_dma_domain(dev);
	iovad = &((struct iommu_dma_cookie *)domain->iova_cookie)->iovad;
	if (static_branch_unlikely(&iommu_deferred_attach_enabled) &&
	    iommu_deferred_attach(dev, domain))
		return false;

	iova_off = iova_offset(iovad, phys);
	iova = iommu_dma_alloc_iova(domain, iova_align(iovad, size + iova_off),
				    dma_get_mask(dev), dev);
	if (!iova)
		return false;
	state->addr = iova + iova_off;
	state->__size = size;
	return true;
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

	if (!sdb->length || !sip)
		return 0;
	if (scp->sc_data_direction != dir)
		return -1;
	fsp = sip->storep;

	block = do_div(lba, sdebug_store_sectors);
	if (block + num > sdebug_store_sectors)
		rest = block + num - sdebug_store_sectors;

	ret = sdeb_copy_data(scp, fsp + (block * sdebug_sector_size),
			     (num - rest) * sdebug_sector_size, sg_skip,
			     do_write);
	if (ret != (num - rest) * sdebug_sector_size)
		return ret;

	if (rest) {
		ret += sdeb_copy_data(scp, fsp, rest * sdebug_sector_size,
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
	if (!scsi_bufflen(scp))
		return 0;
	if (scp->sc_data_direction != DMA_TO_DEVICE)
		return -1;

	return sdeb_copy_data(scp, arr, arr_len, 0, true);
}
@@ drivers/scsi/scsi_debug.c fill_from_dev_buffer
static int fill_from_dev_buffer(struct scsi_cmnd *scp, unsigned char *arr,
				int arr_len)
{
	int act_len;
	struct scsi_data_buffer *sdb = &scp->sdb;

	if (!sdb->length)
		return 0;
	if (scp->sc_data_direction != DMA_FROM_DEVICE)
		return DID_ERROR << 16;

	act_len = sdeb_copy_data(scp, arr, arr_len, 0, false);
	scsi_set_resid(scp, scsi_bufflen(scp) - act_len);

	return 0;
}
@@ drivers/scsi/scsi_debug.c sdeb_copy_data
static size_t sdeb_copy_data(struct scsi_cmnd *scp, void *buf, size_t buflen,
			     size_t skip, bool to_buffer)
{
	struct request *rq = scsi_cmd_to_rq(scp);
	struct req_iterator iter;
	struct bio_vec bv;
	size_t done = 0;

	if (scsi_sg_count(scp))
		return sg_copy_buffer(scsi_sglist(scp), scsi_sg_count(scp), buf,
				      buflen, skip, to_buffer);

	if (rq->rq_flags & RQF_SPECIAL_PAYLOAD) {
		bv = rq->special_vec;
		if (skip >= bv.bv_len)
			return 0;
		bv.bv_offset += skip;
		bv.bv_len = min_t(size_t, bv.bv_len - skip, buflen);
		if (to_buffer)
			memcpy_from_bvec(buf, &bv);
		else
			memcpy_to_bvec(&bv, buf);
		return bv.bv_len;
	}

	rq_for_each_segment(bv, rq, iter) {
		if (done == buflen)
			break;
		if (skip >= bv.bv_len) {
			skip -= bv.bv_len;
			continue;
		}
		bv.bv_offset += skip;
		bv.bv_len = min_t(size_t, bv.bv_len - skip, buflen - done);
		skip = 0;
		if (to_buffer)
			memcpy_from_bvec(buf + done, &bv);
		else
			memcpy_to_bvec(&bv, buf + done);
		done += bv.bv_len;
	}
	return done;
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
		sg_init_one(&ses->sense_sgl, scmd->sense_buffer,
			    scmd->sdb.length);
		scmd->sdb.table.sgl = &ses->sense_sgl;
		scmd->sc_data_direction = DMA_FROM_DEVICE;
		scmd->sdb.table.nents = scmd->sdb.table.orig_nents = 1;
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
	struct request *rq = scsi_cmd_to_rq(cmd);
	unsigned short nr_segs = blk_rq_nr_phys_segments(rq);
	struct scatterlist *last_sg = NULL;
	blk_status_t ret;
	bool need_drain = scsi_cmd_needs_dma_drain(sdev, rq);
	int count;

	if (WARN_ON_ONCE(!nr_segs))
		return BLK_STS_IOERR;

	if (sdev->host->hostt->no_data_sgtable) {
		ret = scsi_setup_data_bvecs(cmd, need_drain);
		if (ret)
			return ret;
		goto map_integrity;
	}

	/*
	 * Make sure there is space for the drain.  The driver must adjust
	 * max_hw_segments to be prepared for this.
	 */
	if (need_drain)
		nr_segs++;

	/*
	 * If sg table allocation fails, requeue request later.
	 */
	if (unlikely(sg_alloc_table_chained(&cmd->sdb.table, nr_segs,
			cmd->sdb.table.sgl, SCSI_INLINE_SG_CNT)))
		return BLK_STS_RESOURCE;

	/*
	 * Next, walk the list, and fill in the addresses and sizes of
	 * each segment.
	 */
	count = __blk_rq_map_sg(rq->q, rq, cmd->sdb.table.sgl, &last_sg);

	if (blk_rq_bytes(rq) & rq->q->dma_pad_mask) {
		unsigned int pad_len =
			(rq->q->dma_pad_mask & ~blk_rq_bytes(rq)) + 1;
		unsigned int data_len = last_sg->length;

		last_sg->length += pad_len;
		sg_zero_buffer(last_sg, 1, pad_len, data_len);
		cmd->extra_len += pad_len;
	}

	if (need_drain) {
		sg_unmark_end(last_sg);
		last_sg = sg_next(last_sg);
		sg_set_buf(last_sg, sdev->dma_drain_buf, sdev->dma_drain_len);
		sg_mark_end(last_sg);

		cmd->extra_len += sdev->dma_drain_len;
		count++;
	}

	BUG_ON(count > cmd->sdb.table.nents);
	cmd->sdb.table.nents = count;
	cmd->sdb.length = blk_rq_payload_bytes(rq);

map_integrity:
	if (blk_integrity_rq(rq)) {
		struct scsi_data_buffer *prot_sdb = cmd->prot_sdb;
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

		if (sg_alloc_table_chained(&prot_sdb->table, ivecs,
				prot_sdb->table.sgl,
				SCSI_INLINE_PROT_SG_CNT)) {
			ret = BLK_STS_RESOURCE;
			goto out_free_sgtables;
		}

		count = blk_rq_map_integrity_sg(rq->q, rq->bio,
						prot_sdb->table.sgl);
		BUG_ON(count > ivecs);
		BUG_ON(count > queue_max_integrity_segments(rq->q));

		cmd->prot_sdb = prot_sdb;
		cmd->prot_sdb->table.nents = count;
	}

	return BLK_STS_OK;
out_free_sgtables:
	scsi_free_sgtables(cmd);
	return ret;
}
@@ drivers/scsi/scsi_lib.c scsi_free_sgtables
void scsi_free_sgtables(struct scsi_cmnd *cmd)
{
	if (cmd->sdb.table.nents)
		sg_free_table_chained(&cmd->sdb.table,
				SCSI_INLINE_SG_CNT);
	if (scsi_prot_sg_count(cmd))
		sg_free_table_chained(&cmd->prot_sdb->table,
				SCSI_INLINE_PROT_SG_CNT);
}
@@ drivers/scsi/scsi_lib.c scsi_setup_data_bvecs
static blk_status_t scsi_setup_data_bvecs(struct scsi_cmnd *cmd,
					  bool need_drain)
{
	struct request *rq = scsi_cmd_to_rq(cmd);

	if (WARN_ON_ONCE(need_drain ||
			 (blk_rq_bytes(rq) & rq->q->dma_pad_mask)))
		return BLK_STS_IOERR;
	cmd->sdb.table.nents = 0;
	cmd->sdb.length = blk_rq_payload_bytes(rq);
	return BLK_STS_OK;
}
@@ drivers/scsi/virtio_scsi.c __virtscsi_add_cmd
static int __virtscsi_add_cmd(struct virtqueue *vq,
			    struct virtio_scsi_cmd *cmd,
			    size_t req_size, size_t resp_size)
{
	struct scsi_cmnd *sc = cmd->sc;
	struct scatterlist *sgs[6], req, resp;
	struct sg_table *out, *in;
	unsigned out_num = 0, in_num = 0;

	out = in = NULL;

	if (sc && sc->sc_data_direction != DMA_NONE) {
		if (sc->sc_data_direction != DMA_FROM_DEVICE)
			out = &sc->sdb.table;
		if (sc->sc_data_direction != DMA_TO_DEVICE)
			in = &sc->sdb.table;
	}

	/* Request header.  */
	sg_init_one(&req, &cmd->req, req_size);
	sgs[out_num++] = &req;

	/* Data-out buffer.  */
	if (out) {
		/* Place WRITE protection SGLs before Data OUT payload */
		if (scsi_prot_sg_count(sc))
			sgs[out_num++] = scsi_prot_sglist(sc);
		sgs[out_num++] = out->sgl;
	}

	/* Response header.  */
	sg_init_one(&resp, &cmd->resp, resp_size);
	sgs[out_num + in_num++] = &resp;

	/* Data-in buffer */
	if (in) {
		/* Place READ protection SGLs before Data IN payload */
		if (scsi_prot_sg_count(sc))
			sgs[out_num + in_num++] = scsi_prot_sglist(sc);
		sgs[out_num + in_num++] = in->sgl;
	}

	return virtqueue_add_sgs(vq, sgs, out_num, in_num, cmd, GFP_ATOMIC);
}
@@ drivers/scsi/vmw_pvscsi.c pvscsi_map_buffers
static int pvscsi_map_buffers(struct pvscsi_adapter *adapter,
			      struct pvscsi_ctx *ctx, struct scsi_cmnd *cmd,
			      struct PVSCSIRingReqDesc *e)
{
	unsigned count;
	unsigned bufflen = scsi_bufflen(cmd);
	struct scatterlist *sg;

	e->dataLen = bufflen;
	e->dataAddr = 0;
	if (bufflen == 0)
		return 0;

	sg = scsi_sglist(cmd);
	count = scsi_sg_count(cmd);
	if (count != 0) {
		int segs = scsi_dma_map(cmd);

		if (segs == -ENOMEM) {
			scmd_printk(KERN_DEBUG, cmd,
				    "vmw_pvscsi: Failed to map cmd sglist for DMA.\n");
			return -ENOMEM;
		} else if (segs > 1) {
			pvscsi_create_sg(ctx, sg, segs);

			e->flags |= PVSCSI_FLAG_CMD_WITH_SG_LIST;
			ctx->sglPA = dma_map_single(&adapter->dev->dev,
					ctx->sgl, SGL_SIZE, DMA_TO_DEVICE);
			if (dma_mapping_error(&adapter->dev->dev, ctx->sglPA)) {
				scmd_printk(KERN_ERR, cmd,
					    "vmw_pvscsi: Failed to map ctx sglist for DMA.\n");
				scsi_dma_unmap(cmd);
				ctx->sglPA = 0;
				return -ENOMEM;
			}
			e->dataAddr = ctx->sglPA;
		} else
			e->dataAddr = sg_dma_address(sg);
	} else {
		/* no_data_sgtable: no S/G list, the request's bio_vecs */
		return pvscsi_map_request(adapter, ctx, cmd, e);
	}

	return 0;
}
@@ drivers/scsi/vmw_pvscsi.c pvscsi_map_request
static int pvscsi_map_request(struct pvscsi_adapter *adapter,
			      struct pvscsi_ctx *ctx, struct scsi_cmnd *cmd,
			      struct PVSCSIRingReqDesc *e)
{
	struct PVSCSISGElement *sge = ctx->sgl->sge;
	struct request *rq = scsi_cmd_to_rq(cmd);
	struct device *dev = &adapter->dev->dev;
	struct blk_dma_iter iter;
	unsigned int n = 0;
	bool more;

	for (more = blk_rq_dma_map_iter_start(rq, dev, &ctx->dma_state, &iter);
	     more;
	     more = blk_rq_dma_map_iter_next(rq, dev, &ctx->dma_state, &iter)) {
		/* the block layer keeps a request within sg_tablesize */
		if (WARN_ON_ONCE(n == PVSCSI_MAX_NUM_SG_ENTRIES_PER_SEGMENT)) {
			if (!dma_use_iova(&ctx->dma_state))
				dma_unmap_page(dev, iter.addr, iter.len,
					       rq_dma_dir(rq));
			goto unmap;
		}
		sge[n].addr = iter.addr;
		sge[n].length = iter.len;
		sge[n].flags = 0;
		n++;
	}
	if (iter.status != BLK_STS_OK || !n) {
		scmd_printk(KERN_DEBUG, cmd,
			    "vmw_pvscsi: Failed to map cmd data for DMA.\n");
		goto unmap;
	}
	ctx->data_segs = n;
	if (n == 1) {
		e->dataAddr = sge[0].addr;
		return 0;
	}

	e->flags |= PVSCSI_FLAG_CMD_WITH_SG_LIST;
	ctx->sglPA = dma_map_single(dev, ctx->sgl, SGL_SIZE, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, ctx->sglPA)) {
		scmd_printk(KERN_ERR, cmd,
			    "vmw_pvscsi: Failed to map ctx sglist for DMA.\n");
		ctx->sglPA = 0;
		goto unmap;
	}
	e->dataAddr = ctx->sglPA;
	return 0;

unmap:
	if (!blk_rq_dma_unmap(rq, dev, &ctx->dma_state,
			      blk_rq_payload_bytes(rq)))
		while (n--)
			dma_unmap_page(dev, sge[n].addr, sge[n].length,
				       rq_dma_dir(rq));
	ctx->data_segs = 0;
	return -ENOMEM;
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
		unsigned count = scsi_sg_count(cmd);

		if (count != 0) {
			scsi_dma_unmap(cmd);
			if (ctx->sglPA) {
				dma_unmap_single(&adapter->dev->dev, ctx->sglPA,
						 SGL_SIZE, DMA_TO_DEVICE);
				ctx->sglPA = 0;
			}
		} else
			pvscsi_unmap_request(adapter, ctx);
	}
	if (cmd->sense_buffer)
		dma_unmap_single(&adapter->dev->dev, ctx->sensePA,
				 SCSI_SENSE_BUFFERSIZE, DMA_FROM_DEVICE);
}
@@ drivers/scsi/vmw_pvscsi.c pvscsi_unmap_request
static void pvscsi_unmap_request(const struct pvscsi_adapter *adapter,
				 struct pvscsi_ctx *ctx)
{
	struct request *rq = scsi_cmd_to_rq(ctx->cmd);
	struct PVSCSISGElement *sge = ctx->sgl->sge;
	struct device *dev = &adapter->dev->dev;

	if (ctx->sglPA) {
		dma_unmap_single(dev, ctx->sglPA, SGL_SIZE, DMA_TO_DEVICE);
		ctx->sglPA = 0;
	}
	if (ctx->data_segs &&
	    blk_rq_dma_unmap(rq, dev, &ctx->dma_state,
			     blk_rq_payload_bytes(rq)))
		ctx->data_segs = 0;
	while (ctx->data_segs) {
		ctx->data_segs--;
		dma_unmap_page(dev, sge[ctx->data_segs].addr,
			       sge[ctx->data_segs].length, rq_dma_dir(rq));
	}
}
@@ include/linux/blk-mq-dma.h blk_rq_dma_unmap
static inline bool blk_rq_dma_unmap(struct request *req,
				    struct device *dma_dev,
				    struct dma_iova_state *state,
				    size_t mapped_len)
{
	if (!dma_use_iova(state))
		return false;
	dma_iova_destroy(dma_dev, state, mapped_len, rq_dma_dir(req), 0);
	return true;
}
