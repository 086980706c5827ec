"""decision.py collect: the evidence of the decision report gathered from
the trees (the series applied in a private repository borrowing
build/git's objects), the tools and the built kernel, into
RUN/raw/decision/."""
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

from bench.decision_lib import die, run, write_atomic
from bench.decision_parse import (ctags_json, parse_defines, parse_groups, parse_pmccabe,
    parse_tablesize)
from bench import variants
from bench.decision_rules import (ACCESSORS, ACCESSOR_DEF, PROBE, SURFACE_HEADERS, TABLESIZE_RX,
    TOP, design)


def run_cocci(trees, tree, tmp, cocci, name, groups=None):
    """The semantic patch COCCI (rule, groups file: a design's cocci record)
    over TREE (of the design NAME), one spatch per driver group (those of
    the groups file unless GROUPS is given): its diff."""
    rule, groups_file = cocci
    if groups is None:
        with open(groups_file) as f:
            groups = parse_groups(f.read())
    work = os.path.join(tmp, 'cocci-' + tree[:12])
    out = []
    for group in groups:
        for path in group:
            text = trees.show(tree, path)
            if not text:
                die(f'{path} of {os.path.relpath(groups_file, TOP)} is not in the {name} tree: '
                    'update the groups to the base')
            local = os.path.join(work, path)
            os.makedirs(os.path.dirname(local), exist_ok=True)
            with open(local, 'w') as f:
                f.write(text)
        out.append(run(['spatch', '--very-quiet', '--sp-file', rule, '-D', 'patch'] + group,
                       cwd=work))
    return ''.join(out)


def series_hash(variant):
    return run(['bash', '-c', f'top="{TOP}"; . "$top/common/lib.sh"; series_hash "$1"', '-', variant]).strip()


def run_info(rundir, variant):
    """series_sha256, series_commit, config_sha256 of the kernel the run booted."""
    for path in sorted(glob.glob(os.path.join(rundir, 'raw', '*', variant, 'r*', 'run.info'))):
        info = {}
        with open(path) as f:
            for line in f:
                k, _, v = line.rstrip('\n').partition(' ')
                info.setdefault(k, v)
        return info
    return {}


class Trees:
    """The series applied to the base in a private bare repository whose
    objects borrow from build/git (nothing is written there)."""

    def __init__(self, tmp):
        self.git_dir = os.environ.get('SGB_BUILD_GIT', os.path.join(TOP, 'build', 'git'))
        if not os.path.isdir(os.path.join(self.git_dir, '.git', 'objects')) and \
                not os.path.isdir(os.path.join(self.git_dir, 'objects')):
            die(f'no kernel tree repository at {self.git_dir}: run "make base" '
                '(or set SGB_BUILD_GIT to an existing build/git)')
        objs = os.path.join(self.git_dir, '.git', 'objects')
        if not os.path.isdir(objs):
            objs = os.path.join(self.git_dir, 'objects')
        self.repo = os.path.join(tmp, 'repo.git')
        run(['git', 'init', '-q', '--bare', self.repo])
        with open(os.path.join(self.repo, 'objects', 'info', 'alternates'), 'w') as f:
            f.write(objs + '\n')
        self.base = run(['git', '-C', self.git_dir, 'rev-parse', 'base^{commit}']).strip()
        self.tmp = tmp

    def git(self, *args, index=None, check=True):
        env = dict(os.environ, GIT_DIR=self.repo)
        if index:
            env['GIT_INDEX_FILE'] = index
        return run(['git'] + list(args), env=env, check=check)

    def apply(self, variant):
        index = os.path.join(self.tmp, f'index-{variant}')
        self.git('read-tree', self.base, index=index)
        for series in (os.path.join(TOP, 'common', 'series'),
                       os.path.join(TOP, 'variants', variant, 'series')):
            if not os.path.exists(series):
                continue
            with open(series) as f:
                names = [ln.split()[0] for ln in f if ln.strip() and not ln.startswith('#')]
            for name in names:
                patch = os.path.join(os.path.dirname(series), name)
                env = dict(os.environ, GIT_DIR=self.repo, GIT_INDEX_FILE=index)
                p = subprocess.run(['git', 'apply', '--cached', '--whitespace=nowarn', patch],
                                   env=env, stderr=subprocess.PIPE, text=True)
                if p.returncode:
                    die(f'{os.path.relpath(patch, TOP)} does not apply to the base: {p.stderr.strip()[:400]}')
        return self.git('write-tree', index=index).strip()

    def grep(self, tree, *args):
        """git grep over TREE, its output without the leading '<tree>:'."""
        out = self.git('grep', *args[:-1], tree, '--', *args[-1], check=False)
        return re.sub(r'^%s:' % tree, '', out, flags=re.M)

    def show(self, tree, path):
        return self.git('show', f'{tree}:{path}', check=False)


