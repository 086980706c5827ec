#include "stubs.h"
#include MAP_C
static uint64_t s = 16;
static unsigned int rnd(unsigned int n) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return (unsigned int)(s >> 11) % n; }
#define MAXB 2048
#define MAXBIO 8
#define BIOV 1024
#define CHUNK (PAGE_SIZE << 4)
#define MAXSEG (5 * MAXB)
static struct bio bios[MAXBIO];
static struct bio_vec vecs[MAXBIO][BIOV];
static struct scatterlist ref[MAXSEG];
int main(int argc, char **argv)
{
	int cases = argc > 1 ? atoi(argv[1]) : 2000, i;
	static const unsigned int max_seg[] = { PAGE_SIZE, 2 * PAGE_SIZE, 65536, 0x3fffff, 0xffffffffu };
	static const unsigned long boundary[] = { PAGE_SIZE - 1, 0xffff, 0x1ffff, 0xffffffff, ~0UL };
	long total = 0, merged_cases = 0;
	sg_init_table(ref, MAXSEG);
	for (i = 0; i < cases; i++) {
		struct request_queue q; struct request rq = {0};
		unsigned int nvec, nbio, b, j, off = 0, ch = 0, len = 0, hmax, extra, left;
		struct bio *prev = NULL; struct scatterlist *last = NULL;
		struct sg_ring *head, *ring; int nref, nring, k = 0;
		q.limits.max_segment_size = max_seg[rnd(5)];
		if (!rnd(4)) q.limits.max_segment_size = PAGE_SIZE + 512 * rnd(64);
		q.limits.seg_boundary_mask = boundary[rnd(5)];
		nvec = 1 + (rnd(MAXB) >> rnd(12));
		nbio = 1 + rnd(MAXBIO); if (nbio < (nvec + BIOV - 1) / BIOV) nbio = (nvec + BIOV - 1) / BIOV;
		if (nbio > nvec) nbio = nvec;
		for (b = 0; b < nbio; b++) {
			struct bio *bio = &bios[b]; unsigned int n = nvec / nbio + (b < nvec % nbio);
			memset(bio, 0, sizeof(*bio)); bio->bi_io_vec = vecs[b];
			for (j = 0; j < n; j++) {
				struct bio_vec *bv = &bio->bi_io_vec[j];
				if (!len || rnd(3)) { ch = rnd(4); off = rnd(CHUNK); } else off += len;
				len = 1 + rnd(4 * PAGE_SIZE);
				if (rnd(2)) len = (len + 511) & ~511u;
				if (off >= CHUNK) off = rnd(CHUNK);
				len = min(len, CHUNK - off);
				bv->bv_page = pages + ch * 16 + (off >> PAGE_SHIFT);
				bv->bv_offset = off & ~PAGE_MASK; bv->bv_len = len;
				bio->bi_iter.bi_size += len;
			}
			bio->bi_vcnt = n;
			if (prev) prev->bi_next = bio; else rq.bio = bio;
			prev = bio;
		}
		rq.nr_phys_segments = 65535;
		nref = __blk_rq_map_sg(&q, &rq, ref, &last);
		if (nref < (int)nvec) merged_cases++;
		/* ring */
		hmax = rnd(5); extra = rnd(3);
		head = malloc(sizeof(*head) + 4 * sizeof(struct scatterlist));
		sg_ring_init(head, hmax);
		left = nref + extra > hmax ? nref + extra - hmax : 0;
		while (left) { unsigned int n = min(left, 127u); struct sg_ring *r = malloc(sizeof(*r) + n * sizeof(struct scatterlist)); sg_ring_init(r, n); list_add_tail(&r->list, &head->list); left -= n; }
		for (ring = head; ring; ring = sg_ring_next(ring, head)) if (ring->max) sg_mark_end(&ring->sg[rnd(ring->max)]);
		nring = blk_rq_map_sg_ring(&q, &rq, head);
		if (nring != nref) { printf("case %d: count %d vs %d\n", i, nring, nref); return 1; }
		for (ring = head; ring; ring = sg_ring_next(ring, head)) {
			if (ring->num > ring->max) { printf("case %d num>max\n", i); return 1; }
			for (j = 0; j < ring->num && k < nref; j++, k++) {
				struct scatterlist *sg = &ring->sg[j];
				if (sg_page(sg) != sg_page(&ref[k]) || sg->offset != ref[k].offset || sg->length != ref[k].length ||
				    !!sg_is_last(sg) != (j + 1 == ring->num)) {
					printf("case %d: segment %d of %d differs\n", i, k, nref); return 1; }
			}
		}
		if (k != nref) { printf("case %d: k %d nref %d\n", i, k, nref); return 1; }
		if (!sg_is_last(&ref[nref - 1])) { printf("ref not ended\n"); return 1; }
		memset(ref, 0, nref * sizeof(*ref));
		total += nref;
		for (ring = sg_ring_next(head, head); ring; ) { struct sg_ring *n = sg_ring_next(ring, head); free(ring); ring = n; }
		free(head);
	}
	printf("%d cases equal, %ld segments, %ld cases with merges/splits fewer segs than bvecs\n", cases, total, merged_cases);
	return 0;
}
