"""The bench's results model: what report.py and decision.py both read.

A run directory holds meta.txt (the run description: matrix, kernels,
project commit) and raw/<device>/<variant>/r<N>/ per boot (kept only when
its RESULT is "pass").  load(run) reads them into rows of (device, variant,
repeat, point, metrics), one reader per file format, and compare() gives
the paired A/B statistics every report uses.  Nothing here reads a file
that report.py or decision.py write.

Metrics per row (the main direction of fio's json+ output):
  ios          I/Os completed in the measured window (fio total_ios)
  window_ms    the window (fio's runtime of that direction, whole ms)
  iops         ios / window
  bw_mib       ios x block size / window, in MiB/s.  Not fio's io_bytes:
               at queue depth > 1 that also counts the I/Os in flight when
               the ramp ended, so it can exceed what was completed.
  ns_per_io    window / ios: guest ns per completed I/O (in icount mode
               guest time counts instructions, 1 instruction = 1 ns)
  lat_*_us     fio's total latency (submission to completion), mean and
               percentiles
  req_kib      mean size of the requests the disk completed (block stat
               before and after the point)
"""
import glob
import gzip
import importlib.util
import io
import json
import math
import os
import re
import statistics
import sys

from bench import fiojson  # noqa: E402
from bench import variants  # noqa: E402

ALPHA = 0.05          # family-wise error rate, Holm's step-down rule
POWER_T = 0.80        # power of the minimum detectable effect
SD_RTOL = 1e-9        # a spread this small (of 100 % + |mean|) is float noise
# the metrics that are the I/O count over the window: where both kernels
# completed the same I/Os in every repeat, their repeats are one observation
IOS_METRICS = ('ns_per_io', 'iops', 'bw_mib', 'ios')
QEMU_DEVICES = ('virtio', 'pvscsi')


def bs_bytes(text):
    """'4k' -> 4096, '1M' -> 1048576 (fio's binary units)."""
    m = re.match(r'^(\d+)([kKmMgG]?)$', text)
    if not m:
        raise ValueError(f'bad block size {text!r}: use e.g. 4k, 1M')
    return int(m.group(1)) * {'': 1, 'k': 1024, 'm': 1 << 20, 'g': 1 << 30}[m.group(2).lower()]


def split_point(point):
    """'randread-4k-qd32' -> ('randread', '4k', 32)."""
    rw, bs, qd = point.split('-')
    return rw, bs, int(qd[2:])


def size_class(point):
    return split_point(point)[1]


# ------------------------------------------------------------ readers

def read_kv(path):
    """'key value...' lines (meta.txt, run.info) -> {key: [values]}."""
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip('\n').partition(' ')
            if k:
                out.setdefault(k, []).append(v)
    return out


def open_data(path, mode='r'):
    """PATH, or PATH.gz where a committed run keeps that file compressed
    (results/INDEX.md): the same text (or bytes, mode 'rb') either way."""
    if not os.path.exists(path) and os.path.exists(path + '.gz'):
        return gzip.open(path + '.gz', mode if 'b' in mode else 'rt')
    return open(path, mode)


def main_direction(job):
    """The direction fio ran (read or write) of one job of fiojson.jobs()."""
    return job['read'] if job['read']['total_ios'] >= job['write']['total_ios'] else job['write']


def read_fio(path, bs):
    """One fio json(+) file of a point: the metrics above (without req_kib)."""
    doc = fiojson.load(path)
    d = main_direction(fiojson.jobs(doc)[0])
    ios, ms = d['total_ios'], d['runtime_ms']
    if not ms:
        raise ValueError(f'{path}: fio reports a runtime of 0 ms')
    nus = lambda ns: None if ns is None else ns / 1000.0  # noqa: E731
    return {'ios': ios, 'window_ms': ms,
            'iops': ios * 1000.0 / ms,
            'bw_mib': ios * bs * 1000.0 / ms / 1048576.0,
            'ns_per_io': ms * 1e6 / ios if ios else None,
            'lat_mean_us': nus(d['lat_mean_ns']), 'lat_p50_us': nus(d['lat_p50_ns']),
            'lat_p99_us': nus(d['lat_p99_ns']), 'lat_p999_us': nus(d['lat_p999_ns'])}


