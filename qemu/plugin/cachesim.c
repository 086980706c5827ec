/*
 * cachesim.c - QEMU TCG plugin: a stated cache model, with the misses of
 * every instruction keyed by its guest virtual address.
 *
 *   qemu-system-x86_64 ... -plugin build/plugin/libcachesim.so,out=FILE[,mark=0xADDR]
 *
 * The model (fixed; the numbers are printed in every snapshot header):
 * L1I 32 KiB 8-way, L1D 32 KiB 8-way, a unified L2 of 1 MiB 16-way, 64-byte
 * lines, LRU replacement, write-allocate, a miss in L1 looks up L2 (not
 * inclusive, no prefetcher, no write-back traffic).  Instruction fetches are
 * looked up by the instruction's guest virtual address (one line per
 * executed instruction, as QEMU's contrib/plugins/cache.c does), data by the
 * guest physical address of the access (its virtual address when QEMU
 * gives none).  QEMU's own cache.c keys its per-instruction report by host
 * address in system mode, which cannot be named with guest symbols; this
 * one keys by guest virtual address, so bench/attrib.py folds it onto
 * kernel functions.
 *
 * Snapshots (as insncount.c: at every execution of mark=ADDR and at exit):
 *   S <seq> <why> <records> <model>
 *   C <vaddr> <execs> <data accesses> <L1I misses> <L1D misses> <L2 misses>
 *   E <seq>
 * one C line per instruction that has executed, cumulative.
 *
 * The cache state is global: one TCG thread must run the guest (icount
 * mode, one vCPU); the plugin refuses more than one vCPU.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <glib.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define LINE_BITS 6

struct cache {
	const char *name;
	unsigned int sets, ways;
	uint64_t *tag;		/* sets * ways; 0: empty (tags are line + 1) */
	uint64_t *used;		/* LRU stamps */
	uint64_t clock;
};

struct insn {
	uint64_t vaddr;
	uint64_t execs, daccess, l1i_miss, l1d_miss, l2_miss;
};

static struct cache l1i = { .name = "L1I", .sets = 32768 >> LINE_BITS >> 3, .ways = 8 };
static struct cache l1d = { .name = "L1D", .sets = 32768 >> LINE_BITS >> 3, .ways = 8 };
static struct cache l2 = { .name = "L2", .sets = 1048576 >> LINE_BITS >> 4, .ways = 16 };

static GHashTable *insns;
static GMutex lock;
static FILE *out;
static uint64_t mark;
static bool have_mark;
static unsigned int seq;

static void cache_init(struct cache *c)
{
	c->tag = g_new0(uint64_t, (size_t)c->sets * c->ways);
	c->used = g_new0(uint64_t, (size_t)c->sets * c->ways);
}

/* access: true on a hit; on a miss the LRU way gets the line */
static bool cache_access(struct cache *c, uint64_t addr)
{
	uint64_t line = (addr >> LINE_BITS) + 1;
	unsigned int set = (line - 1) % c->sets, w, victim = 0;
	uint64_t *tag = c->tag + (size_t)set * c->ways;
	uint64_t *used = c->used + (size_t)set * c->ways;

	c->clock++;
	for (w = 0; w < c->ways; w++) {
		if (tag[w] == line) {
			used[w] = c->clock;
			return true;
		}
		if (used[w] < used[victim])
			victim = w;
	}
	tag[victim] = line;
	used[victim] = c->clock;
	return false;
}

static void snapshot(const char *why)
{
	GHashTableIter it;
	gpointer val;
	unsigned int s;

	g_mutex_lock(&lock);
	s = ++seq;
	fprintf(out, "S %u %s %u L1I=32KiB/8way,L1D=32KiB/8way,L2=1MiB/16way,line=64B,LRU\n", s, why,
		g_hash_table_size(insns));
	g_hash_table_iter_init(&it, insns);
	while (g_hash_table_iter_next(&it, NULL, &val)) {
		const struct insn *i = val;

		if (i->execs)
			fprintf(out, "C %" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
				i->vaddr, i->execs, i->daccess, i->l1i_miss, i->l1d_miss, i->l2_miss);
	}
	fprintf(out, "E %u\n", s);
	fflush(out);
	g_mutex_unlock(&lock);
}

static void on_exec(unsigned int vcpu, void *udata)
{
	struct insn *i = udata;

	i->execs++;
	if (!cache_access(&l1i, i->vaddr)) {
		i->l1i_miss++;
		if (!cache_access(&l2, i->vaddr))
			i->l2_miss++;
	}
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct insn *i = udata;
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	uint64_t addr;

	if (hw && qemu_plugin_hwaddr_is_io(hw))
		return;
	addr = hw ? qemu_plugin_hwaddr_phys_addr(hw) : vaddr;
	i->daccess++;
	if (!cache_access(&l1d, addr)) {
		i->l1d_miss++;
		if (!cache_access(&l2, addr))
			i->l2_miss++;
	}
}

static void on_mark(unsigned int vcpu, void *udata)
{
	snapshot("mark");
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), k;

	for (k = 0; k < n; k++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, k);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		struct insn *i;

		g_mutex_lock(&lock);
		i = g_hash_table_lookup(insns, &va);
		if (!i) {
			i = g_new0(struct insn, 1);
			i->vaddr = va;
			g_hash_table_insert(insns, &i->vaddr, i);
		}
		g_mutex_unlock(&lock);
		if (have_mark && va == mark)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec, QEMU_PLUGIN_CB_NO_REGS, i);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, i);
	}
}

static void on_atexit(qemu_plugin_id_t id, void *p)
{
	snapshot("exit");
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char *end;

		if (!eq) {
			fprintf(stderr, "cachesim: argument '%s' is not name=value\n", argv[i]);
			return -1;
		}
		*eq = '\0';
		if (!strcmp(argv[i], "out")) {
			path = eq + 1;
		} else if (!strcmp(argv[i], "mark")) {
			errno = 0;
			mark = strtoull(eq + 1, &end, 0);
			if (errno || *end || end == eq + 1) {
				fprintf(stderr, "cachesim: mark=%s is not an address (use 0x...)\n", eq + 1);
				return -1;
			}
			have_mark = true;
		} else {
			fprintf(stderr, "cachesim: unknown argument '%s' (out=, mark=)\n", argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "cachesim: say where to write the counts: out=FILE\n");
		return -1;
	}
	if (info->system_emulation && info->system.max_vcpus > 1) {
		fprintf(stderr, "cachesim: one cache model for %d vCPUs would be racy: boot with one vCPU (-smp 1, icount mode)\n",
			info->system.max_vcpus);
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		fprintf(stderr, "cachesim: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	cache_init(&l1i);
	cache_init(&l1d);
	cache_init(&l2);
	insns = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
