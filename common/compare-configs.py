#!/usr/bin/python3
"""compare-configs.py A.config A-fragment B.config B-fragment

Fail on any difference between two variants' final .config files that
neither variant's own fragment declares (a fragment path may be '-' for a
variant without one).  This is what keeps the fight fair: the kernels differ
only by their series and declared options."""
import sys
import kconfig

def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    a, afrag, b, bfrag = sys.argv[1:]
    ca, cb = kconfig.read(a), kconfig.read(b)
    declared = set()
    for frag in (afrag, bfrag):
        if frag != '-':
            declared |= set(kconfig.read(frag))
    diffs = []
    for opt in sorted(set(ca) | set(cb)):
        va, vb = ca.get(opt, 'n'), cb.get(opt, 'n')
        if va != vb and opt not in declared:
            diffs.append(f'{opt}: {va} in {a}, {vb} in {b}')
    for d in diffs:
        print('undeclared config difference: ' + d, file=sys.stderr)
    if diffs:
        print(f'{len(diffs)} undeclared difference(s): declare them in a variant '
              'config fragment or remove their cause', file=sys.stderr)
    sys.exit(1 if diffs else 0)

main()
