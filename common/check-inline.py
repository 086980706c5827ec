#!/usr/bin/python3
"""check-inline.py - no function is out of line in one kernel and inline in another.

usage: common/check-inline.py [--accepted FILE] [--build DIR] VARIANT...
(DIR/<v>/src, a git work tree, and DIR/<v>/obj of each must exist;
DIR defaults to build/)

A fair comparison needs the compiler to have made the same inlining
decisions in every kernel for the code they share.  This reads the text
symbols of every object under the directories the series touch
(OBJ_DIRS) with nm, and for each function that is out of line in one
kernel and has no symbol in another, looks for its definition in the
other kernel's source (the object's .c file, the headers beside it and
include/).  Defined there but without a symbol means the compiler
inlined it in that kernel only: a difference between the kernels that
no design asked for.  A function the other tree does not define is a
difference of design and is not reported.  FILE (default
common/inline.accepted) lists the differences a design does require,
one per line: "<function> <reason>"; a listed function that no longer
differs is reported too, so the list cannot go stale.

Compiler clones (foo.isra.0, foo.constprop.0, foo.part.0, foo.cold)
count as foo being out of line.  Prints one line per difference and
exits 1 when there is any that is not accepted.
"""
import argparse
import os
import re
import subprocess
import sys

OBJ_DIRS = ('block', 'lib', 'drivers/scsi', 'kernel/dma', 'drivers/iommu')
CLONE = re.compile(r'\.(isra|constprop|part|cold|localalias|lto_priv)(\.\d+)?')


def base_name(sym):
    """The function a (possibly cloned) text symbol belongs to."""
    return CLONE.sub('', sym)


def parse_nm(text, obj_root):
    """{function: {object, ...}} of the text symbols in `nm -A` output."""
    funcs = {}
    for line in text.splitlines():
        # "<path>.o:<value> <type> <name>" (value blank for none)
        m = re.match(r'^(.*?\.o):\s*[0-9a-fA-F]*\s+([tTwW])\s+(\S+)$', line)
        if not m:
            continue
        path, name = m.group(1), base_name(m.group(3))
        if name.startswith(('__pfx_', '__cfi_', '__UNIQUE_ID', '__export_symbol', '__ksymtab')):
            continue
        funcs.setdefault(name, set()).add(os.path.relpath(path, obj_root))
    return funcs


def objects(obj):
    out = []
    for d in OBJ_DIRS:
        for root, _dirs, files in os.walk(os.path.join(obj, d)):
            for f in files:
                if f.endswith('.o') and not f.endswith(('.mod.o', '.prelink.o')) and \
                        not f.startswith(('.', 'built-in')):
                    out.append(os.path.join(root, f))
    return sorted(out)


def text_symbols(obj):
    objs = objects(obj)
    if not objs:
        sys.exit(f'check-inline: no objects under {obj} ({", ".join(OBJ_DIRS)}): build the kernel first')
    r = subprocess.run(['nm', '-A', '--defined-only'] + objs, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f'check-inline: nm failed on {obj}: {r.stderr.strip()[:400]}')
    return parse_nm(r.stdout, obj)


def definition_re(name):
    # a definition starts at column 0 (kernel style): "static int name(" or
    # "name(" after a return type line; prototypes end in ';'
    return re.compile(r'^(?:[A-Za-z_][^;=]*[\s*])?' + re.escape(name) + r'\s*\([^;]*$')


def defined_in(src, name, objpaths):
    """Whether the tree at src defines function name in an object's source."""
    paths = {'include'}
    for o in objpaths:
        c = os.path.splitext(o)[0] + '.c'
        if os.path.exists(os.path.join(src, c)):
            paths.add(c)
        d = os.path.dirname(o)
        for f in os.listdir(os.path.join(src, d)) if os.path.isdir(os.path.join(src, d)) else ():
            if f.endswith('.h'):
                paths.add(os.path.join(d, f))
    r = subprocess.run(['git', '-C', src, 'grep', '-h', '-w', '-e', name, '--', *sorted(paths)],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f'check-inline: git grep failed in {src}: {r.stderr.strip()}')
    pat = definition_re(name)
    return any(pat.match(line) for line in r.stdout.splitlines())


def read_accepted(path):
    acc = {}
    if not os.path.exists(path):
        return acc
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                sys.exit(f'check-inline: {path}:{n}: "<function> <reason>" expected, got "{line}"')
            acc[parts[0]] = parts[1]
    return acc


def differences(kernels):
    """[(function, out-of-line in, inline in, objects)] over kernel pairs."""
    diffs = []
    for a, (_src_a, syms_a) in kernels.items():
        for b, (src_b, syms_b) in kernels.items():
            if a == b:
                continue
            for name in sorted(set(syms_a) - set(syms_b)):
                if defined_in(src_b, name, syms_a[name]):
                    diffs.append((name, a, b, sorted(syms_a[name])))
    return diffs


def main(argv):
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description='No function is out of line in one kernel '
                                 'and inline in another (see the module docstring).')
    ap.add_argument('--accepted', default=os.path.join(top, 'common', 'inline.accepted'),
                    help='the differences a design requires: "<function> <reason>" per line')
    ap.add_argument('--build', default=os.path.join(top, 'build'),
                    help='the directory holding <variant>/src and <variant>/obj')
    ap.add_argument('variants', nargs='+', metavar='VARIANT')
    args = ap.parse_args(argv)
    if len(args.variants) < 2:
        ap.error('name at least two variants to compare')
    accepted_path = args.accepted
    kernels = {}
    for v in args.variants:
        src, obj = os.path.join(args.build, v, 'src'), os.path.join(args.build, v, 'obj')
        if not os.path.isdir(src) or not os.path.isdir(obj):
            sys.exit(f'check-inline: no {src} or {obj}: run common/build.sh {v}')
        kernels[v] = (src, text_symbols(obj))
    accepted = read_accepted(accepted_path)
    bad = 0
    seen = set()
    for name, a, b, objs in differences(kernels):
        seen.add(name)
        tag = 'accepted' if name in accepted else 'DIFFERS'
        bad += name not in accepted
        print(f'{tag}: {name}() is out of line in {a} ({", ".join(objs)}) and inline in {b}'
              + (f': {accepted[name]}' if name in accepted else ''))
    for name in sorted(set(accepted) - seen):
        bad += 1
        print(f'STALE: {name}() is listed in {accepted_path} but no longer differs')
    n = sum(len(s) for _src, s in kernels.values())
    print(f'check-inline: {bad} unaccepted difference(s) among {n} out-of-line functions of '
          f'{", ".join(kernels)} under {", ".join(OBJ_DIRS)}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
