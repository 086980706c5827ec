// SPDX-License-Identifier: GPL-2.0
/*
 * scatterio DEVICE BS TOTAL OFFSET - direct I/O from buffers of scattered
 * physical pages (built static into the guest image by common/image/build.sh).
 *
 * fio's buffers come from malloc, and the page allocator hands out runs of
 * physically contiguous pages, which the block layer merges into one
 * segment: a driver may then never see a command of many segments.  This
 * tool builds each of its two buffers (one to write from, one to read into)
 * from separate pages: it touches a pool of anonymous pages, reads their
 * page frame numbers from /proc/self/pagemap (root only) and moves, with
 * mremap(MREMAP_FIXED), pages whose frames are not neighbours of the page
 * before them into one contiguous virtual buffer.  Then it checks from
 * pagemap that no two neighbouring pages of a buffer are physically
 * adjacent (so no two can merge into one segment), writes TOTAL bytes at
 * OFFSET of DEVICE in O_DIRECT writes of BS bytes, each with its own
 * pattern, reads them back likewise into the second buffer (poisoned
 * before each read) and compares.  A command of BS bytes therefore carries
 * BS / page size segments, unless the queue's limits split it.
 *
 * Prints one line saying what it did; exits 1, naming the cause, if any
 * step or the comparison failed.
 *
 * scatterio --sg-io DEVICE NPAGES LBA - SCSI passthrough from such buffers:
 * one WRITE(10) of NPAGES pages at LBA from a buffer of NPAGES scattered
 * pages, then one READ(10) of them into a second such buffer (poisoned
 * before), each through ioctl(SG_IO) on DEVICE, which must be a block
 * device (sd): its SG_IO maps the buffer itself with blk_rq_map_user(), so
 * each page is a segment of the one command, and a passthrough command
 * cannot be split: it fails if the queue cannot take NPAGES segments.
 * (The sg driver's /dev/sg* would copy through its reserve buffer.)  On a
 * failure it names errno, or the SCSI status, host_status, driver_status,
 * residue and sense data.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long psz;
static int pagemap;

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("scatterio: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* the page frame number of the (present) page at p */
static uint64_t pfn_of(const char *p)
{
	uint64_t e;
	off_t off = (off_t)((uintptr_t)p / psz) * sizeof(e);

	if (pread(pagemap, &e, sizeof(e), off) != sizeof(e))
		die("reading /proc/self/pagemap: %s", strerror(errno));
	if (!(e & (1ULL << 63)))
		die("page at %p is not present (pagemap entry %#" PRIx64 ")", p, e);
	e &= (1ULL << 55) - 1;
	if (!e)
		die("pagemap gives frame 0: reading frames needs CAP_SYS_ADMIN (run as root)");
	return e;
}

static int adjacent(uint64_t a, uint64_t b)
{
	return a + 1 == b || b + 1 == a;
}

/*
 * A buffer of n pages, each from a separate physical page that is not
 * adjacent to the one before it.
 */
static char *scattered(size_t n)
{
	size_t pool_n = 3 * n + 16, i, k = 0;
	char *pool, *buf;
	uint64_t last = 0;

	pool = mmap(NULL, pool_n * psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	buf = mmap(NULL, n * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pool == MAP_FAILED || buf == MAP_FAILED)
		die("mmap of %zu pages: %s", pool_n + n, strerror(errno));
	for (i = 0; i < pool_n; i++)
		pool[i * psz] = 1;	/* a page of its own, not the zero page */
	for (i = 0; i < pool_n && k < n; i++) {
		uint64_t pfn = pfn_of(pool + i * psz);

		if (k && adjacent(last, pfn))
			continue;
		if (mremap(pool + i * psz, psz, psz, MREMAP_MAYMOVE | MREMAP_FIXED,
			   buf + k * psz) == MAP_FAILED)
			die("mremap: %s", strerror(errno));
		last = pfn;
		k++;
	}
	if (k < n)
		die("only %zu of %zu pages from a pool of %zu are not physically adjacent to the one before",
		    k, n, pool_n);
	munmap(pool, pool_n * psz);
	return buf;
}

/* fails if two neighbouring pages of buf are physically adjacent */
static void check_scattered(const char *what, const char *buf, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++) {
		uint64_t a = pfn_of(buf + (i - 1) * psz), b = pfn_of(buf + i * psz);

		if (adjacent(a, b))
			die("%s buffer: pages %zu and %zu are physically adjacent (frames %#" PRIx64 ", %#" PRIx64 ")",
			    what, i - 1, i, a, b);
	}
}

static uint64_t word(uint64_t seed, uint64_t pos)
{
	uint64_t x = seed ^ (pos * 0x9e3779b97f4a7c15ULL);

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 29);
}