def request_kib(outdir, point):
    """Mean size of the requests the disk completed during a point (KiB),
    from its block stat before and after, or None."""
    try:
        with open(os.path.join(outdir, point + '.blockstat0')) as f0, \
                open(os.path.join(outdir, point + '.blockstat')) as f1:
            a = [int(x) for x in f0.read().split()]
            b = [int(x) for x in f1.read().split()]
    except FileNotFoundError:
        return None
    ios = (b[0] - a[0]) + (b[2] - a[2])
    sectors = (b[1] - a[1]) + (b[3] - a[3])
    return sectors / 2.0 / ios if ios > 0 else None


def read_slabinfo(path):
    """The sg pool caches (sgpool-N, sgring-N) of a /proc/slabinfo copy:
    {name: {'active': n, 'total': n, 'objsize': B, 'per_slab': n, 'slabs': n}}."""
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if p and re.match(r'sg(pool|ring)-\d+$', p[0]):
                out[p[0]] = {'active': int(p[1]), 'total': int(p[2]), 'objsize': int(p[3]),
                             'per_slab': int(p[4]), 'slabs': int(p[14])}
    return out


# -------------------------------------------- tracefs ring buffer pages

def read_tracefs_format(path):
    """One tracefs format file (events/<system>/<event>/format, or
    events/header_page) -> {'name', 'id', 'fields': [(name, offset, size,
    signed, data_loc, type)]}; header_page has no name and no id."""
    out = {'name': None, 'id': None, 'fields': []}
    with open(path) as f:
        for line in f:
            if line.startswith('name:'):
                out['name'] = line.split(':', 1)[1].strip()
            elif line.startswith('ID:'):
                out['id'] = int(line.split(':', 1)[1])
            m = re.match(r'\s*field:\s*(.*?);\s*offset:(\d+);\s*size:(\d+);\s*signed:(\d+);', line)
            if m:
                decl = m.group(1)
                name = re.sub(r'\[.*\]$', '', decl.split()[-1])
                out['fields'].append((name, int(m.group(2)), int(m.group(3)), m.group(4) == '1',
                                      decl.startswith('__data_loc'), decl))
    return out


# the compressed event header of kernel/trace/ring_buffer.c (events/header_event)
RB_TYPE_PADDING, RB_TYPE_TIME_EXTEND, RB_TYPE_TIME_STAMP, RB_TS_SHIFT = 29, 30, 31, 27
RB_MISSED_EVENTS, RB_MISSED_STORED = 1 << 31, 1 << 30


def _check_header_event(path):
    with open(path) as f:
        text = f.read()
    want = [r'type_len\s*:\s*5 bits', r'time_delta\s*:\s*27 bits', r'padding\s*:\s*type == 29',
            r'time_extend\s*:\s*type == 30', r'time_stamp\s*:\s*type == 31', r'data max type_len\s*==\s*28']
    for w in want:
        if not re.search(w, text):
            raise ValueError(f'{path}: not the ring buffer event header this reader knows ({w!r} missing)')


def _field_value(data, fld):
    name, off, size, signed, data_loc, decl = fld
    if data_loc:
        loc = int.from_bytes(data[off:off + 4], 'little')
        raw = data[loc & 0xffff:(loc & 0xffff) + (loc >> 16)]
        return raw.split(b'\0', 1)[0].decode('ascii', 'replace') if decl.split()[1] == 'char[]' else raw
    if size not in (1, 2, 4, 8):
        return data[off:off + size]
    return int.from_bytes(data[off:off + size], 'little', signed=signed)


