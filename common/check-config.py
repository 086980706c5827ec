#!/usr/bin/python3
"""check-config.py CONFIG FRAGMENT... - fail unless CONFIG has every option
the fragments set (kconfig silently drops an option whose dependencies are
missing; this names it)."""
import sys
import kconfig

def main():
    if len(sys.argv) < 3:
        sys.exit('usage: check-config.py .config fragment...')
    have = kconfig.read(sys.argv[1])
    bad = 0
    for frag in sys.argv[2:]:
        for opt, want in kconfig.read(frag).items():
            got = have.get(opt, 'n')
            if got != want:
                print(f'{frag}: {opt}={want} requested, .config has {opt}={got} '
                      '(a dependency is missing: see the Kconfig entry)', file=sys.stderr)
                bad += 1
    sys.exit(1 if bad else 0)

main()
