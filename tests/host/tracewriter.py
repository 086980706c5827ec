"""A writer of tracefs copies (what common/image/guest-lib.sh inflight_trace
leaves), for the tests of bench/tracefs.py read_trace and read_inflight: the
format files of tests/data/inflight-trace/ (the guest's own), and per CPU
ring buffer pages encoded as kernel/trace/ring_buffer.c lays them out
(page header, compressed event headers, time extends, events longer than
112 bytes with their length word, null padding at a page's end)."""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = os.path.join(HERE, '..', 'data', 'inflight-trace')
PAGE, DATA = 4096, 16
TS_MASK = (1 << 27) - 1

EVENTS = ('kmem/kmem_cache_alloc', 'kmem/kmem_cache_free', 'scsi/scsi_dispatch_cmd_start',
          'scsi/scsi_dispatch_cmd_done', 'scsi/scsi_dispatch_cmd_error', 'scsi/scsi_dispatch_cmd_timeout')


def _formats():
    out = {}
    for e in EVENTS:
        fmt = {'fields': []}
        with open(os.path.join(FORMATS, 'events', e, 'format')) as f:
            for line in f:
                if line.startswith('ID:'):
                    fmt['id'] = int(line.split(':')[1])
                if '\tfield:' in line:
                    parts = dict(p.split(':', 1) for p in line.strip().rstrip(';').split(';\t'))
                    decl = parts['field']
                    fmt['fields'].append((decl.split()[-1].split('[')[0], int(parts['offset']),
                                          int(parts['size']), parts['signed'] == '1', decl))
        out[e.split('/')[1]] = fmt
    return out


def encode(fmt, values):
    """One event's payload: the fields of FMT at their offsets, dynamic
    arrays (__data_loc) after them."""
    end = max(off + size for _, off, size, _, _ in fmt['fields'])
    buf = bytearray(end)
    tail = bytearray()
    vals = dict(values, common_type=fmt['id'])
    for name, off, size, signed, decl in fmt['fields']:
        v = vals.get(name, 0)
        if decl.startswith('__data_loc'):
            raw = v.encode() + b'\0' if isinstance(v, str) else bytes(v)
            loc = end + len(tail)
            tail += raw
            buf[off:off + 4] = struct.pack('<I', (len(raw) << 16) | loc)
        else:
            buf[off:off + size] = int(v).to_bytes(size, 'little', signed=signed)
    return bytes(buf + tail)


class TraceWriter:
    """events: (ns, cpu, event name, {field: value}); write(dir)."""

    def __init__(self):
        self.formats = _formats()
        self.events = []
        self.missed_pages = set()   # (cpu, page index) flagged RB_MISSED_EVENTS
        self.stats = {}             # cpu -> {'overrun': n, ...}

    def add(self, ns, cpu, event, **fields):
        self.events.append((ns, cpu, event, fields))

    def _pages(self, evs):
        pages, cur, ts0, last = [], bytearray(), None, None

        def flush():
            if ts0 is not None:
                pages.append((ts0, bytes(cur)))

        for ns, _, name, fields in evs:
            payload = encode(self.formats[name], fields)
            payload += b'\0' * (-len(payload) % 4)
            if len(payload) <= 112:
                rec = [struct.pack('<I', (len(payload) // 4))]
            else:
                rec = [struct.pack('<II', 0, len(payload) + 4)]
            size = sum(map(len, rec)) + len(payload) + 8   # room for a time extend
            if ts0 is None or len(cur) + size > PAGE - DATA:
                flush()
                cur, ts0, last = bytearray(), ns, ns
            delta = ns - last
            if delta > TS_MASK:
                cur += struct.pack('<II', 30 | ((delta & TS_MASK) << 5), delta >> 27)
                delta = 0
            rec[0] = struct.pack('<I', struct.unpack('<I', rec[0][:4])[0] | (delta << 5)) + rec[0][4:]
            cur += b''.join(rec) + payload
            last = ns
        flush()
        return pages

    def write(self, tdir):
        shutil.copytree(os.path.join(FORMATS, 'events'), os.path.join(tdir, 'events'))
        cpus = sorted({e[1] for e in self.events} | set(self.stats) | {0})
        for cpu in cpus:
            d = os.path.join(tdir, 'per_cpu', f'cpu{cpu}')
            os.makedirs(d)
            evs = sorted((e for e in self.events if e[1] == cpu), key=lambda e: e[0])
            with open(os.path.join(d, 'trace_pipe_raw'), 'wb') as f:
                for i, (ts, data) in enumerate(self._pages(evs)):
                    if len(data) + 4 <= PAGE - DATA:
                        data += struct.pack('<I', 29)    # null padding: the rest is empty
                    commit = len(data) | ((1 << 31) if (cpu, i) in self.missed_pages else 0)
                    page = struct.pack('<QQ', ts, commit) + data
                    f.write(page + b'\0' * (PAGE - len(page)))
            st = dict({'overrun': 0, 'commit overrun': 0, 'dropped events': 0}, **self.stats.get(cpu, {}))
            with open(os.path.join(d, 'stats'), 'w') as f:
                f.write(f"entries: {len(evs)}\noverrun: {st['overrun']}\ncommit overrun: {st['commit overrun']}\n"
                        f"bytes: 0\noldest event ts:     0.000000\nnow ts:     1.000000\n"
                        f"dropped events: {st['dropped events']}\nread events: 0\n")


START = dict(host_no=0, channel=0, id=0, lun=0, opcode=0x28, cmd_len=10, scheduler_tag=-1,
             prot_sglen=0, prot_op=0, cmnd=bytes([0x28] + [0] * 9))


class Guest:
    """A made-up guest: commands of CHUNKS pool objects ([(cache, bytes)]),
    QD at once, each completing DELAY ns after its dispatch, as scsi_lib
    orders it: the objects allocated on the submitting CPU just before the
    dispatch, freed just after the done event."""

    def __init__(self, w, chunks, segs, qd, cmds, delay=10_000_000, step=300_000):
        self.w, self.t, self.ptr, self.free = w, 1_000_000, 0xffff888000100000, {}
        done_at, tags, issued = {}, list(range(qd)), 0
        while issued < cmds or done_at:
            nxt = min(a for a, _ in done_at.values()) if done_at else None
            if issued < cmds and tags and (nxt is None or self.t + step < nxt):
                self.t += step
                tag = tags.pop(0)
                mine = [self.alloc(c, b) for c, b in chunks]
                self.w.add(self.tick(), 0, 'scsi_dispatch_cmd_start', driver_tag=tag, data_sglen=segs, **START)
                done_at[tag] = (self.t + delay, mine)
                issued += 1
                continue
            tag = min(done_at, key=lambda k: done_at[k][0])
            at, mine = done_at.pop(tag)
            self.t = max(self.t, at)
            self.w.add(self.tick(), 0, 'scsi_dispatch_cmd_done', driver_tag=tag, data_sglen=segs, **START)
            for p, c in mine:
                self.w.add(self.tick(), 0, 'kmem_cache_free', call_site=1, ptr=p, name=c)
                self.free.setdefault(c, []).append(p)
            tags.append(tag)

    def tick(self):
        self.t += 1000
        return self.t

    def alloc(self, cache, size):
        if self.free.get(cache):
            p = self.free[cache].pop()
        else:
            self.ptr += size
            p = self.ptr
        self.w.add(self.tick(), 0, 'kmem_cache_alloc', call_site=1, ptr=p, bytes_req=size, bytes_alloc=size,
                   gfp_flags=0x820, node=-1)
        return p, cache