def read_trace(tdir):
    """A copy of tracefs (common/image/guest-lib.sh inflight_trace): the
    ring buffer pages of every CPU (per_cpu/cpuN/trace_pipe_raw) decoded
    with the page layout of events/header_page, the event header of
    events/header_event and each event's events/<system>/<event>/format
    (the kernel's binary records, fixed fields at the offsets the format
    files give; little-endian, as on x86).  Returns (events, lost):
    events in time order, each (ns, cpu, event name, {field: value}) (per
    CPU in buffer order, CPUs merged by timestamp); lost: the events the
    buffer lost, from the pages' missed-events flags and the stats files
    (overrun, commit overrun, dropped events)."""
    import heapq
    hp = {f[0]: f for f in read_tracefs_format(os.path.join(tdir, 'events', 'header_page'))['fields']}
    _check_header_event(os.path.join(tdir, 'events', 'header_event'))
    ts_off, c_off, c_size = hp['timestamp'][1], hp['commit'][1], hp['commit'][2]
    d_off = hp['data'][1]
    page = d_off + hp['data'][2]
    formats = {}
    for path in sorted(glob.glob(os.path.join(tdir, 'events', '*', '*', 'format'))):
        fmt = read_tracefs_format(path)
        formats[fmt['id']] = fmt
    lost = 0
    per_cpu = []
    for cdir in sorted(glob.glob(os.path.join(tdir, 'per_cpu', 'cpu*'))):
        cpu = int(os.path.basename(cdir)[3:])
        stats = read_kv(os.path.join(cdir, 'stats'))
        for k in ('overrun:', 'commit', 'dropped'):
            for v in stats.get(k, []):
                lost += int(v.split()[-1])
        with open_data(os.path.join(cdir, 'trace_pipe_raw'), 'rb') as f:
            raw = f.read()
        if len(raw) % page:
            raise ValueError(f'{cdir}/trace_pipe_raw: {len(raw)} bytes, not whole pages of {page}')
        evs = []
        for p0 in range(0, len(raw), page):
            pg = raw[p0:p0 + page]
            ts = int.from_bytes(pg[ts_off:ts_off + 8], 'little')
            commit = int.from_bytes(pg[c_off:c_off + c_size], 'little')
            if commit & RB_MISSED_EVENTS:
                lost += 1
            end = d_off + (commit & ~(RB_MISSED_EVENTS | RB_MISSED_STORED) & 0xffffffff)
            pos = d_off
            while pos + 4 <= end:
                hdr = int.from_bytes(pg[pos:pos + 4], 'little')
                tl, delta = hdr & 31, hdr >> 5
                arg = int.from_bytes(pg[pos + 4:pos + 8], 'little')
                if tl == RB_TYPE_PADDING:
                    if delta == 0:
                        break           # the rest of the page is empty
                    ts += delta
                    pos += 4 + arg      # a discarded event
                    continue
                if tl == RB_TYPE_TIME_EXTEND:
                    ts += (arg << RB_TS_SHIFT) + delta
                    pos += 8
                    continue
                if tl == RB_TYPE_TIME_STAMP:
                    absolute = (arg << RB_TS_SHIFT) + delta
                    msb = ts & (0xf << 59)
                    if msb:
                        absolute |= msb
                        if absolute < ts:
                            absolute += 1 << 59
                    ts = absolute
                    pos += 8
                    continue
                ts += delta
                if tl == 0:
                    data, pos = pg[pos + 8:pos + 4 + arg], pos + 4 + arg
                else:
                    data, pos = pg[pos + 4:pos + 4 + tl * 4], pos + 4 + tl * 4
                fmt = formats.get(int.from_bytes(data[0:2], 'little'))
                if fmt is None:
                    raise ValueError(f'{cdir}: an event of type {int.from_bytes(data[0:2], "little")}, '
                                     'which no format file of the copy describes')
                evs.append((ts, cpu, fmt['name'], {fl[0]: _field_value(data, fl) for fl in fmt['fields']}))
        per_cpu.append(evs)
    return list(heapq.merge(*per_cpu, key=lambda e: e[0])), lost


SG_CACHE = re.compile(r'sg(pool|ring)-\d+$')


