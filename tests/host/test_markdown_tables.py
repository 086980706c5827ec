"""Host-side tests that every Markdown table REPORT.md and DECISION.md
and their appendices carry is a valid table: each row has as many cells as its header, a '|'
inside a cell escaped (bench/mdtable.py).  python3-markdown is not part of
the bench's host packages, so the tables are read by the small parser
below, with GitHub-flavoured Markdown's rules: a table is a header row and
a delimiter row, its body runs to the first blank line, and a row is split
at every '|' that is not escaped (inside code spans too).  DECISION.md's
IOMMU row of ref-icount-4 joined its devices with ' | ' and so had five
cells under a header of four: its link was dropped."""
import os
import re
import shutil
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

from bench import attrib_evidence  # noqa: E402
from bench import attrib_fold  # noqa: E402
from bench import decision  # noqa: E402
from bench import decision_rules  # noqa: E402
from bench import mdtable  # noqa: E402
from bench import report  # noqa: E402
from bench import report_lib  # noqa: E402
from tests.host import test_attrib_report as tar  # noqa: E402  (a module, so its tests are not collected twice)
from tests.host.test_model import make_run  # noqa: E402

DELIMITER = re.compile(r'^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$')


def cells(line):
    """The cells of one table row: split at every '|' that is not
    escaped, without the leading and trailing pipe."""
    s = line.strip()
    if s.startswith('|'):
        s = s[1:]
    if s.endswith('|') and not s.endswith('\\|'):
        s = s[:-1]
    return [c.strip() for c in re.split(r'(?<!\\)\|', s)]


def tables(text):
    """Every table of TEXT: [(header line number, header cells, [(line
    number, cells) of each body row])]; line numbers from 1."""
    lines = text.split('\n')
    out, i = [], 0
    while i < len(lines) - 1:
        if '|' in lines[i] and lines[i + 1].strip() and DELIMITER.match(lines[i + 1]):
            j, rows = i + 2, []
            while j < len(lines) and lines[j].strip():
                rows.append((j + 1, cells(lines[j])))
                j += 1
            out.append((i + 1, cells(lines[i]), rows))
            i = j
        else:
            i += 1
    return out


def bad_rows(text):
    """The rows whose cell count is not their header's: [(line, got, want)]."""
    return [(ln, len(c), len(head)) for _, head, rows in tables(text) for ln, c in rows if len(c) != len(head)]


class ParserTest(unittest.TestCase):
    def test_an_unescaped_pipe_adds_a_cell(self):
        text = ('| criterion | ahead | by how much | evidence |\n|---|---|---|---|\n'
                '| IOMMU | sg_table | strict: 4k +79.0 | lazy: 4k +78.9 | [iommu](REPORT.md#iommu) |\n'
                '| escaped | sg_table | strict: 4k +79.0 \\| lazy: 4k +78.9 | [iommu](REPORT.md#iommu) |\n')
        self.assertEqual(bad_rows(text), [(3, 5, 4)])
        self.assertEqual(tables(text)[0][2][1][1][2], 'strict: 4k +79.0 \\| lazy: 4k +78.9')

    def test_a_table_ends_at_a_blank_line_and_not_before(self):
        text = '| a | b |\n|---|---|\n| 1 | 2 |\nA paragraph that is not set off.\n\n| c |\n|---|\n| 3 |\n'
        got = tables(text)
        self.assertEqual([(h, len(r)) for h, _, r in got], [(1, 2), (6, 1)])
        self.assertEqual(bad_rows(text), [(4, 1, 2)])

    def test_a_code_span_does_not_protect_a_pipe(self):
        self.assertEqual(cells('| `a|b` | c |'), ['`a', 'b`', 'c'])
        self.assertEqual(cells('| `a\\|b` | c |'), ['`a\\|b`', 'c'])


class CellTest(unittest.TestCase):
    def test_pipes_are_escaped_once_and_lines_joined(self):
        self.assertEqual(mdtable.cell('strict: +79 | lazy: +78'), 'strict: +79 \\| lazy: +78')
        self.assertEqual(mdtable.cell('already \\| escaped'), 'already \\| escaped')
        self.assertEqual(mdtable.cell('two\nlines'), 'two lines')
        self.assertEqual(mdtable.cell(3), '3')

    def test_a_row_has_one_cell_per_argument(self):
        row = mdtable.row('IOMMU', 'sg_table', 'strict | lazy', '[iommu](REPORT.md#iommu)')
        self.assertEqual(cells(row), ['IOMMU', 'sg_table', 'strict \\| lazy', '[iommu](REPORT.md#iommu)'])


