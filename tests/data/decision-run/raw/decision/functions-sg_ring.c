@@ include/linux/sg_ring.h sg_alloc_ring_chained
static inline int sg_alloc_ring_chained(struct sg_ring *head, unsigned int nents, gfp_t gfp)
{
	if (nents <= head->max)
		return 0;
	return __sg_alloc_ring_chained(head, nents, gfp);
}
@@ lib/sg_pool.c __sg_alloc_ring_chained
int __sg_alloc_ring_chained(struct sg_ring *head, unsigned int nents, gfp_t gfp)
{
	while (nents--)
		list_add_tail(&head->list, &head->list);
	__sg_alloc_table(NULL, 0, NULL);
	return WARN_ON(sg_ring_init(head, 1));
}