def read_inflight(outdir, point):
    """The sg pool memory with commands really in flight at POINT, from the
    trace of its inflight step (NAME.inflight/, read_trace), or None.

    Exact counts at every event of the ordered stream:
      objects in use  the sg pool objects (caches sgpool-N, sgring-N)
                      allocated in the trace and not yet freed, with their
                      bytes (kmem_cache_alloc's bytes_alloc, the cache's
                      object size).  kmem_cache_alloc names no cache: an
                      allocation at pointer P is an sg object when the next
                      event on P is a kmem_cache_free of an sg cache (an
                      object stays allocated until it is freed; an
                      allocation whose free is not traced, of another
                      cache, is followed by another allocation or by
                      nothing).  The mempools' reserves (2 objects per
                      pool, taken at boot) are not in the trace unless an
                      allocation fails, which is counted as a problem.
      in flight       SCSI commands dispatched (scsi_dispatch_cmd_start)
                      and not done (_done, _error, _timeout), by tag.
      in transit      objects not held by a command in flight: taken on a
                      CPU since the last dispatch there (the command that
                      is being prepared: scsi_alloc_sgtables() runs just
                      before scsi_dispatch_cmd() on the same CPU, which
                      takes them), or still held by a command that is done
                      (its frees follow the done event).
    The rule: the steady state is the moments (just after an event) with
    nothing in transit and, among those, the most commands in flight; per
    command = the bytes of the objects in use at such a moment over the
    commands in flight then (the baseline is the trace's start, with no
    command in flight).  Returns {'inflight': commands in flight at the
    steady state, 'peak': the most in flight at any moment, 'moments':
    how many steady moments, 'bytes': (min, max) bytes in use at them,
    'per_command': mean bytes per command over them, 'per_command_range':
    (min, max), 'caches': {cache: (objects in use, object size)} at the
    first steady moment, 'sizes': {cache: object size} of every sg cache
    the trace saw, 'taken': {bytes: commands}, the bytes each
    command took when dispatched, 'segments': {data_sglen: commands},
    'commands': dispatched, 'events': events read, 'problems': [text]}."""
    tdir = os.path.join(outdir, point + '.inflight')
    if not os.path.isdir(os.path.join(tdir, 'per_cpu')):
        return None
    events, lost = read_trace(tdir)
    problems = []
    if lost:
        problems.append(f'the ring buffer lost {lost} events')
    # pass 1: which allocations are sg objects (their next event is an sg free)
    cls, last, unmatched, failed = {}, {}, 0, 0
    for i, (_, _, name, f) in enumerate(events):
        if name == 'kmem_cache_alloc':
            if f['ptr'] == 0:
                failed += 1
            else:
                last[f['ptr']] = i
        elif name == 'kmem_cache_free' and SG_CACHE.match(f['name']):
            j = last.pop(f['ptr'], None)
            if j is None:
                unmatched += 1
            else:
                cls[j] = f['name']
    sizes = {c: events[j][3]['bytes_alloc'] for j, c in cls.items()}
    if failed:
        problems.append(f'{failed} allocations of an sg object size failed (a mempool may have used its reserve)')
    if unmatched:
        problems.append(f'{unmatched} sg objects freed that the trace did not see allocated')
    # pass 2: the counts at every moment
    live = {}            # ptr -> [bytes, cache, owner]: owner ('cpu', n) or ('cmd', id)
    pending = {}         # cpu -> ptrs taken there since its last dispatch
    held = {}            # command id -> its ptrs
    inflight = {}        # tag key -> command id
    flying = set()       # the ids of inflight
    requeued = {}        # tag key -> command id (a dispatch error: it keeps its objects)
    in_use = transit = 0
    taken, segs, caches = {}, {}, {}
    best, moments, commands, errors, timeouts, odd, peak = -1, [], 0, 0, 0, 0, 0
    for i, (_, cpu, name, f) in enumerate(events):
        if name == 'kmem_cache_alloc':
            if i not in cls:
                continue
            live[f['ptr']] = [f['bytes_alloc'], cls[i], ('cpu', cpu)]
            pending.setdefault(cpu, set()).add(f['ptr'])
            in_use += f['bytes_alloc']
            transit += f['bytes_alloc']
        elif name == 'kmem_cache_free':
            if f['ptr'] not in live or not SG_CACHE.match(f['name']):
                continue
            b, _, (kind, who) = live.pop(f['ptr'])
            in_use -= b
            (pending if kind == 'cpu' else held)[who].discard(f['ptr'])
            if kind == 'cpu' or who not in flying:
                transit -= b
        elif name.startswith('scsi_dispatch_cmd_'):
            tag = f['scheduler_tag'] if f['scheduler_tag'] >= 0 else f['driver_tag']
            key = (f['host_no'], f['channel'], f['id'], f['lun'], tag)
            if name == 'scsi_dispatch_cmd_start':
                if key in inflight:     # started twice: count it, hold the first as done
                    odd += 1
                    flying.discard(inflight[key])
                    transit += sum(live[p][0] for p in held[inflight[key]])
                commands += 1
                cid = commands
                mine = pending.pop(cpu, set())
                b = sum(live[p][0] for p in mine)
                old = requeued.pop(key, None)
                if old is None:
                    taken[b] = taken.get(b, 0) + 1
                else:
                    mine |= held.pop(old)
                    b = sum(live[p][0] for p in mine)
                transit -= b
                for p in mine:
                    live[p][2] = ('cmd', cid)
                held[cid] = mine
                inflight[key] = cid
                flying.add(cid)
                segs[f['data_sglen']] = segs.get(f['data_sglen'], 0) + 1
            else:
                cid = inflight.pop(key, None)
                if cid is None:
                    odd += 1
                    continue
                flying.discard(cid)
                transit += sum(live[p][0] for p in held[cid])
                if name == 'scsi_dispatch_cmd_error':
                    errors += 1
                    requeued[key] = cid
                elif name == 'scsi_dispatch_cmd_timeout':
                    timeouts += 1
        else:
            continue
        peak = max(peak, len(inflight))
        if transit == 0 and len(inflight) >= best:
            if len(inflight) > best:
                best, moments, caches = len(inflight), [], {}
                for b, c, _ in live.values():
                    caches[c] = (caches.get(c, (0, b))[0] + 1, b)
            moments.append(in_use)
    for what, k in (('dispatch errors', errors), ('timeouts', timeouts),
                    ('dispatch events without their start or done', odd)):
        if k:
            problems.append(f'{k} {what}')
    if inflight:
        problems.append(f'{len(inflight)} commands still in flight when the trace ended')
    per = [b / best for b in moments] if best > 0 else []
    return {'inflight': max(best, 0), 'peak': peak, 'moments': len(moments),
            'bytes': (min(moments), max(moments)) if moments else None,
            'per_command': statistics.fmean(per) if per else None,
            'per_command_range': (min(per), max(per)) if per else None,
            'caches': caches, 'sizes': sizes, 'taken': taken, 'segments': segs, 'commands': commands,
            'events': len(events), 'problems': problems}


