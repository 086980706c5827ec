"""Host-side tests of the decision report: its parsers, the pool policies
and the renderer (bench/decision.py) on a small fixture run."""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data')
RUN = os.path.join(DATA, 'decision-run')

from bench import decision  # noqa: E402
from bench import decision_collect  # noqa: E402
from bench import decision_lib  # noqa: E402
from bench import decision_memory  # noqa: E402
from bench import decision_parse  # noqa: E402
from bench import decision_rules  # noqa: E402
from tests.host.tracewriter import Guest, TraceWriter  # noqa: E402


def raw(name):
    with open(os.path.join(RUN, 'raw', 'decision', name)) as f:
        return f.read()


class PoolPolicyTest(unittest.TestCase):
    def test_sg_table_chunks_lose_one_entry_to_the_chain_link(self):
        # inline 2 (1 entry + the chain link), then 127 + link per full chunk
        self.assertEqual(decision_memory.chunks_sg_table(2, 2, 128), [])
        self.assertEqual(decision_memory.chunks_sg_table(3, 2, 128), [2])
        self.assertEqual(decision_memory.chunks_sg_table(129, 2, 128), [128])
        self.assertEqual(decision_memory.chunks_sg_table(130, 2, 128), [128, 2])
        self.assertEqual(decision_memory.chunks_sg_table(1024, 2, 128), [128] * 8 + [7])

    def test_sg_table_without_inline_chunk_allocates_the_first_too(self):
        self.assertEqual(decision_memory.chunks_sg_table(300, 0, 128), [128, 128, 46])

    def test_sg_ring_arrays_after_the_inline_head(self):
        self.assertEqual(decision_memory.chunks_sg_ring(2, 2, 127), [])
        self.assertEqual(decision_memory.chunks_sg_ring(129, 2, 127), [127])
        self.assertEqual(decision_memory.chunks_sg_ring(1024, 2, 127), [127] * 8 + [6])

    def test_smallest_pool_that_holds_the_chunk(self):
        pools = {7: 256, 15: 512, 127: 4096}
        self.assertEqual(decision_memory.pool_for(7, pools), 7)
        self.assertEqual(decision_memory.pool_for(8, pools), 15)
        with self.assertRaises(ValueError):
            decision_memory.pool_for(128, pools)

    def test_memory_rows_from_real_struct_sizes(self):
        sizes = decision_parse.parse_sizes(raw('sizes-sg_table.txt'))
        pools = {8: 256, 16: 512, 32: 1024, 64: 2048, 128: 4096}
        rows, inline = decision_memory.memory_rows(sizes, pools, [1, 1024])
        self.assertEqual(inline, 2 * sizes['sizeof_scatterlist'])
        fixed = sizes['sizeof_scsi_cmnd'] + inline
        self.assertEqual(rows[0][:4], (1, fixed, 0, fixed))
        self.assertEqual(rows[1][2], 8 * 4096 + 256)


