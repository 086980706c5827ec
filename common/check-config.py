#!/usr/bin/python3
"""check-config.py [--tree SRC] CONFIG FRAGMENT... - fail unless CONFIG has
every option the fragments set (kconfig silently drops an option whose
dependencies are missing; this names it).  Where two fragments set one
option, the later one is what is asked for, as merge_config.sh applies them
(bench/os.config turns distro.config's -O2 into -Os).  With --tree, an
option that no Kconfig file of the kernel tree SRC defines (a prefix of a
series that adds it later) is named as such and not counted."""
import os
import re
import sys
import kconfig


def defined(src):
    """The config symbols the Kconfig files of tree SRC define."""
    names = set()
    for root, _, files in os.walk(src):
        for f in files:
            if f.startswith('Kconfig'):
                with open(os.path.join(root, f), errors='replace') as fh:
                    names.update(re.findall(r'^\s*(?:menu)?config\s+([A-Za-z0-9_]+)', fh.read(), re.M))
    return names


def main():
    args = sys.argv[1:]
    known = None
    if args[:1] == ['--tree'] and len(args) > 1:
        known = defined(args[1])
        args = args[2:]
    if len(args) < 2:
        sys.exit('usage: check-config.py [--tree SRC] .config fragment...')
    have = kconfig.read(args[0])
    wanted = {}     # option -> (value, the last fragment that sets it)
    for frag in args[1:]:
        for opt, want in kconfig.read(frag).items():
            wanted[opt] = (want, frag)
    bad = 0
    for opt, (want, frag) in wanted.items():
        got = have.get(opt, 'n')
        if got != want and known is not None and opt[len('CONFIG_'):] not in known:
            print(f'{frag}: {opt}={want} requested; this tree does not define it yet (not counted)',
                  file=sys.stderr)
        elif got != want:
            print(f'{frag}: {opt}={want} requested, .config has {opt}={got} '
                  '(a dependency is missing: see the Kconfig entry)', file=sys.stderr)
            bad += 1
    sys.exit(1 if bad else 0)

main()