def inflight_slab_only(outdir, point):
    """Whether POINT's inflight step is of the runs before the trace (its
    slabinfo snapshots, NAME.inflight.slab0/.slabinfo/.inflight): SLUB's
    active objects there include the free objects of the CPU slabs, so their
    growth is not the objects in use, and this model does not read them."""
    return os.path.exists(os.path.join(outdir, point + '.inflight.inflight'))


def read_json(path):
    with open(path) as f:
        return json.load(f)


def read_kallsyms(path):
    """/proc/kallsyms (or kallsyms.gz) -> {address: [names]}."""
    out = {}
    with open_data(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3:
                out.setdefault(int(p[0], 16), []).append(p[2])
    return out


IDLE_NAMES = ('__cpuidle_text_start', 'native_safe_halt', 'default_idle', 'arch_cpu_idle',
              'cpu_idle_poll', 'default_idle_call', 'do_idle')


def idle_aliases(kallsyms):
    """The names that share an address with an idle-loop symbol: perf shows
    whichever name it picks (6.1's __sched_text_end is the address of
    __cpuidle_text_start and native_safe_halt)."""
    names = set()
    for syms in kallsyms.values():
        if any(s in IDLE_NAMES for s in syms):
            names.update(syms)
    return names


def read_perf(path, idle=()):
    """perf report's table with a field separator, as the guest writes it
    ('perf report -F overhead,sym -t "|"': ' 28.81%  |[k] name'; runs
    before job files wrote it without -F, the same columns; runs before
    issue 14 without -t, padded: ' 28.81%  [k] name'):
    [(share %, symbol)], symbols in IDLE renamed 'idle loop (<symbol>)'."""
    top = []
    with open(path) as f:
        for line in f:
            if '|' in line:
                share, sym = line.split('|', 1)
                fields = [share] + sym.split(None, 1)
            else:
                fields = line.split(None, 2)
            if len(fields) != 3 or not fields[0].strip().endswith('%'):
                continue
            sym = fields[2].strip()
            top.append((float(fields[0].strip()[:-1]), f'idle loop ({sym})' if sym in idle else sym))
    return top


def _load_module(name, kdir):
    """Module NAME from KDIR/NAME.py, registered under NAME as an import of
    it from KDIR would be."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(kdir, name + '.py'))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def kunit_parser():
    """The kernel tree's KTAP parser, tools/testing/kunit/kunit_parser.py of
    the unpacked base (build/git; SGB_KUNIT_DIR overrides), with its
    progress lines kept in a buffer instead of stdout."""
    global _kunit_parser
    if _kunit_parser is None:
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        kdir = os.environ.get('SGB_KUNIT_DIR', os.path.join(top, 'build', 'git', 'tools', 'testing', 'kunit'))
        if not os.path.exists(os.path.join(kdir, 'kunit_parser.py')):
            sys.exit(f'{kdir}/kunit_parser.py is missing: the bench reads its guests\' KTAP with the '
                     "kernel tree's parser; unpack the base with 'make base' (common/tree.sh base)")
        kunit_printer = _load_module('kunit_printer', kdir)   # kunit_parser imports it
        kp = _load_module('kunit_parser', kdir)
        kunit_printer.stdout._output = io.StringIO()
        _kunit_parser = kp
    return _kunit_parser


_kunit_parser = None


def read_steps(path):
    """The bench guest's results.ktap (bench/guest.sh: one test per step),
    parsed by the kernel's kunit_parser.py: {step: 'pass'|'fail'|'skip'|
    'crashed'} of the steps it reports, the number of steps the plan
    promised that it does not report (the guest stopped before them), and
    the parser's error count."""
    kp = kunit_parser()
    with open(path) as f:
        test = kp.parse_run_tests(f.readlines())
    names = {kp.TestStatus.SUCCESS: 'pass', kp.TestStatus.FAILURE: 'fail',
             kp.TestStatus.SKIPPED: 'skip'}
    steps = {t.name: names.get(t.status, 'crashed') for t in test.subtests if t.name}
    return steps, sum(1 for t in test.subtests if not t.name), test.counts.errors