class ParserTest(unittest.TestCase):
    def test_numstat_and_churn_classes(self):
        c = decision_parse.churn(decision_parse.parse_numstat(raw('numstat-sg_ring.txt')),
                                 ('drivers/scsi/scsi_debug.c',))
        # blk-integrity.c, a binary file and dma-iommu.c (the DMA API's
        # IOMMU implementation, series 0028-0030, is API, not "other")
        self.assertEqual(c['API'], [3, 230, 10])
        self.assertEqual(c['SCSI core'], [1, 10, 5])
        self.assertEqual(c['drivers'], [1, 7, 3])
        self.assertEqual(c['tests'], [1, 700, 0])
        self.assertEqual(c['other'], [0, 0, 0])
        self.assertEqual(c['total'], [6, 947, 18])

    def test_pmccabe_line(self):
        got = decision_parse.parse_pmccabe('3\t3\t3\t1\t6\t/tmp/f.c(1): one\nnoise\n')
        self.assertEqual(got, {'one': (3, 3, 3, 1, 6)})

    def test_api_calls_skip_comments_strings_keywords_and_itself(self):
        bodies = decision_lib.split_functions(raw('functions-base.c'))
        body = bodies[('lib/sg_pool.c', 'sg_alloc_table_chained')]
        self.assertEqual(decision_parse.api_calls(body, 'sg_alloc_table_chained'),
                         ['__sg_alloc_table', 'sg_init_table'])

    def test_ctags_drops_guards_and_asserts_and_names_fields_by_struct(self):
        got = decision_parse.parse_ctags(decision_parse.ctags_json(raw('ctags-sg_ring.json')))
        names = [n for _, n in got]
        self.assertNotIn('_LINUX_SG_RING_H', names)
        self.assertNotIn('offsetof', names)
        self.assertIn(('struct field', 'sg_ring.num'), got)
        self.assertIn(('struct field', 'request::(anon).queuelist'), got)
        self.assertIn(('macro', 'sg_ring_for_each'), got)

    def test_ctags_json_and_the_old_text_give_the_same_surface(self):
        # Universal Ctags on one header, as collect runs it (JSON), and as
        # runs before JSON kept it (-x --_xformat): the two readers agree
        hdr = ('#ifndef _LINUX_X_H\n#define _LINUX_X_H\n#define x_for_each(r) for (;;)\n'
               'struct x { unsigned int num; union { int a; long b; }; };\n'
               'static_assert(offsetof(struct x, num) == 0);\n'
               'static inline int x_len(struct x *r) { return r->num; }\nvoid x_free(struct x *r);\n#endif\n')
        tmp = tempfile.mkdtemp()
        try:
            path = os.path.join(tmp, 'x.h')
            with open(path, 'w') as f:
                f.write(hdr)
            ctags = ['ctags', '--kinds-C=dfmpstuv', '-o', '-']
            js = subprocess.run(ctags + ['--output-format=json', path], stdout=subprocess.PIPE, check=True,
                                text=True).stdout
            tx = subprocess.run(ctags + ['-x', '--_xformat=%K|%N|%s|%C', path], stdout=subprocess.PIPE,
                                check=True, text=True).stdout
        finally:
            shutil.rmtree(tmp)
        got = decision_parse.parse_ctags(decision_parse.ctags_json(js))
        self.assertEqual(got, decision_parse.parse_ctags(decision_parse.ctags_xformat(
            ''.join('x.h|' + ln + '\n' for ln in tx.splitlines()))))
        self.assertEqual([n for _, n in got if not n.startswith('x::')],
                         ['x_free', 'x_len', 'x_for_each', 'x.num'])
        self.assertEqual(len([n for _, n in got if n.startswith('x::(anon)')]), 2)

    def test_sg_tablesize_values_resolved_or_reported_unknown(self):
        ts = decision_parse.parse_tablesize(raw('sg_tablesize-base.txt'))
        self.assertNotIn('drivers/usb/host/xhci.c', [p for p, _, _ in ts])
        defs = decision_parse.parse_defines(raw('sg_tablesize-defines-base.txt'), {'SG_CHUNK_SIZE': 128})
        got = {p: decision_parse.resolve(v, p, defs) for p, _, v in ts}
        self.assertEqual(got['drivers/ata/ahci.h'], 168)       # enum constant
        self.assertEqual(got['drivers/scsi/a.c'], 1)
        self.assertEqual(got['drivers/scsi/b.c'], 128)         # SG_ALL -> SG_CHUNK_SIZE
        self.assertEqual(got['drivers/scsi/c.c'], 256)         # same file's C_MAX / 2
        self.assertEqual(got['drivers/ata/pdc_adma.c'], 128)   # enum of an enum, in another directory
        self.assertIsNone(got['drivers/scsi/d.c'])             # a variable
        self.assertIsNone(got['drivers/scsi/e.c'])             # two definitions, no compiled value

    def test_int_eval_refuses_anything_but_arithmetic(self):
        self.assertEqual(decision_parse.int_eval('(0x10 << 2) + 1UL'), 65)
        self.assertIsNone(decision_parse.int_eval('__import__("os")'))
        self.assertIsNone(decision_parse.int_eval('a.b'))


class RenderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.run = os.path.join(self.tmp, 'run')
        shutil.copytree(RUN, self.run)
        # one job, its functions in the fixture's design files
        self.roles, decision_rules.ROLES = decision_rules.ROLES, decision_rules.ROLES[:1]
        self.vdir, decision_rules.VARIANTS_DIR = decision_rules.VARIANTS_DIR, os.path.join(RUN, 'variants')

    def tearDown(self):
        decision_rules.ROLES = self.roles
        decision_rules.VARIANTS_DIR = self.vdir
        shutil.rmtree(self.tmp)

    def render(self):
        """DECISION.md and its appendix (the rows in full, the tables), one text."""
        decision.Decision(self.run).write()
        with open(os.path.join(self.run, 'DECISION.md')) as f, \
                open(os.path.join(self.run, decision_rules.APPENDIX)) as g:
            return f.read() + g.read()

    def test_summary_is_computed_from_the_evidence(self):
        text = self.render()
        # one column per candidate: who is ahead, then the short verdict
        self.assertIn('| criterion | sg_ring against sg_table |', text)
        self.assertIn('| Complexity, API code (McCabe, lines) | **sg_ring**: McCabe 5 vs 17 (-71 % for sg_ring)', text)
        # the fixture's sg_ring function calls __sg_alloc_table (McCabe 11, 76 lines) once per array
        self.assertIn('counting the 1 sg_table functions sg_ring calls, McCabe 16 (-6 %), lines 101 (-3 %)', text)
        self.assertIn('[in full](DECISION-appendix.md#complexity-api-code-mccabe-lines-sg_ring)', text)
        self.assertIn('### Complexity, API code (McCabe, lines): sg_ring', text)
        self.assertIn('6 uses of the single-array accessors in 4 files (4 in 2 after the series)', text)
        self.assertIn('| base 6.1 | 6 | 5 | 4 | 3 | 2 |', text)     # iscsi_tcp.c:10 has two uses
        # sg_table: 1024 segments = 8 x sgpool-128 + 1 x sgpool-8; sg_ring 8 x 127 + 1 x 7
        self.assertIn('| 1024 | 33384 | 8xsgpool-128 + 1xsgpool-8 | 33408 | 8xsgring-127 + 1xsgring-7 | +0.1 % |', text)
        self.assertIn('sgpool-128 (consistent)', text)
        self.assertIn('`drivers/scsi/d.c:13`: `h->maxsg`', text)
        # ahci.h 168 (enum), pdc_adma.c 256 / 2, b.c SG_ALL 128, c.c 256,
        # e.c SG_MAX_SEGMENTS as compiled (2048)
        self.assertIn('| value > 127 (one pool array) | 5 | 5 |', text)
        self.assertIn('| value > 2 (inline head) | 5 | 5 |', text)
        self.assertNotIn('SCSI core code', text)     # no SCSI core functions in the fixture
        # the semantic patch: 3 driver groups, 5 accessor sites in them (2 in
        # libata-scsi.c, 2 in iscsi_tcp.c, 1 in uas.c); it rewrites uas.c's one
        self.assertIn('| the rest of the tree (outside the SCSI core and the drivers above) | 3 | 3 | | | 5 |', text)
        self.assertIn('| changed by the semantic patch | 1 | 1 | 2 | 1 | 1 rewritten (20 %) |', text)
        self.assertIn('| of which converted whole (template flagged) | 1 |', text)
        self.assertIn('| left to the transition or to a hand conversion | 2 | | | | 4 |', text)
        self.assertIn('| `drivers/scsi/scsi_debug.c` | drivers | 7 | 3 |', text)
        self.assertIn('the semantic patch run on their base versions changes 0', text)
        self.assertIn('What this rig cannot show', text)

    def test_run_without_the_semantic_patch_says_so(self):
        os.remove(os.path.join(self.run, 'raw', 'decision', 'cocci-sg_ring.diff'))
        self.assertIn('The semantic patch was not run in this run', self.render())

    def inflight(self, variant, chunks, overrun=0):
        """A traced inflight step of read-4M-qd32 (tracewriter.Guest):
        commands of 1024 segments taking CHUNKS [(cache, bytes)], 32 in
        flight; OVERRUN: events the buffer's stats say it lost."""
        w = TraceWriter()
        Guest(w, chunks, 1024, qd=32, cmds=100)
        w.stats[0] = {'overrun': overrun}
        out = os.path.join(self.run, 'raw', 'fake', variant, 'r1', 'share', 'out')
        shutil.rmtree(os.path.join(out, 'read-4M-qd32.inflight'), ignore_errors=True)
        os.makedirs(out, exist_ok=True)
        w.write(os.path.join(out, 'read-4M-qd32.inflight'))

    def test_memory_measured_in_flight_against_computed(self):
        # 1024 segments on sg_ring: 8 x sgring-127 + 1 x sgring-7 a command,
        # 33024 pool bytes
        self.inflight('sg_ring', [('sgring-127', 4096)] * 8 + [('sgring-7', 256)])
        text = self.render()
        self.assertIn('| sg_ring | read-4M-qd32 | 1024 | 32 (32) |', text)
        self.assertIn('| 33024 | 33024 | yes |', text)
        self.assertIn('measured with commands in flight: read-4M-qd32 per command: sg_ring 33024 B '
                      '(computed 33024, agrees)', text)
        # one pool array short a command: measured exactly, it does not agree
        self.inflight('sg_ring', [('sgring-127', 4096)] * 7 + [('sgring-7', 256)])
        text = self.render()
        self.assertIn('| 28928 | 33024 | NO |', text)
        # a trace that lost events is not a measurement
        self.inflight('sg_ring', [('sgring-127', 4096)] * 8 + [('sgring-7', 256)], overrun=5)
        self.assertIn('| not measured: the ring buffer lost 5 events | 33024 | NO |', self.render())

    def test_slab_growth_of_old_runs_is_not_reconciled(self):
        # results/ref-icount-3's step: slabinfo snapshots only (6144 B a
        # command at read-1M-qd32, 8192 computed): not read as a measurement
        out = os.path.join(self.run, 'raw', 'fake', 'sg_table', 'r1', 'share', 'out')
        os.makedirs(out)
        for f in os.listdir(os.path.join(DATA, 'inflight-slab')):
            shutil.copy(os.path.join(DATA, 'inflight-slab', f), out)
        text = self.render()
        self.assertIn('the INFLIGHT step predates the trace (slab growth, not objects in use): not reconciled',
                      text)
        self.assertNotIn('6144', text)

    def test_same_raw_files_same_bytes(self):
        first = self.render()
        again = self.render()
        self.assertEqual(first, again)

    def test_missing_evidence_is_a_clear_error(self):
        os.remove(os.path.join(self.run, 'raw', 'decision', 'pmccabe-sg_ring.tsv'))
        with self.assertRaises(SystemExit) as cm:
            self.render()
        self.assertIn('pmccabe-sg_ring.tsv is missing', str(cm.exception))

    def test_a_design_without_its_decision_file_is_a_clear_error(self):
        decision_rules.VARIANTS_DIR = self.tmp
        with self.assertRaises(SystemExit) as cm:
            self.render()
        self.assertIn('decision.tsv is missing', str(cm.exception))

    def test_a_second_candidate_gets_its_own_column(self):
        # the fixture's sg_ring evidence again, as a second candidate: one
        # more column, the same verdicts, and its own rows in full
        d = os.path.join(self.run, 'raw', 'decision')
        for name in os.listdir(d):
            if 'sg_ring' in name:
                shutil.copy(os.path.join(d, name), os.path.join(d, name.replace('sg_ring', 'ring2')))
        vdir = os.path.join(self.tmp, 'variants')
        shutil.copytree(os.path.join(RUN, 'variants'), vdir)
        shutil.copytree(os.path.join(vdir, 'sg_ring'), os.path.join(vdir, 'ring2'))
        decision_rules.VARIANTS_DIR = vdir
        text = self.render()
        self.assertIn('| criterion | ring2 against sg_table | sg_ring against sg_table |', text)
        self.assertIn('### Churn (lines changed outside the tests): ring2', text)
        self.assertIn('### Churn (lines changed outside the tests): sg_ring', text)
        self.assertIn('## Churn: ring2 against sg_table', text)

    def later_job(self, series):
        """The fixture's sg_ring design with one more job function, which
        its evidence lacks, and trees.txt naming SERIES as the sg_ring
        series the evidence was collected from."""
        vdir = os.path.join(self.tmp, 'variants')
        shutil.copytree(os.path.join(RUN, 'variants'), vdir)
        with open(os.path.join(vdir, 'sg_ring', 'decision.tsv'), 'a') as f:
            f.write('job\tallocate a chained list from the pools\tlib/sg_pool.c\tsg_ring_added_later\n')
        decision_rules.VARIANTS_DIR = vdir
        trees = os.path.join(self.run, 'raw', 'decision', 'trees.txt')
        with open(trees) as f:
            text = f.read().replace('sg_ring tree c77e', f'sg_ring tree c77e series_sha256 {series}')
        with open(trees, 'w') as f:
            f.write(text)

    def test_job_function_of_a_later_series_is_rendered_as_collected(self):
        # decision.tsv names a function the series gained after the run:
        # the table shows the code as collected and says what it leaves out
        self.later_job('0' * 64)
        text = self.render()
        self.assertIn("Not in sg_ring's series as this run collected it", text)
        self.assertIn('`lib/sg_pool.c:sg_ring_added_later`', text)
        self.assertIn('`__sg_alloc_ring_chained`', text)

    def test_job_function_missing_from_the_same_series_is_an_error(self):
        # the same series: the evidence is incomplete, not old
        from bench.decision_collect import series_hash
        self.later_job(series_hash('sg_ring'))
        with self.assertRaises(SystemExit) as cm:
            self.render()
        self.assertIn('no sg_ring evidence for lib/sg_pool.c:sg_ring_added_later', str(cm.exception))

    def test_no_machine_path_in_the_reports(self):
        # evidence collected before the collector wrote build/<v>/obj
        # relative named the whole path of the machine that collected it
        with open(os.path.join(self.run, 'raw', 'decision', 'trees.txt'), 'a') as f:
            f.write('sg_ring tree c77e run_commit same tree obj /work/main/build/sg_ring/obj (generated headers)\n')
        text = self.render()
        self.assertIn('obj build/sg_ring/obj (generated headers)', text)
        self.assertNotIn('/work/', text)

    def test_the_residue_record_names_the_file_the_reports_read(self):
        # DECISION.md's 4k row reads attrib_evidence.RESIDUE for the design
        # whose decision.tsv names it; the two must be one file
        from bench import attrib_evidence
        named = [v for v in ('sg_table', 'sg_ring', 'dma_iter') if decision_rules.design(v, self.vdir)['residue']]
        self.assertEqual(named, ['sg_ring'])
        self.assertEqual(os.path.join(decision_rules.TOP, decision_rules.design('sg_ring', self.vdir)['residue']),
                         attrib_evidence.RESIDUE)

    def test_design_file_refuses_an_unknown_record(self):
        vdir = os.path.join(self.tmp, 'bad', 'x')
        os.makedirs(vdir)
        with open(os.path.join(vdir, 'decision.tsv'), 'w') as f:
            f.write('header\tinclude/linux/x.h\njob\tno such job\tlib/x.c\tx\n')
        with self.assertRaises(SystemExit) as cm:
            decision_rules.design('x', os.path.join(self.tmp, 'bad'))
        self.assertIn('decision.tsv:2: not a record', str(cm.exception))


