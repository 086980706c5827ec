"""Host-side tests of the memory-in-flight measurement: bench/tracefs.py's
reader of the guest's ring buffer pages (read_trace) and its exact count
of the sg pool objects in use with commands in flight (read_inflight), on
traces written by tracewriter.py and on a real one from a guest
(tests/data/inflight-trace/), and the old slab-growth figure that the
exact count replaces."""
import os
import shutil
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')

from bench import decision_memory  # noqa: E402
from bench import decision_parse  # noqa: E402
from bench import readers  # noqa: E402
from bench import tracefs  # noqa: E402
from tests.host.tracewriter import START, Guest, TraceWriter  # noqa: E402

def trace(w):
    tmp = tempfile.mkdtemp(prefix='sgb-trace-')
    w.write(os.path.join(tmp, 'p.inflight'))
    return tmp


class ReadTraceTest(unittest.TestCase):
    def tearDown(self):
        shutil.rmtree(getattr(self, 'tmp', ''), ignore_errors=True)

    def test_fields_order_time_extend_and_long_events(self):
        w = TraceWriter()
        w.add(5_000, 1, 'kmem_cache_free', call_site=0xffffffff81234567, ptr=0xffff888001234000, name='sgpool-128')
        w.add(1_000, 0, 'kmem_cache_alloc', call_site=7, ptr=0xffff888001234000, bytes_req=4096,
              bytes_alloc=4096, gfp_flags=0xa20, node=-1, accounted=0)
        # 2 s later: more than the 27-bit delta holds (a time extend)
        w.add(2_000_001_000, 0, 'scsi_dispatch_cmd_start', driver_tag=31, data_sglen=256, **START)
        # a 16-byte CDB makes the event longer than 112 bytes? no: give it 80
        w.add(2_000_002_000, 0, 'scsi_dispatch_cmd_done', driver_tag=-1, data_sglen=1, result=0x70000,
              **dict(START, cmnd=bytes(range(80)), cmd_len=80))
        self.tmp = trace(w)
        events, lost = tracefs.read_trace(os.path.join(self.tmp, 'p.inflight'))
        self.assertEqual(lost, 0)
        self.assertEqual([(e[0], e[1], e[2]) for e in events],
                         [(1_000, 0, 'kmem_cache_alloc'), (5_000, 1, 'kmem_cache_free'),
                          (2_000_001_000, 0, 'scsi_dispatch_cmd_start'), (2_000_002_000, 0, 'scsi_dispatch_cmd_done')])
        a, f, s, d = (e[3] for e in events)
        self.assertEqual((a['ptr'], a['bytes_alloc'], a['node'], a['call_site']), (0xffff888001234000, 4096, -1, 7))
        self.assertEqual((f['name'], f['call_site']), ('sgpool-128', 0xffffffff81234567))
        self.assertEqual((s['driver_tag'], s['scheduler_tag'], s['data_sglen'], s['cmnd'][0]), (31, -1, 256, 0x28))
        self.assertEqual((d['driver_tag'], d['result'], d['cmnd']), (-1, 0x70000, bytes(range(80))))

    def test_many_pages_in_order(self):
        w = TraceWriter()
        for i in range(3000):
            w.add(1000 + i * 10, 0, 'kmem_cache_free', call_site=i, ptr=i, name='sgring-127')
        self.tmp = trace(w)
        events, _ = tracefs.read_trace(os.path.join(self.tmp, 'p.inflight'))
        self.assertGreater(os.path.getsize(os.path.join(self.tmp, 'p.inflight', 'per_cpu', 'cpu0', 'trace_pipe_raw')),
                           20 * 4096)
        self.assertEqual([e[3]['call_site'] for e in events], list(range(3000)))
        self.assertEqual(events[-1][0], 1000 + 2999 * 10)

    def test_lost_events_are_counted(self):
        w = TraceWriter()
        for i in range(200):
            w.add(1000 + i, 0, 'kmem_cache_free', call_site=i, ptr=i, name='sgpool-8')
        w.missed_pages.add((0, 1))
        w.stats[0] = {'overrun': 3}
        self.tmp = trace(w)
        _, lost = tracefs.read_trace(os.path.join(self.tmp, 'p.inflight'))
        self.assertEqual(lost, 4)