static unsigned long long size_arg(const char *s, int zero_ok)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (end == s)
		die("'%s' is not a size (a number, optionally followed by k, M or G)", s);
	switch (*end) {
	case 'k': v <<= 10; end++; break;
	case 'M': v <<= 20; end++; break;
	case 'G': v <<= 30; end++; break;
	}
	if (*end || (!v && !zero_ok))
		die("'%s' is not a size (a number, optionally followed by k, M or G)", s);
	return v;
}

/* the sense key, ASC and ASCQ of fixed or descriptor format sense data */
static void sense_str(char *s, size_t len, const unsigned char *sb, int n)
{
	int key, asc, ascq, i, k;

	if (n < 4) {
		snprintf(s, len, "no sense data");
		return;
	}
	if ((sb[0] & 0x7f) >= 0x72) {
		key = sb[1] & 0xf;
		asc = sb[2];
		ascq = sb[3];
	} else {
		key = sb[2] & 0xf;
		asc = n > 12 ? sb[12] : 0;
		ascq = n > 13 ? sb[13] : 0;
	}
	k = snprintf(s, len, "sense key %#x, ASC %#x, ASCQ %#x (", key, asc, ascq);
	for (i = 0; i < n && k > 0 && (size_t)k < len; i++)
		k += snprintf(s + k, len - k, "%s%02x", i ? " " : "", sb[i]);
	if (k > 0 && (size_t)k < len)
		snprintf(s + k, len - k, ")");
}

/* one READ(10) or WRITE(10) of len bytes at lba through SG_IO, or die */
static void sg_rw(int fd, const char *dev, int write, unsigned long long lba,
		  unsigned int blocks, void *buf, size_t len)
{
	const char *op = write ? "WRITE(10)" : "READ(10)";
	unsigned char cdb[10] = { 0 }, sense[32];
	struct sg_io_hdr h;
	char why[200];

	cdb[0] = write ? 0x2a : 0x28;
	cdb[2] = lba >> 24;
	cdb[3] = lba >> 16;
	cdb[4] = lba >> 8;
	cdb[5] = lba;
	cdb[7] = blocks >> 8;
	cdb[8] = blocks;
	memset(&h, 0, sizeof(h));
	memset(sense, 0, sizeof(sense));
	h.interface_id = 'S';
	h.dxfer_direction = write ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV;
	h.cmd_len = sizeof(cdb);
	h.cmdp = cdb;
	h.dxfer_len = len;
	h.dxferp = buf;
	h.mx_sb_len = sizeof(sense);
	h.sbp = sense;
	h.timeout = 120000;	/* ms; TCG is slow */
	if (ioctl(fd, SG_IO, &h) < 0)
		die("%s: SG_IO %s of %zu bytes (%zu pages) at LBA %llu: %s (errno %d)%s",
		    dev, op, len, len / psz, lba, strerror(errno), errno,
		    errno == EINVAL ? ": the block layer could not map the buffer into one request (more segments than the queue's max_segments?)" : "");
	if (h.status || h.host_status || h.driver_status || h.resid) {
		sense_str(why, sizeof(why), sense, h.sb_len_wr);
		die("%s: SG_IO %s of %zu bytes (%zu pages) at LBA %llu failed: SCSI status %#x, host_status %#x, driver_status %#x, residue %d, %s (%u ms)",
		    dev, op, len, len / psz, lba, h.status, h.host_status,
		    h.driver_status, h.resid, why, h.duration);
	}
}

/*
 * scatterio --sg-io DEVICE NPAGES LBA: one WRITE(10) of NPAGES scattered
 * pages and one READ(10) of them back through SG_IO, compared.
 */