class RenderedRun(tar.Fixture):
    """A small synthetic run to render REPORT.md and DECISION.md from: fio
    points (one of them one observation), the attribution runs of
    tests/data/attrib-run with a residue reason that has a '|' in it, the
    IOMMU class on two devices (tests/data/attrib-iommu folded for
    iommu-strict and iommu-lazy, run twice) and the decision evidence of
    tests/data/decision-run.  No tests of its own (test_report_layout.py
    renders it too)."""
    IOMMU_DATA = os.path.join(tar.DATA, 'attrib-iommu')
    DEVICES = ('device_iommu-strict megasas behind intel-iommu, iommu.strict=1\n'
               'device_iommu-lazy megasas behind intel-iommu, iommu.strict=0\n')

    def setUp(self):
        super().setUp()
        self.roles, decision_rules.ROLES = decision_rules.ROLES, decision_rules.ROLES[:1]

    def tearDown(self):
        decision_rules.ROLES = self.roles
        super().tearDown()

    def iommu_run(self, name, counts):
        src = os.path.join(self.tmp, 'attr', name)
        for dev in ('iommu-strict', 'iommu-lazy'):
            for var, c in counts.items():
                attrib_fold.fold(os.path.join(self.IOMMU_DATA, c), os.path.join(self.IOMMU_DATA, 'System.map'),
                            os.path.join(self.IOMMU_DATA, 'kallsyms'), os.path.join(self.IOMMU_DATA, 'points'),
                            os.path.join(src, 'raw', dev, var))
        with open(os.path.join(src, 'meta.txt'), 'w') as f:
            f.write(self.DEVICES)

    def run_dir(self):
        with open(attrib_evidence.RESIDUE, 'a') as f:
            f.write('incidental\tpipe | in the label\tsd_init_command\tremovable by a | in the reason\n')
        self.iommu_run('iommu', {'sg_table': 'counts-sg_table.txt', 'sg_ring': 'counts-sg_ring.txt'})
        self.iommu_run('iommu2', {'sg_table': 'counts-sg_table.txt', 'sg_ring': 'counts-sg_ring.txt'})
        pts = ('randread-4k-qd1', 'randread-64k-qd1', 'randread-4M-qd32')
        ios = {}
        for d in ('real', 'fake'):
            for p in pts[:2]:
                ios[(d, 'sg_table', p)] = [18925, 18920, 18924]
                ios[(d, 'sg_ring', p)] = [18708, 18709, 18703]
            ios[(d, 'sg_table', pts[2])] = [(473, 2461)] * 3
            ios[(d, 'sg_ring', pts[2])] = [(475, 2462), (475, 2461), (475, 2461)]
        run = make_run(self.tmp, 'run', ios, pts, ('real', 'fake'), extra_meta=tar.KERNELS)
        with open(os.path.join(run, attrib_evidence.LINKS), 'w') as f:
            f.write(tar.LINKS + 'iommu ../attr/iommu\niommu-repeat ../attr/iommu2\n')
        shutil.copytree(os.path.join(tar.DATA, 'decision-run', 'raw', 'decision'),
                        os.path.join(run, 'raw', 'decision'))
        return run


class RenderedTablesTest(RenderedRun):
    """Every table of the synthetic run's reports and appendices."""

    def test_every_table_of_both_reports_is_valid(self):
        run = self.run_dir()
        report.Report(run).write(plots=False)
        decision.Decision(run).write()
        for name, least in (('REPORT.md', 8), ('DECISION.md', 2), (report_lib.APPENDIX, 2), (decision_rules.APPENDIX, 8)):
            text = self.read(run, name)
            found = tables(text)
            self.assertGreaterEqual(len(found), least, name)
            self.assertEqual(bad_rows(text), [], name)
        rep, dec = self.read(run, 'REPORT.md'), self.read(run, 'DECISION.md')
        app = self.read(run, decision_rules.APPENDIX)
        # what the fixture is there for: a one-observation cell, the pipes
        # of the residue item, the IOMMU row of two devices with its link
        self.assertIn('| randread-4M-qd32 | -0.41 %, one observation (floor 0.25 %) | -0.41 %, one observation', rep)
        self.assertIn('| pipe \\| in the label | incidental |', rep)
        self.assertIn('removable by a \\| in the reason |', rep)
        row = [c for _, head, rows in tables(dec) if head[0] == 'criterion'
               for _, c in rows if c[0].startswith('Behind an IOMMU')]
        self.assertEqual(len(row), 1)
        self.assertIn('iommu-strict: 64k', row[0][1])
        self.assertIn(' \\| iommu-lazy: 64k', row[0][1])
        self.assertTrue(row[0][1].endswith('([in full](DECISION-appendix.md'
                                           '#behind-an-iommu-qemu-intel-iommu-the-scattergather-layer-exact-sg_ring))'))
        # in full in the appendix, as a paragraph (no table to break), with
        # its link into REPORT.md
        self.assertIn(' | iommu-lazy: 64k', app)
        self.assertIn('Detail: [behind-an-iommu-instructions-and-iommu-work-per-io-qemu-intel-iommu]'
                      '(REPORT.md#behind-an-iommu-instructions-and-iommu-work-per-io-qemu-intel-iommu)', app)

if __name__ == '__main__':
    unittest.main()
