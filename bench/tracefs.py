"""The tracefs ring buffer of a traced point, read from its binary pages
(trace_pipe_raw) with the event formats saved beside them, and the memory
with commands in flight counted from it (read_inflight)."""
import glob
import os
import re
import statistics

from bench.readers import open_data, read_kv


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