static int sg_io_main(int argc, char **argv)
{
	unsigned long long lba;
	uint64_t seed, *w, *r;
	size_t n, len, i;
	struct stat st;
	char *end;
	int fd, lbs;

	if (argc != 4) {
		fprintf(stderr, "usage: scatterio --sg-io DEVICE NPAGES LBA (DEVICE a SCSI disk's block device, e.g. /dev/sdb)\n");
		return 2;
	}
	n = strtoul(argv[2], &end, 10);
	if (end == argv[2] || *end || !n)
		die("'%s' is not a number of pages", argv[2]);
	lba = strtoull(argv[3], &end, 10);
	if (end == argv[3] || *end)
		die("'%s' is not a logical block address", argv[3]);
	len = n * psz;
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0)
		die("/proc/self/pagemap: %s (needs CONFIG_PROC_PAGE_MONITOR)", strerror(errno));
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		die("%s: %s", argv[1], strerror(errno));
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		die("%s is not a block device: --sg-io needs a disk's block device (sd), not /dev/sg*, whose driver copies through its reserve buffer",
		    argv[1]);
	if (ioctl(fd, BLKSSZGET, &lbs) || lbs <= 0)
		die("%s: BLKSSZGET: %s", argv[1], strerror(errno));
	if (len % lbs || len / lbs > 0xffff || lba + len / lbs > 0xffffffffULL)
		die("%zu pages at LBA %llu do not fit one READ(10) or WRITE(10) of %d-byte blocks (at most 65535 blocks, below LBA 2^32)",
		    n, lba, lbs);

	w = (uint64_t *)scattered(n);
	r = (uint64_t *)scattered(n);
	check_scattered("write", (char *)w, n);
	check_scattered("read", (char *)r, n);
	seed = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid() << 40 ^ n;
	for (i = 0; i < len / 8; i++)
		w[i] = word(seed, lba * lbs + i * 8);
	memset(r, 0xa5, len);

	sg_rw(fd, argv[1], 1, lba, len / lbs, w, len);
	sg_rw(fd, argv[1], 0, lba, len / lbs, r, len);
	for (i = 0; i < len / 8; i++)
		if (r[i] != word(seed, lba * lbs + i * 8))
			die("data read back at byte %zu of the buffer differs: %#" PRIx64 ", written %#" PRIx64 " (seed %#" PRIx64 ")",
			    i * 8, r[i], word(seed, lba * lbs + i * 8), seed);
	/* the frames must not have moved while the I/O ran */
	check_scattered("write", (char *)w, n);
	check_scattered("read", (char *)r, n);
	printf("SG_IO WRITE(10) and READ(10) of %zu bytes at LBA %llu (%d-byte blocks), each buffer %zu separate pages, no two neighbours physically adjacent: read back identical\n",
	       len, lba, lbs, n);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long bs, total, off0, o;
	uint64_t seed, *w, *r;
	size_t n, i, ops;
	int fd;

	psz = sysconf(_SC_PAGESIZE);
	if (argc > 1 && !strcmp(argv[1], "--sg-io"))
		return sg_io_main(argc - 1, argv + 1);
	if (argc != 5) {
		fprintf(stderr, "usage: scatterio DEVICE BS TOTAL OFFSET (sizes in bytes, or with k, M, G)\n"
			"       scatterio --sg-io DEVICE NPAGES LBA\n");
		return 2;
	}
	bs = size_arg(argv[2], 0);
	total = size_arg(argv[3], 0);
	off0 = size_arg(argv[4], 1);
	if (bs % psz || total % bs || off0 % psz)
		die("BS must be a multiple of the page size (%ld), TOTAL of BS, OFFSET of the page size", psz);
	n = bs / psz;
	ops = total / bs;
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0)
		die("/proc/self/pagemap: %s (needs CONFIG_PROC_PAGE_MONITOR)", strerror(errno));
	fd = open(argv[1], O_RDWR | O_DIRECT);
	if (fd < 0)
		die("%s: %s", argv[1], strerror(errno));

	w = (uint64_t *)scattered(n);
	r = (uint64_t *)scattered(n);
	check_scattered("write", (char *)w, n);
	check_scattered("read", (char *)r, n);
	seed = (uint64_t)time(NULL) << 20 ^ (uint64_t)getpid() << 40 ^ bs;

	for (o = off0; o < off0 + total; o += bs) {
		for (i = 0; i < bs / 8; i++)
			w[i] = word(seed, o + i * 8);
		if (pwrite(fd, w, bs, o) != (ssize_t)bs)
			die("write of %llu bytes at %llu: %s", bs, o, strerror(errno));
	}
	for (o = off0; o < off0 + total; o += bs) {
		memset(r, 0xa5, bs);
		if (pread(fd, r, bs, o) != (ssize_t)bs)
			die("read of %llu bytes at %llu: %s", bs, o, strerror(errno));
		for (i = 0; i < bs / 8; i++)
			if (r[i] != word(seed, o + i * 8))
				die("data read back at byte %llu differs: %#" PRIx64 ", written %#" PRIx64 " (seed %#" PRIx64 ")",
				    o + i * 8, r[i], word(seed, o + i * 8), seed);
	}
	/* the frames must not have moved while the I/O ran */
	check_scattered("write", (char *)w, n);
	check_scattered("read", (char *)r, n);
	printf("%zu writes and %zu reads of %llu bytes at %llu..%llu, each buffer %zu separate pages, no two neighbours physically adjacent: read back identical\n",
	       ops, ops, bs, off0, off0 + total, n);
	return 0;
}
