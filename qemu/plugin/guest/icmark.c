/*
 * icmark.c - the guest side of the plugin's clock check (tests/plugin-clock.sh):
 * a freestanding static x86-64 program (no libc) that reads the guest's TSC
 * at the one instruction the insncount plugin snapshots at (mark= the
 * address of icmark_mark) and prints it in decimal.
 *
 * Under QEMU's -icount shift=0 the TSC is the virtual clock in ns, which
 * advances one per instruction QEMU counts as executed (plus any jump while
 * the vCPU idles): the difference of two readings is QEMU's own count of the
 * instructions between two marks, independent of the plugin.  The plugin's
 * snapshot fires at the start of the marked instruction, after its block's
 * entry was counted; rdtsc reads icount after its block was charged whole at
 * entry (accel/tcg: gen_tb_start) and ends its block in icount mode: both
 * sides include the same instructions.
 *
 * "icmark late" is the deliberately wrong mark of the check's self-test:
 * it runs LATE_INSNS instructions between the marked rdtsc and a second
 * one, and prints the second: its clock reading is then that many
 * instructions after the plugin's snapshot.
 *
 * Built by qemu/plugin/build.sh into build/plugin/icmark, linked at a fixed
 * address no other guest program uses (the plugin's mark is a guest virtual
 * address, seen in every process).
 */
#define LATE_INSNS 1000000

typedef unsigned long u64;

static long sys3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

static char *put(char *p, u64 v)
{
	char t[24];
	int n = 0;

	do
		t[n++] = '0' + v % 10;
	while (v /= 10);
	while (n)
		*p++ = t[--n];
	return p;
}

/* rdtsc at a global label: the plugin's mark */
static u64 mark_tsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile(".globl icmark_mark\nicmark_mark:\n\trdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((u64)hi << 32) | lo;
}

static u64 rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((u64)hi << 32) | lo;
}

static void late(void)
{
	/* 2 instructions an iteration (dec, jnz) */
	long n = LATE_INSNS / 2;

	__asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n));
}

__attribute__((noreturn)) void icmark_main(long argc, char **argv)
{
	char out[64], *p = out;
	u64 t = mark_tsc();

	if (argc > 1 && argv[1][0] == 'l') {
		late();
		t = rdtsc();
	}
	p = put(p, t);
	*p++ = '\n';
	sys3(1, 1, (long)out, p - out);
	sys3(231, 0, 0, 0);
	for (;;)
		;
}

/* the entry: argc and argv from the initial stack */
__asm__(".globl _start\n_start:\n\txor %ebp, %ebp\n\tmov (%rsp), %rdi\n\tlea 8(%rsp), %rsi\n"
	"\tand $-16, %rsp\n\tcall icmark_main\n");