def pick_obj(variant, want_config):
    """A configured build directory of VARIANT whose .config is the one the
    run booted (its generated headers and flags are used)."""
    cands = [os.path.join(TOP, 'build', variant, 'obj'),
             os.path.join(os.path.dirname(os.environ.get('SGB_BUILD_GIT', os.path.join(TOP, 'build', 'git'))),
                          variant, 'obj')]
    seen = []
    for obj in cands:
        cfg = os.path.join(obj, '.config')
        cmd = os.path.join(obj, 'drivers', 'scsi', '.scsi_lib.o.cmd')
        if not (os.path.exists(cfg) and os.path.exists(cmd)):
            continue
        got = run(['sha256sum', cfg]).split()[0]
        if want_config and got != want_config:
            seen.append(f'{obj} (config {got[:12]})')
            continue
        return obj, got
    die(f'no built {variant} kernel with the run\'s .config (sha256 {want_config[:12]}) '
        f'[{", ".join(seen) or "none built"}]: run "make build" first')


def probe_sizes(trees, tree, variant, obj, tmp):
    """Compile scsi_lib.c of TREE plus DEFINE()s of the sizes with the
    kernel's own command line for scsi_lib.o (from OBJ's .cmd file),
    sources from TREE, generated headers from OBJ; read the values back
    from the assembler output (the asm-offsets mechanism)."""
    src = os.path.join(tmp, f'src-{variant}')
    os.makedirs(src)
    arch = subprocess.Popen(['git', 'archive', tree, 'include', 'arch/x86/include', 'drivers/scsi'],
                            env=dict(os.environ, GIT_DIR=trees.repo), stdout=subprocess.PIPE)
    subprocess.run(['tar', '-x', '-C', src], stdin=arch.stdout, check=True)
    if arch.wait():
        die(f'git archive of the {variant} tree failed')
    with open(os.path.join(obj, 'drivers', 'scsi', '.scsi_lib.o.cmd')) as f:
        line = f.readline()
    m = re.match(r'cmd_drivers/scsi/scsi_lib\.o := (.*?)\s*;', line)
    if not m:
        die(f'{obj}/drivers/scsi/.scsi_lib.o.cmd has no compiler command line: rebuild with make build')
    cmd = m.group(1)
    m = re.search(r' -c -o drivers/scsi/scsi_lib\.o (\S+)/drivers/scsi/scsi_lib\.c$', cmd)
    if not m:
        die(f'unexpected command line in {obj}/drivers/scsi/.scsi_lib.o.cmd')
    old = m.group(1)
    probe = os.path.join(tmp, f'probe-{variant}.c')
    with open(probe, 'w') as f:
        f.write(PROBE % {'src': src})
    out = os.path.join(tmp, f'probe-{variant}.s')
    cmd = cmd[:m.start()] + f' -S -o {out} {probe}'
    cmd = re.sub(r'^ccache ', '', cmd)
    cmd = cmd.replace('-Wp,-MMD,drivers/scsi/.scsi_lib.o.d', f'-Wp,-MMD,{tmp}/probe-{variant}.d')
    cmd = cmd.replace(old + '/', src + '/')
    p = subprocess.run(cmd, shell=True, cwd=obj, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        die(f'the size probe did not compile for {variant}: {p.stderr.strip()[-800:]}')
    with open(out) as f:
        vals = re.findall(r'"->(\w+) \$?(-?\d+) ', f.read())
    if not vals:
        die(f'no DEFINE() values in {out}')
    return ''.join(f'{k} {v}\n' for k, v in vals)


def run_variants(rundir):
    """The run's variants, the control first (meta.txt variants)."""
    meta = os.path.join(rundir, 'meta.txt')
    names = []
    if os.path.exists(meta):
        with open(meta) as f:
            for line in f:
                if line.startswith('variants '):
                    names = line.split()[1:]
    if len(names) < 2:
        die(f'{meta} names {len(names)} variants: a decision report compares the control with at least one candidate')
    return variants.ordered(names)


def check_series(rundir):
    """Refuse a run that was measured with another series than variants/."""
    for v in run_variants(rundir):
        h = series_hash(v)
        ri = run_info(rundir, v)
        if ri.get('series_sha256') and ri['series_sha256'] != h:
            die(f'{rundir} was measured with another {v} series (sha256 {ri["series_sha256"][:12]}, '
                f'variants/ has {h[:12]}): check out the commit that made the run, or make a new run')


def collect(rundir):
    check_series(rundir)
    for tool in ('git', 'pmccabe', 'ctags', 'gcc', 'spatch'):
        if not shutil.which(tool):
            die(f'{tool} is missing: run make deps (common/deps.sh installs it)')
    if 'Universal Ctags' not in run(['ctags', '--version']):
        die('ctags is not Universal Ctags: install universal-ctags (make deps)')
    out = os.path.join(rundir, 'raw', 'decision')
    tmp = tempfile.mkdtemp(prefix='sgb-decision-')
    try:
        trees = Trees(tmp)
        files = {}
        info_lines = [f'base {trees.base}']
        tree_of = {'base': run(['git', '-C', trees.git_dir, 'rev-parse', 'base^{tree}']).strip()}
        names = run_variants(rundir)
        control, cands = names[0], names[1:]
        for v in names:
            h = series_hash(v)
            ri = run_info(rundir, v)
            tree = trees.apply(v)
            tree_of[v] = tree
            match = 'not recorded'
            if ri.get('series_commit'):
                t = trees.git('rev-parse', ri['series_commit'] + '^{tree}', check=False).strip()
                match = 'same tree' if t == tree else (f'DIFFERENT tree {t[:12]}' if t else 'commit not in build/git')
                if t and t != tree:
                    die(f'the {v} series applied to the base gives tree {tree[:12]}, but the run booted '
                        f'{ri["series_commit"][:12]} (tree {t[:12]})')
            obj, cfg = pick_obj(v, ri.get('config_sha256', ''))
            info_lines.append(f'{v} tree {tree} series_sha256 {h} run_commit {match} obj {os.path.relpath(os.path.abspath(obj), TOP)} (generated headers and flags) '
                              f'config_sha256 {cfg}')
            files[f'sizes-{v}.txt'] = probe_sizes(trees, tree, v, obj, tmp)
            files[f'numstat-{v}.txt'] = trees.git('diff', '--numstat', tree_of['base'], tree)
        # complexity: pmccabe over each file, kept for the compared functions;
        # the function text kept too (the API calls are counted from it)
        for v, tree, roles in [('base', tree_of[control], design(control)['roles'])] + \
                [(o, tree_of[o], design(o)['roles']) for o in cands]:
            pm, bodies = [], []
            wanted = {x for fns in roles.values() for x in fns}
            for path in sorted({p for p, _ in wanted}):
                text = trees.show(tree, path)
                local = os.path.join(tmp, v, path)
                os.makedirs(os.path.dirname(local), exist_ok=True)
                with open(local, 'w') as f:
                    f.write(text)
                res = run(['pmccabe', local], check=False)
                got = parse_pmccabe(res)
                lines = text.splitlines()
                for p, fn in sorted(x for x in wanted if x[0] == path):
                    if fn not in got:
                        die(f'pmccabe found no function {fn} in {path} of the {v} tree: update '
                            f'variants/{control if v == "base" else v}/decision.tsv')
                    mod, trad, st, first, n = got[fn]
                    pm.append(f'{mod}\t{trad}\t{st}\t{first}\t{n}\t{path}\t{fn}\n')
                    bodies.append(f'@@ {path} {fn}\n' + '\n'.join(lines[first - 1:first - 1 + n]) + '\n')
            files[f'pmccabe-{v}.tsv'] = ''.join(pm)
            files[f'functions-{v}.c'] = ''.join(bodies)
        # surface: ctags of the API headers in both trees, JSON lines with
        # each record's path the header's path in the tree
        own = sorted({design(v)['header'] for v in names})
        for v, tree in [('base', tree_of[control])] + [(o, tree_of[o]) for o in cands]:
            tags = []
            for h in own + SURFACE_HEADERS:
                text = trees.show(tree, h)
                if not text:
                    continue
                local = os.path.join(tmp, 'ctags-' + v, h)
                os.makedirs(os.path.dirname(local), exist_ok=True)
                with open(local, 'w') as f:
                    f.write(text)
                res = run(['ctags', '--output-format=json', '--kinds-C=dfmpstuv', '-o', '-', local])
                recs = []
                for r in ctags_json(res):
                    r['path'] = h
                    # anonymous structs are named by a hash of the (temporary) file name
                    for k in ('name', 'scope'):
                        if k in r:
                            r[k] = re.sub(r'__anon[0-9a-f]+', '__anon', r[k])
                    recs.append(json.dumps(r, sort_keys=True) + '\n')
                tags += sorted(recs)
            files[f'ctags-{v}.json'] = ''.join(tags)
        # conversion cost: the changed accessors over the whole tree, before and after
        rx = '|'.join(ACCESSORS)
        for v, tree in [('base', tree_of[control])] + [(o, tree_of[o]) for o in cands]:
            files[f'accessors-{v}.txt'] = trees.grep(tree, '-n', '-o', '-w', '-E', rx,
                                                     ['*.c', '*.h', f':!{ACCESSOR_DEF}'])
        # the mechanical part of the conversion, done by a design's semantic
        # patch on its tree (not applied to the series: see the report), and
        # what it would have done of the series' own hand conversions
        for o in cands:
            d = design(o)
            if not d['cocci']:
                continue
            files[f'cocci-{o}.diff'] = run_cocci(trees, tree_of[o], tmp, d['cocci'], o)
            with open(d['cocci'][1]) as f:
                files[f'cocci-groups-{o}.txt'] = f.read()
            files[f'cocci-hand-{o}.diff'] = run_cocci(trees, tree_of['base'], tmp, d['cocci'], 'base',
                                                       [[x] for x in d['drivers']])
        ts = trees.grep(tree_of['base'], '-n', '-E', TABLESIZE_RX, ['*.c', '*.h'])
        files['sg_tablesize-base.txt'] = ts
        names = set()
        for _, path, val in parse_tablesize(ts):
            names |= set(re.findall(r'\b[A-Z_][A-Z0-9_]*\b', val))
        for _ in range(3):  # macros defined in terms of other macros
            if not names:
                break
            # fixed strings are fast; keep the #define and enum-constant lines
            pats = [x for n in sorted(names) for x in ('-e', n)]
            d = trees.grep(tree_of['base'], '-n', '-w', '-F', *pats, ['*.c', '*.h'])
            want = re.compile(r'^[^:]*:\d+:\s*(#\s*define\s+(%s)\b|(%s)\s*=[^=])'
                              % (('|'.join(sorted(names)),) * 2))
            d = ''.join(ln + '\n' for ln in d.splitlines() if want.match(ln))
            files['sg_tablesize-defines-base.txt'] = d
            new = set()
            for vals in parse_defines(d).values():
                for _, val in vals:
                    new |= set(re.findall(r'\b[A-Z_][A-Z0-9_]*\b', val))
            if new <= names:
                break
            names |= new
        files['trees.txt'] = '\n'.join(info_lines) + '\n'
        for name, text in files.items():
            write_atomic(os.path.join(out, name), text)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f'decision: raw evidence in {out}')