# ------------------------------------------------------------ the run

class Run:
    """A bench run: meta, the kept boots and the rows."""

    def __init__(self, path):
        self.path = path.rstrip('/')
        meta = os.path.join(self.path, 'meta.txt')
        if not os.path.exists(meta):
            sys.exit(f'{self.path} is not a bench run (no meta.txt): give a results/<run-id> '
                     'directory made by make bench')
        self.meta = read_kv(meta)
        self.mode = self.meta['mode'][0]
        self.variants = self.meta['variants'][0].split()
        self.devices = self.meta['devices'][0].split()
        self.points = self.meta.get('point', [])
        self.repeats = int(self.meta['repeats'][0])
        # the run says which variant was its control (meta.txt control);
        # a run from before it did is read with today's variant table
        self.control = self.meta['control'][0] if 'control' in self.meta else variants.control(self.variants)
        self.others = [v for v in self.variants if v != self.control]
        self.boots = {}     # (device, variant) -> {repeat: boot dir}
        self._steps = {}    # boot dir -> its results.ktap steps
        self.rows = {}      # (device, variant, point) -> {repeat: metrics}
        for d in self.devices:
            for v in self.variants:
                for rdir in sorted(glob.glob(os.path.join(self.path, 'raw', d, v, 'r*'))):
                    m = re.match(r'r(\d+)$', os.path.basename(rdir))
                    if not m or not self._passed(rdir):
                        continue
                    r = int(m.group(1))
                    self.boots.setdefault((d, v), {})[r] = rdir
                    for p in self.points:
                        self.rows.setdefault((d, v, p), {})[r] = self._row(rdir, p)

    @staticmethod
    def _passed(rdir):
        try:
            with open(os.path.join(rdir, 'RESULT')) as f:
                return f.read().strip() == 'pass'
        except FileNotFoundError:
            return False

    def _row(self, rdir, point):
        out = os.path.join(rdir, 'share', 'out')
        path = os.path.join(out, point + '.json')
        ktap = os.path.join(out, 'results.ktap')
        if os.path.exists(ktap):    # boots from before job files have none
            if rdir not in self._steps:
                self._steps[rdir] = read_steps(ktap)[0]
            st = self._steps[rdir].get(point)
            if st != 'pass':
                sys.exit(f'{ktap}: point {point} is {st or "not reported"}, but the boot is marked '
                         'complete (its job differs from meta.txt: rerun it)')
        if not os.path.exists(path):
            sys.exit(f'{path} is missing: the boot is marked complete but has no data for this '
                     'point (its job differs from meta.txt: rerun it)')
        row = read_fio(path, bs_bytes(split_point(point)[1]))
        row['req_kib'] = request_kib(out, point)
        return row

    def out(self, device, variant, repeat=None):
        """share/out of a boot: the given repeat, else the first kept one."""
        b = self.boots.get((device, variant), {})
        if not b:
            return None
        return os.path.join(b[repeat if repeat is not None else min(b)], 'share', 'out')

    def values(self, d, v, p, key):
        return [m[key] for _, m in sorted(self.rows.get((d, v, p), {}).items()) if m.get(key) is not None]

    def complete(self):
        return all(len(self.boots.get((d, v), {})) == self.repeats
                   for d in self.devices for v in self.variants)

    # -------------------------------------------------------- comparisons

    def compare(self, d, p, other, key='ns_per_io'):
        """Paired comparison of OTHER against the control at one point."""
        a = self.rows.get((d, self.control, p), {})
        b = self.rows.get((d, other, p), {})
        reps = sorted(r for r in set(a) & set(b) if a[r].get(key) and b[r].get(key) is not None)
        if not reps:
            return None
        ios = min(min(a[r]['ios'], b[r]['ios']) for r in reps)
        win = min(min(a[r]['window_ms'], b[r]['window_ms']) for r in reps)
        # the same I/O counts in every repeat on both kernels: the repeats
        # are copies of one run (icount), whatever spread the window's
        # whole milliseconds give them
        copies = key in IOS_METRICS and all(len({x[r]['ios'] for r in reps}) == 1 for x in (a, b))
        return paired([a[r][key] for r in reps], [b[r][key] for r in reps],
                      quantum_floor(ios, win), single=copies)

    def family(self, other, key='ns_per_io'):
        """Every point of every device compared, Holm-adjusted over the lot:
        {(device, point): Comparison}."""
        out = {}
        for d in self.devices:
            for p in self.points:
                c = self.compare(d, p, other, key)
                if c:
                    out[(d, p)] = c
        holm(list(out.values()))
        return out

    def classes(self, other, key='ns_per_io'):
        """Per device and size class: the per-repeat mean of the paired
        differences over the class's points, as one comparison (its floor
        is the mean of the points' floors), plus the points of the class
        that are significant: {(device, size): (Comparison, [(point,
        Comparison)])}.  Holm over the classes."""
        fam = self.family(other, key)
        sizes = []
        for p in self.points:
            if size_class(p) not in sizes:
                sizes.append(size_class(p))
        out = {}
        for d in self.devices:
            for s in sizes:
                pts = [(p, fam[(d, p)]) for p in self.points if size_class(p) == s and (d, p) in fam]
                if not pts:
                    continue
                n = min(len(c.diffs) for _, c in pts)
                per_rep = [statistics.fmean(c.diffs[i] for _, c in pts) for i in range(n)]
                base = statistics.fmean(statistics.fmean(c.base) for _, c in pts)
                c = from_diffs(per_rep, statistics.fmean(c.floor for _, c in pts), base,
                               single=all(c.single for _, c in pts))
                out[(d, s)] = (c, pts)
        holm([c for c, _ in out.values()])
        return out


