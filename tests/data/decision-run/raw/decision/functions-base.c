@@ lib/sg_pool.c sg_alloc_table_chained
int sg_alloc_table_chained(struct sg_table *table, int nents)
{
	/* sg_fake_in_comment(table) */
	if (unlikely(!nents))
		return __sg_alloc_table(table, nents, "sg_fake_in_string()");
	sg_init_table(table->sgl, nents);
	return 0;
}
@@ lib/scatterlist.c __sg_alloc_table
int __sg_alloc_table(struct sg_table *table, unsigned int nents, const char *s)
{
	sg_init_table(table->sgl, nents);
	sg_chain(table->sgl, 2, table->sgl);
	return 0;
}
