"""Host-side tests of the reports' layout (issue 34): DECISION.md on about
two screens, one row per criterion with a short verdict and a link to the
row in full in DECISION-appendix.md (with the tables behind it);
REPORT.md's long tables in REPORT-appendix.md; and the headline both share
on their first screen, the device classes of the run and what each path
includes (a data copy, a DMA mapping, an IOMMU, an emulated HBA), read
from the run's own device descriptions by bench/templates/device-classes.tsv.
Fixtures: the synthetic run of test_markdown_tables (tests/data), and
tests/data/device-descriptions.txt."""
import os
import re
import shutil
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

from bench import attrib_evidence  # noqa: E402
from bench import decision  # noqa: E402
from bench import decision_rules  # noqa: E402
from bench import mdtable  # noqa: E402
from bench import report  # noqa: E402
from bench import report_lib  # noqa: E402
from tests.host import test_markdown_tables as tmt  # noqa: E402  (a module, so its tests are not collected twice)
from tests.host.test_model import make_run  # noqa: E402

DATA = os.path.join(HERE, '..', 'data')
DESCRIPTIONS = os.path.join(DATA, 'device-descriptions.txt')
LINK = re.compile(r'\]\(([^)\s]*)\)')


def descriptions():
    """tests/data/device-descriptions.txt: {name: description}."""
    out = {}
    with open(DESCRIPTIONS) as f:
        for line in f:
            if line.strip() and not line.startswith('#'):
                name, desc = line.rstrip('\n').split(' ', 1)
                out[name] = desc
    return out


def set_devices(run, devices):
    """The run's meta.txt with each device's description from
    device-descriptions.txt, as a bench run records it."""
    desc = descriptions()
    path = os.path.join(run, 'meta.txt')
    with open(path) as f:
        lines = f.read().splitlines()
    lines = [f'device_{ln.split()[0][7:]} {desc[ln.split()[0][7:]]}'
             if ln.startswith('device_') and ln.split()[0][7:] in devices else ln for ln in lines]
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def anchors(text):
    """The anchors of TEXT's headings, as GitHub makes them."""
    return {mdtable.slug(ln) for ln in text.splitlines() if re.match(r'#{1,6} ', ln)}


def section(text, heading):
    """TEXT's lines from HEADING (a line) to the next heading of its level or above."""
    lines = text.splitlines()
    i = lines.index(heading)
    level = len(heading) - len(heading.lstrip('#'))
    j = next((k for k in range(i + 1, len(lines))
              if re.match(r'#{1,%d} ' % level, lines[k])), len(lines))
    return lines[i:j]