# ------------------------------------------------------------ statistics

def quantum_floor(ios, window_ms):
    """The smallest difference (%) one repeat can show: one I/O over the
    completed I/Os, plus fio's clock (the window is reported in whole ms)."""
    return 100.0 / ios + 100.0 / window_ms if ios else float('inf')


def t_quantile(q, dof):
    from scipy import stats
    return float(stats.t.ppf(q, dof))


class Comparison:
    """Paired differences in % of the control, per repeat.

    mean, half: the mean and the half-width of its 95 % t interval; floor:
    the quantisation floor (%); pm: what the reports print after the ±,
    max(half, floor): no interval is narrower than the smallest difference
    one repeat can show; mde: the minimum detectable effect (two-sided 5 %,
    power 80 %) from the paired spread; resolution = max(floor, mde); p:
    the paired t test's p value; significant: Holm-adjusted p < ALPHA and
    |mean| above the floor; resolved: the interval is at least the floor
    wide or the difference exceeds the floor (else the rig cannot tell).

    single: the comparison is one observation: one repeat, or repeats that
    are copies of one run (the same I/O counts in every repeat on both
    kernels, Run.compare: under icount the repeats then differ only by
    fio's whole-millisecond clock and float rounding).  It has no interval
    (half, pm, mde and resolution are nan), no p, is never significant and
    is not resolved; its verdict is 'one observation' where the difference
    exceeds the floor, else 'not resolved'.

    No spread: a standard deviation within SD_RTOL of 100 % + |mean| (the
    scale of the ratios the differences come from, so the rounding of
    100 (y - x) / x) is float noise and counts as 0: half = mde = 0, pm =
    floor, no p (never significant)."""

    def __init__(self, diffs, floor, base, mean_abs=None, single=False):
        self.diffs = diffs
        self.n = len(diffs)
        self.single = single or self.n < 2
        self.floor = floor
        self.base = base
        self.mean = statistics.fmean(diffs)
        self.mean_abs = mean_abs   # the mean difference in the metric's unit
        self.p = None
        self.half = self.mde = float('nan')
        if not self.single:
            sd = statistics.stdev(diffs)
            if sd <= SD_RTOL * (100.0 + abs(self.mean)):
                sd = 0.0
            se = sd / math.sqrt(self.n)
            self.half = t_quantile(0.975, self.n - 1) * se
            self.mde = (t_quantile(0.975, self.n - 1) + t_quantile(POWER_T, self.n - 1)) * se
            if sd > 0:
                from scipy import stats
                self.p = float(2 * stats.t.sf(abs(self.mean) / se, self.n - 1))
        self.pm = max(self.half, floor) if not math.isnan(self.half) else float('nan')
        self.resolution = max(floor, self.mde) if not math.isnan(self.mde) else float('nan')
        self.p_holm = None
        self.significant = False

    @property
    def resolved(self):
        """False where the rig cannot tell the kernels apart at this point:
        one observation, or a difference and an interval both under the
        floor."""
        if self.single:
            return False
        return abs(self.mean) > self.floor or self.half >= self.floor

    def resolves(self, target):
        """Whether the point resolves a difference of TARGET %: its
        resolution is at most TARGET (never for one observation)."""
        return not self.single and self.resolution <= target

    def verdict(self):
        if self.significant:
            return 'significant'
        if self.single and abs(self.mean) > self.floor:
            return 'one observation'
        if not self.resolved:
            return 'not resolved'
        return 'no difference shown'