class InflightTest(unittest.TestCase):
    def tearDown(self):
        shutil.rmtree(getattr(self, 'tmp', ''), ignore_errors=True)

    def measure(self, w):
        self.tmp = trace(w)
        return tracefs.read_inflight(self.tmp, 'p')

    def test_1M_commands_exactly(self):
        # 256 segments on sg_table: 2 x sgpool-128 a command
        w = TraceWriter()
        Guest(w, [('sgpool-128', 4096)] * 2, 256, qd=32, cmds=400)
        x = self.measure(w)
        self.assertEqual(x['problems'], [])
        self.assertEqual((x['inflight'], x['peak'], x['commands']), (32, 32, 400))
        self.assertEqual(x['per_command_range'], (8192.0, 8192.0))
        self.assertEqual(x['caches'], {'sgpool-128': (64, 4096)})
        self.assertEqual(x['taken'], {8192: 400})
        self.assertEqual(x['segments'], {256: 400})
        self.assertGreaterEqual(x['moments'], 10)

    def test_moments_in_transit_are_not_steady(self):
        # a command that is done still holds its objects until it frees
        # them, and a command being prepared holds its objects before its
        # dispatch: at those moments the objects in use over the commands
        # in flight is not what a command holds
        w = TraceWriter()
        Guest(w, [('sgring-127', 4096)] * 8 + [('sgring-7', 256)], 1024, qd=4, cmds=50)
        x = self.measure(w)
        self.assertEqual(x['per_command_range'], (33024.0, 33024.0))
        self.assertEqual(x['inflight'], 4)
        events, _ = tracefs.read_trace(os.path.join(self.tmp, 'p.inflight'))
        done = next(i for i, e in enumerate(events) if e[2] == 'scsi_dispatch_cmd_done')
        # just after the first done event: 4 commands' objects, 3 in flight,
        # 44032 B over each: not a steady moment
        before = [e[2] for e in events[:done + 1]]
        self.assertEqual((before.count('kmem_cache_alloc'), before.count('kmem_cache_free')), (4 * 9, 0))
        self.assertEqual(before.count('scsi_dispatch_cmd_start') - 1, 3)

    def test_other_caches_at_the_same_pointer(self):
        # biovec-256 objects are 4096 bytes too and pass the size filter;
        # their frees are not traced (the free filter names the sg caches).
        # One at the address an sg object takes later, one never freed:
        # neither is counted
        w = TraceWriter()
        p, q, r = 0xffff888000200000, 0xffff888000300000, 0xffff888000400000
        for t, ptr in ((10, p), (20, q), (30, p), (40, r)):
            w.add(t, 0, 'kmem_cache_alloc', call_site=2, ptr=ptr, bytes_req=4096, bytes_alloc=4096)
        w.add(50, 0, 'scsi_dispatch_cmd_start', driver_tag=0, data_sglen=256, **START)
        w.add(60, 0, 'scsi_dispatch_cmd_done', driver_tag=0, data_sglen=256, **START)
        w.add(70, 0, 'kmem_cache_free', call_site=1, ptr=p, name='sgpool-128')
        w.add(80, 0, 'kmem_cache_free', call_site=1, ptr=r, name='sgpool-128')
        x = self.measure(w)
        self.assertEqual(x['problems'], [])
        self.assertEqual(x['taken'], {8192: 1})
        self.assertEqual((x['inflight'], x['per_command_range']), (1, (8192.0, 8192.0)))

    def test_what_makes_the_count_inexact_is_a_problem(self):
        w = TraceWriter()
        Guest(w, [('sgpool-128', 4096)] * 2, 256, qd=4, cmds=8)
        w.add(1, 0, 'kmem_cache_alloc', call_site=1, ptr=0, bytes_req=4096, bytes_alloc=4096)
        w.add(2, 0, 'kmem_cache_free', call_site=1, ptr=0xffff888777000000, name='sgpool-128')
        w.add(10**10, 0, 'scsi_dispatch_cmd_start', driver_tag=9, data_sglen=256, **START)
        x = self.measure(w)
        self.assertEqual(x['problems'], [
            '1 allocations of an sg object size failed (a mempool may have used its reserve)',
            '1 sg objects freed that the trace did not see allocated',
            '1 commands still in flight when the trace ended'])

    def test_4k_commands_hold_no_pool_object(self):
        w = TraceWriter()
        Guest(w, [], 1, qd=32, cmds=100)
        x = self.measure(w)
        self.assertEqual((x['inflight'], x['per_command_range'], x['problems']), (32, (0.0, 0.0), []))


