/*
 * insncount.c - QEMU TCG plugin: exact instruction counts per translated
 * block, keyed by guest virtual address, written as snapshots.
 *
 *   qemu-system-x86_64 ... -plugin build/plugin/libinsncount.so,out=FILE[,mark=0xADDR][,inline=off][,exact=on][,aux=FILE]
 *
 * Every translated block gets a record (start vaddr, vaddr of its last
 * instruction, instruction count); every execution of the block adds one to
 * the record's counter.  A snapshot writes every record that has executed,
 * with its cumulative count, to FILE:
 *
 *   S <seq> <why> <blocks> <instructions>
 *   B <vaddr> <last_insn_vaddr> <insns> <count>      (hex, hex, dec, dec)
 *   ...
 *   E <seq>
 *
 * <why> is "mark" (the guest executed the instruction at mark=ADDR, e.g.
 * the first instruction of a syscall the guest plan calls between the runs
 * it wants to compare: cost per I/O by difference within one boot) or
 * "exit" (QEMU is exiting).
 *
 * Counting: by default a callback per executed block bumps the block's
 * counter for that vCPU (one counter per vCPU per block: no lock, exact under
 * multi-threaded TCG too).  inline=on uses an inline add instead (no call),
 * which QEMU 7.2 offers with one address for all vCPUs: exact only with one
 * TCG thread, and in an icount boot of the sg_ring kernel running fio it
 * killed QEMU with SIGSEGV (with and without a mark), so it is not the
 * default.
 *
 * A block is counted whole when it is entered, so a block that an exception
 * cuts short (a page fault at its third instruction, say) is counted with
 * every instruction, where QEMU's icount counts only those before the
 * faulting one (accel/tcg/translate-all.c: cpu_restore_state_from_tb()
 * gives the rest back to icount_decr).  And a block's last instruction that
 * crosses into a new page is counted although the x86 decoder gave it up
 * (it is the first of the next block: bench/attrib.py phantoms()).
 *
 * exact=on counts every instruction as it starts, with an inline add into its
 * block's record, and writes that as a sixth field of the B lines:
 *
 *   B <vaddr> <last_insn_vaddr> <insns> <count> <starts>
 *
 * <starts> is exact where the block count is not: a block cut by an
 * exception counts the instructions up to and including the faulting one
 * (one more than icount, which reruns it), a block cut for I/O
 * (cpu_io_recompile(): an MMIO access, e.g. an EOI or a doorbell) those up
 * to its I/O access (the rerun block of that access is not instrumented,
 * CF_MEMI_ONLY: exact), and a given-up page-crossing last instruction not
 * at all (the decoder removes its code with its plugin ops).
 * bench/attrib.py fold uses it for the blocks' instructions when present.
 * The inline add has one address for all vCPUs: exact with one TCG thread
 * (icount); about 8 % more CPU than the block callbacks alone.
 *
 * aux=FILE (for the clock check, tests/plugin-clock.sh) writes one more line
 * per snapshot to FILE, beside the counts:
 *
 *   A <seq> <why> <instructions> <starts> <phantoms> <halts>
 *
 * <instructions> is the snapshot's total (the S line's), <starts> the
 * instructions started (exact=on's count, summed; aux counts them too),
 * <phantoms> the
 * executions of blocks whose last instruction is a given-up page-crossing
 * one (the instruction was seen crossing a page as the first of a block:
 * matched by host address), <halts> the hlt instructions executed (where
 * icount may have moved the clock on while the vCPU idled).
 *
 * A record is keyed by (vaddr, last insn vaddr, insns): the same kernel code
 * may be translated again (TB flushes, icount's block splitting), and its
 * counts then add up in one record; user processes sharing a vaddr share a
 * record, which the host tool reports as user space anyway.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <glib.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct block {
	uint64_t vaddr;
	uint64_t last;
	uint64_t insns;
	uint64_t count;		/* inline mode */
	uint64_t *vcpu_count;	/* inline=off: one per vCPU */
	const void *last_haddr;	/* aux: host address of the last instruction */
	uint64_t starts;	/* exact/aux: instructions started (inline add) */
};

static GHashTable *blocks;
static GMutex lock;
static FILE *out;
static uint64_t mark;
static bool have_mark;
static bool use_inline;
static bool exact;
static int max_vcpus;
static unsigned int seq;
/* aux= */
static FILE *aux;
static uint64_t *halts;		/* one per vCPU */
static GHashTable *crossers;	/* host addresses of page-crossing first instructions */

static guint block_hash(gconstpointer p)
{
	const struct block *b = p;

	return g_int64_hash(&b->vaddr) ^ g_int64_hash(&b->last) ^ (guint)b->insns;
}

static gboolean block_equal(gconstpointer pa, gconstpointer pb)
{
	const struct block *a = pa, *b = pb;

	return a->vaddr == b->vaddr && a->last == b->last && a->insns == b->insns;
}

static uint64_t block_count(const struct block *b)
{
	uint64_t n = b->count;
	int i;

	if (b->vcpu_count)
		for (i = 0; i < max_vcpus; i++)
			n += b->vcpu_count[i];
	return n;
}

static uint64_t starts_of(const struct block *b)
{
	return __atomic_load_n(&b->starts, __ATOMIC_RELAXED);
}