class LayoutTest(tmt.RenderedRun):
    """The synthetic run (fake and real scsi_debug, the IOMMU class on two
    devices, attribution runs, decision evidence) rendered."""

    def rendered(self):
        run = self.run_dir()
        set_devices(run, ('real', 'fake'))
        report.Report(run).write(plots=False)
        self.dec = decision.Decision(run)
        self.dec.write()
        return run

    def summary(self, text):
        got = [(head, rows) for _, head, rows in tmt.tables(text) if head[0] == 'criterion']
        self.assertEqual(len(got), 1)
        return got[0]

    def test_decision_is_short_and_every_row_links_its_appendix(self):
        run = self.rendered()
        self.assertTrue(os.path.exists(os.path.join(run, decision_rules.APPENDIX)))
        self.assertLess(os.path.getsize(os.path.join(run, 'DECISION.md')), 8192)
        dec, app = self.read(run, 'DECISION.md'), self.read(run, decision_rules.APPENDIX)
        head, rows = self.summary(dec)
        # one column per candidate against the control
        self.assertEqual(head, ['criterion', 'sg_ring against sg_table'])
        # one row per criterion, and what the rig cannot show
        self.assertEqual([c[0] for _, c in rows], [r[5] for r in self.dec.summary] + ['What this rig cannot show'])
        self.assertGreaterEqual(len(rows), 10)
        have = anchors(app)
        for _, c in rows:
            m = re.fullmatch(r'(\*\*[^*]+\*\*: )?(.*) \(\[in full\]\(DECISION-appendix\.md#([^)]+)\)\)', c[1])
            self.assertTrue(m, c)
            self.assertLessEqual(len(m.group(2).replace('\\|', '|')), decision_rules.SHORT, c[0])
            self.assertIn(m.group(3), have, c[0])
        # no table of the appendix carries a row's long text: the rows in
        # full are paragraphs
        self.assertFalse([h for _, h, _ in tmt.tables(app) if h[0] == 'criterion'])

    def test_every_row_is_in_full_in_the_appendix_and_its_detail_resolves(self):
        run = self.rendered()
        app, rep = self.read(run, decision_rules.APPENDIX), self.read(run, 'REPORT.md')
        rows = section(app, '## The summary rows in full')
        self.assertEqual(len([ln for ln in rows if ln.startswith('### ')]), len(self.dec.summary))
        for criterion, ahead, full, link, short, key, cand in self.dec.summary:
            part = '\n'.join(section(app, f'### {key}: {cand}'))
            self.assertIn(f'Ahead: **{ahead}**. {full}.', part)
            if criterion != key:
                self.assertIn(f'**{criterion}**', part)
            self.assertIn(f']({link})', part)
            target, _, anchor = link.partition('#')
            self.assertIn(anchor, anchors(rep if target == 'REPORT.md' else app), link)
        # the tables and rules behind the rows computed from the trees
        for h in ('## What this rig cannot show', '## Churn: sg_ring against sg_table',
                  '## Complexity of the code each design needs: sg_ring against sg_table',
                  '## API surface: sg_ring against sg_table',
                  '## Conversion cost for the rest of the kernel: sg_ring against sg_table',
                  '## Memory per command: sg_ring against sg_table'):
            self.assertIn(h, app.splitlines())
            self.assertNotIn(h, self.read(run, 'DECISION.md').splitlines())

    def test_report_keeps_its_long_tables_in_an_appendix_file(self):
        run = self.rendered()
        rep, app = self.read(run, 'REPORT.md'), self.read(run, report_lib.APPENDIX)
        self.assertNotIn('Appendix', rep)
        self.assertIn(report_lib.APPENDIX_HEADING, app.splitlines())
        self.assertIn('[REPORT.md](REPORT.md)', app)
        links = [x for x in LINK.findall(rep) if x.startswith(report_lib.APPENDIX)]
        self.assertIn(report_lib.APPENDIX, links)
        for x in links:
            anchor = x.partition('#')[2]
            if anchor:
                self.assertIn(anchor, anchors(app), x)
        for x in LINK.findall(rep) + LINK.findall(app):
            if x.startswith('#'):
                self.assertIn(x[1:], anchors(rep if x in LINK.findall(rep) else app), x)
        # a rendering without attribution runs has no appendix, and removes
        # an earlier one
        os.remove(os.path.join(run, attrib_evidence.LINKS))
        report.Report(run).write(plots=False)
        self.assertFalse(os.path.exists(os.path.join(run, report_lib.APPENDIX)))
        self.assertNotIn(report_lib.APPENDIX, self.read(run, 'REPORT.md'))

    def test_the_first_screen_names_the_device_classes(self):
        run = self.rendered()
        for name, after in (('REPORT.md', '## Answer: sg_ring against sg_table, guest time per I/O'),
                            ('DECISION.md', '## Summary')):
            text = self.read(run, name)
            lines = text.splitlines()
            at = lines.index('## Device classes: what each path includes')
            self.assertLess(at, 10, name)
            self.assertLess(at, lines.index(after), name)
            got = [(h, rows) for _, h, rows in tmt.tables(text) if h[:2] == ['device', 'class']]
            self.assertEqual(len(got), 1, name)
            head, rows = got[0]
            self.assertEqual(head, ['device', 'class', 'data copy (guest CPU)', 'DMA mapping', 'IOMMU',
                                    'HBA emulation', 'measured by'])
            cls = {c[0]: c[1:] for _, c in rows}
            # the run's devices, then the IOMMU class of its attribution runs
            self.assertEqual(list(cls), ['real', 'fake', 'iommu-strict', 'iommu-lazy'])
            self.assertEqual(cls['real'][:5], ['scsi_debug', 'yes: memcpy to and from its RAM store', 'no', 'no',
                                               'no: a software host in the guest'])
            self.assertEqual(cls['fake'][:5], ['scsi_debug, fake_rw=1', 'no: fake_rw=1 skips the data transfer',
                                               'no', 'no', 'no: a software host in the guest'])
            self.assertEqual(cls['iommu-strict'][:5], ['QEMU megasas behind intel-iommu', 'no: QEMU\'s HBA moves the '
                                                       'data', 'yes: dma-iommu', 'yes: intel-iommu, strict',
                                                       'yes: megasas'])
            self.assertEqual(cls['iommu-lazy'][3], 'yes: intel-iommu, lazy')
            # what measured each: fio on the run's devices, the attribution's
            # exact counts (at the run's points it has) and the IOMMU class's
            self.assertEqual(cls['real'][5], 'fio, 3 repeats')
            self.assertTrue(cls['fake'][5].startswith('fio, 3 repeats; exact counts, '), cls['fake'][5])
            self.assertEqual(cls['iommu-strict'][5], 'exact counts by phase, 1 points, run twice')
            top = lines.index(mdtable.template('headline.md')['header'])
            para = lines[top + 2 + len(rows) + 1]   # the paragraph after the table
            self.assertIn('`real` and `fake` are both scsi_debug, and neither maps DMA', para)
            self.assertIn('`iommu-strict` and `iommu-lazy` map DMA and are measured by exact instruction '
                          'counts only', para)
            self.assertIn('no speed figure for them', para)


