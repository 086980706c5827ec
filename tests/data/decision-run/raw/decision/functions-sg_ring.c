@@ lib/sg_pool.c sg_alloc_ring_chained
int sg_alloc_ring_chained(struct sg_ring *head, unsigned int nents, gfp_t gfp)
{
	while (nents--)
		list_add_tail(&head->list, &head->list);
	__sg_alloc_table(NULL, 0, NULL);
	return WARN_ON(sg_ring_init(head, 1));
}