class RealTraceTest(unittest.TestCase):
    """Traces of the guests' own INFLIGHT steps (results/inflight-20261204,
    icount): tests/data/inflight-trace/<kernel>-<point>/, the one CPU's
    pages gzipped, with the format files the two kernels share."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='sgb-trace-')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def measure(self, name):
        import gzip
        src = os.path.join(DATA, 'inflight-trace', name)
        tdir = os.path.join(self.tmp, 'p.inflight')
        shutil.copytree(os.path.join(DATA, 'inflight-trace', 'events'), os.path.join(tdir, 'events'))
        cpu = os.path.join(tdir, 'per_cpu', 'cpu0')
        os.makedirs(cpu)
        shutil.copy(os.path.join(src, 'stats'), cpu)
        with gzip.open(os.path.join(src, 'trace_pipe_raw.gz')) as f, \
                open(os.path.join(cpu, 'trace_pipe_raw'), 'wb') as g:
            g.write(f.read())
        return tracefs.read_inflight(self.tmp, 'p')

    def computed(self, variant, segs, sizes):
        if variant == 'sg_ring':
            prefix, ch, ents = 'sgring', decision_memory.chunks_sg_ring(segs, 2, 127), (7, 15, 31, 63, 127)
        else:
            prefix, ch, ents = 'sgpool', decision_memory.chunks_sg_table(segs, 2, 128), (8, 16, 32, 64, 128)
        return sum(sizes[f'{prefix}-{decision_memory.pool_for(k, dict.fromkeys(ents))}'] for k in ch)

    def test_sg_table_1M_at_queue_depth_32(self):
        x = self.measure('sg_table-read-1M-qd32')
        self.assertEqual(x['problems'], [])
        with open(os.path.join(DATA, 'inflight-trace', 'sg_table-read-1M-qd32', 'stats')) as f:
            self.assertIn(f'entries: {x["events"]}\n', f.read())
        self.assertEqual((x['inflight'], x['peak']), (32, 32))
        self.assertEqual(list(x['segments']), [256])
        want = self.computed('sg_table', 256, x['sizes'])
        self.assertEqual(x['per_command_range'], (want, want))
        self.assertEqual(list(x['taken']), [want])
        self.assertEqual(x['caches'], {'sgpool-128': (64, 4096)})

    def test_sg_ring_4M(self):
        # a 4M command takes about 0.5 ms of guest time to submit: about 20
        # are in flight within the 10 ms completion delay
        x = self.measure('sg_ring-read-4M-qd32')
        self.assertEqual(x['problems'], [])
        self.assertEqual(x['inflight'], x['peak'])
        self.assertEqual(list(x['segments']), [1024])
        want = self.computed('sg_ring', 1024, x['sizes'])
        self.assertEqual(x['per_command_range'], (want, want))
        self.assertEqual({k: n for k, (n, _) in x['caches'].items()},
                         {'sgring-127': 8 * x['inflight'], 'sgring-7': x['inflight']})


class OldSlabGrowthTest(unittest.TestCase):
    """results/ref-icount-3 measured read-1M-qd32 on sg_table as the slab
    growth of /proc/slabinfo (tests/data/inflight-slab/: its snapshots):
    SLUB's active objects include the free objects of the CPU slabs, so the
    growth is not the objects in use."""

    def test_the_old_figure_fails_the_exact_rule(self):
        out = os.path.join(DATA, 'inflight-slab')
        base = readers.read_slabinfo(os.path.join(out, 'read-1M-qd32.inflight.slab0'))
        peak = readers.read_slabinfo(os.path.join(out, 'read-1M-qd32.inflight.slabinfo'))
        with open(os.path.join(out, 'read-1M-qd32.inflight.inflight')) as f:
            n = int(f.read())
        grown = sum((x['active'] - base[k]['active']) * x['objsize'] for k, x in peak.items())
        with open(os.path.join(DATA, 'decision-run', 'raw', 'decision', 'sizes-sg_table.txt')) as f:
            sizes = decision_parse.parse_sizes(f.read())
        pools = decision_memory.pool_sizes(peak, 'sgpool')
        computed = decision_memory.memory_rows(sizes, pools, [256])[0][0][2]
        self.assertEqual((n, grown / n, computed), (32, 6144.0, 8192))
        # the model no longer reads them as a measurement
        self.assertIsNone(tracefs.read_inflight(out, 'read-1M-qd32'))
        self.assertTrue(tracefs.inflight_slab_only(out, 'read-1M-qd32'))


if __name__ == '__main__':
    unittest.main()