class OneDeviceTest(unittest.TestCase):
    """A run of one scsi_debug device and no attribution: the headline is
    derived from it, not written for the reference run."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='report-layout-test-')
        self.roles, decision_rules.ROLES = decision_rules.ROLES, decision_rules.ROLES[:1]

    def tearDown(self):
        decision_rules.ROLES = self.roles
        shutil.rmtree(self.tmp)

    def test_one_device_without_dma(self):
        run = make_run(self.tmp, 'one', {('real', 'sg_table', 'randread-4k-qd1'): [18925, 18920, 18924],
                                         ('real', 'sg_ring', 'randread-4k-qd1'): [18708, 18709, 18703]},
                       devices=('real',))
        set_devices(run, ('real',))
        shutil.copytree(os.path.join(DATA, 'decision-run', 'raw', 'decision'), os.path.join(run, 'raw', 'decision'))
        report.Report(run).write(plots=False)
        decision.Decision(run).write()
        for name in ('REPORT.md', 'DECISION.md'):
            with open(os.path.join(run, name)) as f:
                text = f.read()
            self.assertIn('| real | scsi_debug | yes: memcpy to and from its RAM store | no | no | '
                          'no: a software host in the guest | fio, 3 repeats |', text)
            self.assertIn('`real` is scsi_debug, and it maps no DMA', text)
            self.assertIn('No device of this run maps DMA', text)
            self.assertNotIn('iommu', text.split('## Summary')[0].split('## Answer')[0])
        self.assertFalse(os.path.exists(os.path.join(run, report_lib.APPENDIX)))
        self.assertLess(os.path.getsize(os.path.join(run, 'DECISION.md')), 8192)


class DeviceClassTest(unittest.TestCase):
    def test_every_description_gets_its_class(self):
        got = {n: (mdtable.classify(d) or [None])[0] for n, d in descriptions().items()}
        self.assertEqual(got, {
            'real': 'scsi_debug', 'fake': 'scsi_debug, fake_rw=1', 'virtio': 'QEMU virtio-scsi',
            'pvscsi': 'QEMU pvscsi, no IOMMU', 'iommu-strict': 'QEMU megasas behind intel-iommu',
            'iommu-lazy': 'QEMU megasas behind intel-iommu', 'megasas': 'QEMU megasas, no IOMMU', 'nvme': None})
        self.assertEqual(mdtable.classify(descriptions()['pvscsi'])[2], 'yes: dma-direct')
        # a word with '!' must not occur
        self.assertIsNone(mdtable.classify('qemu virtio-scsi-pci iommu_platform=on'))

    def test_headline_of_dma_devices_measured_by_fio_and_of_an_unknown_one(self):
        d = descriptions()
        text = '\n'.join(mdtable.headline([('pvscsi', d['pvscsi'], 'fio, 3 repeats', True),
                                           ('nvme', d['nvme'], 'fio, 3 repeats', True)]))
        self.assertIn('`pvscsi` maps DMA, and fio measures it', text)
        self.assertIn('| nvme | not classified (no rule of bench/templates/device-classes.tsv matches) | ? |', text)
        self.assertNotIn('scsi_debug', text.split('\n\n', 2)[-1])
        self.assertEqual(tmt.bad_rows(text), [])

    def test_slug_is_githubs(self):
        self.assertEqual(mdtable.slug('## Behind an IOMMU: instructions and IOMMU work per I/O (QEMU intel-iommu)'),
                         'behind-an-iommu-instructions-and-iommu-work-per-io-qemu-intel-iommu')
        self.assertEqual(mdtable.slug('### Memory per command (1..2048 segments)'), 'memory-per-command-12048-segments')
        self.assertEqual(mdtable.slug('## The API alone: in-kernel microbenchmark (sg_api_bench)'),
                         'the-api-alone-in-kernel-microbenchmark-sg_api_bench')

    def test_clip_counts_what_it_leaves_out(self):
        self.assertEqual(mdtable.clip(['aaaa', 'bbbb', 'cccc'], 100), 'aaaa; bbbb; cccc')
        self.assertEqual(mdtable.clip(['aaaa', 'bbbb', 'cccc'], 20), 'aaaa and 2 more')
        self.assertEqual(mdtable.clip(['aaaa', 'bbbb', 'c' * 20], 30), 'aaaa; bbbb and 1 more')

    def test_templates_are_filled_from_the_run(self):
        t = mdtable.template('headline.md')
        self.assertEqual(t['heading'], '## Device classes: what each path includes')
        self.assertNotIn('\n', t['intro'])
        self.assertEqual(mdtable.fill(t, 'measured-fio', repeats=5), 'fio, 5 repeats')
        for name in ('decision.md', 'report.md'):
            self.assertTrue(mdtable.template(name))


if __name__ == '__main__':
    unittest.main()
