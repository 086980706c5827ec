/* userspace stand-ins for the kernel pieces the mapping code uses */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#undef __always_inline
#define __always_inline inline __attribute__((always_inline))
#define PAGE_SIZE 4096UL
#define PAGE_SHIFT 12
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define min_t(t, a, b) ((t)(a) < (t)(b) ? (t)(a) : (t)(b))
static unsigned long min_not_zero(unsigned long a, unsigned long b)
{ return a == 0 ? b : (b == 0 ? a : min(a, b)); }
static int warned;
#define WARN_ON_ONCE(c) ({ int __c = !!(c); if (__c && !warned++) fprintf(stderr, "WARN %s:%d\n", __FILE__, __LINE__); __c; })
#define WARN_ON(c) ({ int __c = !!(c); if (__c) { fprintf(stderr, "WARN %s:%d\n", __FILE__, __LINE__); abort(); } __c; })
struct page { char x; };
#define NPAGES (4 * 16 + 16)
static struct page pages[NPAGES];
static unsigned long page_to_phys(struct page *p) { return (unsigned long)(p - pages) * PAGE_SIZE + 0x100000; }
struct list_head { struct list_head *next, *prev; };
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
#define list_entry container_of
static void INIT_LIST_HEAD(struct list_head *l) { l->next = l->prev = l; }
static void list_add_tail(struct list_head *n, struct list_head *h)
{ n->prev = h->prev; n->next = h; h->prev->next = n; h->prev = n; }
struct scatterlist { unsigned long page_link; unsigned int offset, length; unsigned long dma_address; unsigned int dma_length; };
#define SG_CHAIN 1UL
#define SG_END 2UL
#define sg_is_last(sg) ((sg)->page_link & SG_END)
#define sg_is_chain(sg) ((sg)->page_link & SG_CHAIN)
static struct page *sg_page(struct scatterlist *sg) { return (struct page *)(sg->page_link & ~3UL); }
static void sg_set_page(struct scatterlist *sg, struct page *page, unsigned int len, unsigned int off)
{ sg->page_link = (sg->page_link & 3UL) | (unsigned long)page; sg->offset = off; sg->length = len; }
static void sg_mark_end(struct scatterlist *sg) { sg->page_link |= SG_END; sg->page_link &= ~SG_CHAIN; }
static void sg_unmark_end(struct scatterlist *sg) { sg->page_link &= ~SG_END; }
static struct scatterlist *sg_next(struct scatterlist *sg)
{ if (sg_is_last(sg)) return NULL; sg++; if (sg_is_chain(sg)) sg = (struct scatterlist *)(sg->page_link & ~3UL); return sg; }
static void sg_init_table(struct scatterlist *sg, unsigned int n) { memset(sg, 0, n * sizeof(*sg)); sg_mark_end(&sg[n - 1]); }
struct sg_ring { struct list_head list; unsigned int num, max, dma_num; struct scatterlist sg[]; };
static struct sg_ring *sg_ring_next(const struct sg_ring *ring, const struct sg_ring *head)
{ struct sg_ring *next = list_entry(ring->list.next, struct sg_ring, list); return next == head ? NULL : next; }
static void sg_ring_init(struct sg_ring *r, unsigned int max)
{ INIT_LIST_HEAD(&r->list); r->num = 0; r->max = max; r->dma_num = 0; if (max) sg_init_table(r->sg, max); }
struct bio_vec { struct page *bv_page; unsigned int bv_len, bv_offset; };
struct bvec_iter { unsigned int bi_size; unsigned int i; };
struct bio { struct bio *bi_next; struct bvec_iter bi_iter; unsigned short bi_vcnt; struct bio_vec *bi_io_vec; };
#define for_each_bio(bio) for (; bio; bio = bio->bi_next)
#define bio_for_each_bvec(bvl, bio, iter) \
	for (iter.i = 0; iter.i < (bio)->bi_vcnt && ((bvl = (bio)->bi_io_vec[iter.i]), 1); iter.i++)
struct queue_limits { unsigned long seg_boundary_mask; unsigned int max_segment_size; };
struct request_queue { struct queue_limits limits; };
#define RQF_SPECIAL_PAYLOAD (1 << 18)
struct request { unsigned int rq_flags; struct bio *bio; struct bio_vec special_vec; unsigned short nr_phys_segments; };
static unsigned int blk_rq_nr_phys_segments(struct request *rq) { return rq->nr_phys_segments; }
static unsigned int queue_max_segment_size(struct request_queue *q) { return q->limits.max_segment_size; }
static unsigned long queue_segment_boundary(struct request_queue *q) { return q->limits.seg_boundary_mask; }
static bool biovec_phys_mergeable(struct request_queue *q, struct bio_vec *vec1, struct bio_vec *vec2)
{
	unsigned long mask = queue_segment_boundary(q);
	unsigned long addr1 = page_to_phys(vec1->bv_page) + vec1->bv_offset;
	unsigned long addr2 = page_to_phys(vec2->bv_page) + vec2->bv_offset;
	if (addr1 + vec1->bv_len != addr2) return false;
	if ((addr1 | mask) != ((addr2 + vec2->bv_len - 1) | mask)) return false;
	return true;
}
static inline unsigned get_max_segment_size(struct queue_limits *lim, struct page *start_page, unsigned long offset)
{
	unsigned long mask = lim->seg_boundary_mask;
	offset = mask & (page_to_phys(start_page) + offset);
	return min_not_zero(mask - offset + 1, (unsigned long)lim->max_segment_size);
}
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