static void snapshot(const char *why)
{
	GHashTableIter it;
	gpointer key;
	uint64_t n, total = 0, nblocks = 0;
	unsigned int s;

	g_mutex_lock(&lock);
	s = ++seq;
	g_hash_table_iter_init(&it, blocks);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		n = block_count(key);
		if (n) {
			nblocks++;
			total += n * ((struct block *)key)->insns;
		}
	}
	fprintf(out, "S %u %s %" PRIu64 " %" PRIu64 "\n", s, why, nblocks, total);
	g_hash_table_iter_init(&it, blocks);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		const struct block *b = key;

		n = block_count(b);
		if (!n)
			continue;
		if (exact)
			fprintf(out, "B %" PRIx64 " %" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				b->vaddr, b->last, b->insns, n, starts_of(b));
		else
			fprintf(out, "B %" PRIx64 " %" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				b->vaddr, b->last, b->insns, n);
	}
	fprintf(out, "E %u\n", s);
	fflush(out);
	if (aux) {
		uint64_t phantoms = 0, h = 0, started = 0;
		int i;

		g_hash_table_iter_init(&it, blocks);
		while (g_hash_table_iter_next(&it, &key, NULL)) {
			const struct block *b = key;

			started += starts_of(b);
			if (b->insns > 1 && b->last_haddr &&
			    g_hash_table_contains(crossers, b->last_haddr))
				phantoms += block_count(b);
		}
		for (i = 0; i < max_vcpus; i++)
			h += halts[i];
		fprintf(aux, "A %u %s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			s, why, total, started, phantoms, h);
		fflush(aux);
	}
	g_mutex_unlock(&lock);
}

static void on_mark(unsigned int vcpu, void *udata)
{
	snapshot("mark");
}

static void on_halt(unsigned int vcpu, void *udata)
{
	halts[vcpu]++;
}

static void on_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	b->vcpu_count[vcpu]++;
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block key, *b;

	key.vaddr = qemu_plugin_tb_vaddr(tb);
	key.last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 1));
	key.insns = n;
	key.count = 0;
	key.vcpu_count = NULL;
	key.last_haddr = NULL;
	key.starts = 0;

	g_mutex_lock(&lock);
	b = g_hash_table_lookup(blocks, &key);
	if (!b) {
		b = g_new0(struct block, 1);
		*b = key;
		b->count = 0;
		if (!use_inline)
			b->vcpu_count = g_new0(uint64_t, max_vcpus);
		if (aux)
			b->last_haddr = qemu_plugin_insn_haddr(qemu_plugin_tb_get_insn(tb, n - 1));
		g_hash_table_add(blocks, b);
	}
	if (aux) {
		struct qemu_plugin_insn *first = qemu_plugin_tb_get_insn(tb, 0);
		uint64_t va = qemu_plugin_insn_vaddr(first);
		const void *ha = qemu_plugin_insn_haddr(first);

		/* a first instruction may cross a page; a later one never does */
		if (ha && (va & 0xfff) + qemu_plugin_insn_size(first) > 0x1000)
			g_hash_table_add(crossers, (gpointer)ha);
	}
	g_mutex_unlock(&lock);

	if (exact || aux)
		for (i = 0; i < n; i++) {
			struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

			qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
								   &b->starts, 1);
			if (aux && qemu_plugin_insn_size(insn) == 1 &&
			    *(const uint8_t *)qemu_plugin_insn_data(insn) == 0xf4)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_halt,
								       QEMU_PLUGIN_CB_NO_REGS, NULL);
		}

	if (use_inline)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &b->count, 1);
	else
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, b);

	if (!have_mark)
		return;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_vaddr(insn) == mark)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void on_atexit(qemu_plugin_id_t id, void *p)
{
	snapshot("exit");
	fclose(out);
	if (aux)
		fclose(aux);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL, *aux_path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char *end;

		if (!eq) {
			fprintf(stderr, "insncount: argument '%s' is not name=value\n", argv[i]);
			return -1;
		}
		*eq = '\0';
		if (!strcmp(argv[i], "out")) {
			path = eq + 1;
		} else if (!strcmp(argv[i], "mark")) {
			errno = 0;
			mark = strtoull(eq + 1, &end, 0);
			if (errno || *end || end == eq + 1) {
				fprintf(stderr, "insncount: mark=%s is not an address (use 0x...)\n", eq + 1);
				return -1;
			}
			have_mark = true;
		} else if (!strcmp(argv[i], "exact")) {
			if (!qemu_plugin_bool_parse(argv[i], eq + 1, &exact)) {
				fprintf(stderr, "insncount: exact=%s: say on or off\n", eq + 1);
				return -1;
			}
		} else if (!strcmp(argv[i], "aux")) {
			aux_path = eq + 1;
		} else if (!strcmp(argv[i], "inline")) {
			if (!qemu_plugin_bool_parse(argv[i], eq + 1, &use_inline)) {
				fprintf(stderr, "insncount: inline=%s: say on or off\n", eq + 1);
				return -1;
			}
		} else {
			fprintf(stderr, "insncount: unknown argument '%s' (out=, mark=, inline=, exact=, aux=)\n", argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "insncount: say where to write the counts: out=FILE\n");
		return -1;
	}
	if (info->system_emulation)
		max_vcpus = info->system.max_vcpus;
	else
		max_vcpus = 1;
	if (max_vcpus < 1)
		max_vcpus = 1;
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "insncount: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (aux_path) {
		aux = fopen(aux_path, "w");
		if (!aux) {
			fprintf(stderr, "insncount: cannot write %s: %s\n", aux_path, strerror(errno));
			return -1;
		}
		halts = g_new0(uint64_t, max_vcpus);
		crossers = g_hash_table_new(g_direct_hash, g_direct_equal);
	}
	blocks = g_hash_table_new(block_hash, block_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
