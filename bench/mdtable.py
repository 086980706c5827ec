"""Markdown as report.py and decision.py write it: table cells, anchors,
the fixed prose of bench/templates/ and the headline both reports share
(the device classes of a run).

GitHub-flavoured Markdown splits a table row at every '|' that is not
escaped, inside code spans too, and a row with more cells than its header
loses the extra ones (DECISION.md's IOMMU row lost its link that way).  A
cell whose text comes from data or is composed of parts goes through
cell(); a row of such cells through row()."""
import os
import re
import string

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'templates')
DEVICE_CLASSES = os.path.join(TEMPLATES, 'device-classes.tsv')


def cell(x):
    """X as the text of one table cell: on one line, every '|' escaped."""
    return re.sub(r'(?<!\\)\|', r'\\|', str(x).replace('\n', ' '))


def row(*cells):
    """One table row of CELLS, each escaped by cell()."""
    return '| ' + ' | '.join(cell(c) for c in cells) + ' |'


def slug(heading):
    """The anchor GitHub gives a heading: lower case, every character but
    letters, digits, '_', '-' and spaces dropped, each space a '-'."""
    return re.sub(r'[^\w\- ]', '', heading.strip().lstrip('#').strip().lower()).replace(' ', '-')


def clip(parts, limit, sep='; ', more=' and {n} more'):
    """PARTS joined by SEP, as many as fit in LIMIT characters, the rest
    counted by MORE: a short verdict's list."""
    out = []
    for i, p in enumerate(parts):
        tail = more.format(n=len(parts) - i - 1) if i < len(parts) - 1 else ''
        if out and len(sep.join(out + [p]) + tail) > limit:
            return sep.join(out) + more.format(n=len(parts) - len(out))
        out.append(p)
    return sep.join(out)


# ---------------------------------------------------------------- templates

def template(name):
    """bench/templates/NAME as {block: text}: a block starts at a line
    '@@ block' (lines before the first are comments); within a block the
    lines of a paragraph are joined into one line, paragraphs stay apart
    (a table row or heading is a paragraph of one line)."""
    with open(os.path.join(TEMPLATES, name)) as f:
        text = f.read()
    out = {}
    for chunk in re.split(r'^@@ ', text, flags=re.M)[1:]:
        head, _, body = chunk.partition('\n')
        paras = [' '.join(ln.strip() for ln in p.strip().split('\n')) for p in re.split(r'\n\s*\n', body)]
        out[head.strip()] = '\n\n'.join(p for p in paras if p)
    return out


def fill(blocks, name, **values):
    """Block NAME of BLOCKS (template()) with its $words filled in."""
    return string.Template(blocks[name]).substitute(values)


def prose(name, block, **values):
    """Block BLOCK of bench/templates/NAME with its $words filled in: a
    paragraph of a report's fixed prose."""
    return fill(template(name), block, **values)


# ---------------------------------------------------------------- headline

def read_device_classes(path=DEVICE_CLASSES):
    """device-classes.tsv: [(words, [class, copy, DMA mapping, IOMMU, HBA])]."""
    out = []
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith('#'):
                continue
            w = line.rstrip('\n').split('\t')
            if len(w) != 6:
                raise ValueError(f'{path}: want 6 tab-separated fields: {line!r}')
            out.append((w[0].split(), w[1:]))
    return out


def classify(description, rules=None):
    """The cells (class, copy, DMA mapping, IOMMU, HBA) of the first rule
    whose words DESCRIPTION contains ('!word': does not), or None."""
    for words, cells in rules if rules is not None else read_device_classes():
        if all((w[1:] not in description) if w.startswith('!') else (w in description) for w in words):
            return cells
    return None


def names(devices):
    """'`a`', '`a` and `b`', '`a`, `b` and `c`'."""
    q = [f'`{d}`' for d in devices]
    return q[0] if len(q) == 1 else ', '.join(q[:-1]) + ' and ' + q[-1]


def devices_of(run, ev=None):
    """The devices a run's figures come from: [(device, description,
    measured by, fio)], the bench run's own (RUN: bench/model.py Run)
    first, then the IOMMU class's of its attribution evidence (EV:
    bench/attrib_evidence.py Evidence, or None)."""
    t = template('headline.md')
    out = []
    for d in run.devices:
        how = [fill(t, 'measured-fio', repeats=run.repeats)]
        if ev is not None:
            for kind, table in (('exact', ev.insns), ('cache', ev.cache)):
                n = len({p for b in ev.candidates(table) for dd, p in ev.pairs(table, [d], b) if dd == d})
                if n:
                    how.append(fill(t, 'measured-' + kind, n=n))
        out.append((d, run.meta.get('device_' + d, [''])[0], '; '.join(how), True))
    if ev is not None:
        pairs = [k for b in ev.candidates(ev.iommu) for k in ev.pairs(ev.iommu, list(ev.devices), b)]
        for d in ev.devices:
            pts = [p for dd, p in pairs if dd == d]
            if d in run.devices or not pts:
                continue
            again = [p for p in pts if len(ev.iommu_repeat.get((d, p), {})) >= 2]
            runs = ('run twice' if len(again) == len(pts) else
                    f'{len(again)} run twice' if again else 'one run')
            out.append((d, ev.devices[d], fill(t, 'measured-iommu', n=len(pts), runs=runs), False))
        dma = [k for b in ev.dma_candidates() for k in ev.dma_sets(b)]
        for d in dict.fromkeys(d for d, _ in dma):
            if d in run.devices or d in [x[0] for x in out]:
                continue
            pts = {p for dd, p in dma if dd == d}
            out.append((d, ev.devices.get(d, d), fill(t, 'measured-dma', n=len(pts), sets=len(ev.dma)), False))
    return out


def headline(devices):
    """The device classes section of both reports' first screen: lines."""
    t = template('headline.md')
    rules = read_device_classes()
    L = [t['heading'], '', t['intro'], '', t['header'], '|---' * (t['header'].count('|') - 1) + '|']
    got = []
    for d, desc, how, fio in devices:
        cells = classify(desc, rules) or [t['not-classified'], '?', '?', '?', '?']
        got.append((d, cells, fio))
        L.append(row(d, *cells, how))
    L.append('')
    say = []
    sd = [d for d, c, _ in got if c[0].startswith('scsi_debug')]
    if sd:
        say.append(fill(t, 'scsi_debug-' + ('1' if len(sd) == 1 else '2' if len(sd) == 2 else 'n'), names=names(sd)))
    dma = [(d, fio) for d, c, fio in got if c[2].startswith('yes')]
    if not dma:
        say.append(t['dma-none'])
    for kind, sel in (('dma-fio', [d for d, fio in dma if fio]), ('dma-exact', [d for d, fio in dma if not fio])):
        if sel:
            one = len(sel) == 1
            say.append(fill(t, kind, names=names(sel), map='maps' if one else 'map', are='is' if one else 'are',
                            them='it' if one else 'them'))
    return L + [' '.join(say), '']