def paired(a, b, floor, single=False):
    """Comparison of B against A, paired by position (repeat); SINGLE: the
    repeats are copies of one run (Comparison.single)."""
    diffs = [100.0 * (y - x) / x for x, y in zip(a, b)]
    return Comparison(diffs, floor, a, statistics.fmean(y - x for x, y in zip(a, b)), single)


def from_diffs(diffs, floor, base, single=False):
    return Comparison(diffs, floor, [base], base * statistics.fmean(diffs) / 100.0, single)


def holm(comps):
    """Holm's step-down rule over COMPS (Comparisons with a p value): sets
    p_holm and significant on each."""
    tested = sorted((c for c in comps if c.p is not None), key=lambda c: c.p)
    m = len(tested)
    running = 0.0
    for i, c in enumerate(tested):
        running = max(running, min(1.0, (m - i) * c.p))
        c.p_holm = running
        c.significant = running < ALPHA and abs(c.mean) > c.floor and not c.single
    return comps


def resolving(comps, target=0.5):
    """How many of COMPS resolve a difference of TARGET % (Comparison.
    resolves: their resolution, the larger of the floor and the minimum
    detectable effect, is at most TARGET), and why the others do not, in
    this order: 'floor' (the window holds too few I/Os), 'one' (one
    observation: no interval), 'spread' (the repeats spread).  {'resolve',
    'floor', 'one', 'spread'}: counts that add up to len(COMPS); the one
    count REPORT.md and DECISION.md both give."""
    out = {'resolve': 0, 'floor': 0, 'one': 0, 'spread': 0}
    for c in comps:
        out['resolve' if c.resolves(target) else 'floor' if c.floor > target else
            'one' if c.single else 'spread'] += 1
    return out