class RolesTest(unittest.TestCase):
    def test_roles_name_functions_of_the_built_trees(self):
        # decision.py collect dies on a function ROLES names that the series
        # moved (sg_alloc_ring_chained became an inline wrapper around
        # __sg_alloc_ring_chained and make bench failed at its last step):
        # every name must be a function of the tree make test just built
        import json
        import subprocess
        top = os.path.join(HERE, '..', '..')
        from bench import variants
        for v in variants.load():
            src = os.path.join(top, 'build', v, 'src')
            if not os.path.isdir(src):
                self.skipTest(f'build/{v}/src is not there: make build first')
            for role, fns in decision_rules.design(v)['roles'].items():
                for path, fn in fns:
                    out = subprocess.run(['ctags', '--output-format=json', '--kinds-C=f', '-o', '-',
                                          os.path.join(src, path)],
                                         capture_output=True, text=True, check=True).stdout
                    names = {json.loads(ln).get('name') for ln in out.splitlines() if ln.startswith('{')}
                    self.assertIn(fn, names, f'{role}: no function {fn} in {path} of the {v} tree')


class CollectTest(unittest.TestCase):
    def test_run_measured_with_another_series_is_refused(self):
        tmp = tempfile.mkdtemp()
        try:
            rdir = os.path.join(tmp, 'raw', 'real', 'sg_ring', 'r1')
            os.makedirs(rdir)
            with open(os.path.join(rdir, 'run.info'), 'w') as f:
                f.write('variant sg_ring\nseries_sha256 ' + '0' * 64 + '\n')
            with open(os.path.join(tmp, 'meta.txt'), 'w') as f:
                f.write('variants sg_table sg_ring\n')
            with self.assertRaises(SystemExit) as cm:
                decision_collect.collect(tmp)
            self.assertIn('measured with another sg_ring series', str(cm.exception))
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main()
