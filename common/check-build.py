#!/usr/bin/python3
"""check-build.py - the analysis half of common/check-build.sh.

  check-build.py diag BUILD_LOG
      one line per compiler, objtool or make diagnostic of a kernel build
      log, "KIND<TAB>FILE<TAB>MESSAGE", normalised so that two trees compare:
      paths relative to the source tree, no line or column numbers, no code
      offsets.  KIND is warning or error (make's "*** [...] Error" lines are
      errors of the object they name).
  check-build.py compare OLD_DIAG NEW_DIAG
      the diagnostics NEW has more often than OLD (each printed once per
      extra occurrence); exit status 1 if there is any.
  check-build.py reason SRC CONFIG FILE.c...
      why each FILE.c (relative to SRC) got no object with CONFIG (a .config):
      the Makefile line that names its object and the value of every
      CONFIG_ option on it, climbing to the parent directory's Makefile
      when the object's own line is enabled.
  check-build.py configured SRC CONFIG FILE.c...
      the FILE.c whose object CONFIG builds, by the same Makefile chain (a
      single-object goal of kbuild is compiled whatever the config says).
"""
import collections
import os
import re
import sys

import kconfig  # noqa: E402

TOPDIRS = ('arch|block|certs|crypto|drivers|fs|include|init|io_uring|ipc|kernel|'
           'lib|mm|net|rust|samples|scripts|security|sound|tools|usr|virt')
GCC = re.compile(r'^(?P<path>[^\s:]+\.[chS]):\d+(?::\d+)?: (?P<kind>warning|error|fatal error): (?P<msg>.*)$')
OBJTOOL = re.compile(r'^(?P<path>[^\s:]+\.o): (?P<kind>warning|error): objtool: (?P<msg>.*)$')
MAKE_ERR = re.compile(r'^make\[\d+\]: \*\*\* \[[^\]]*: (?P<path>[^\]]+)\] Error \d+$')
TREE = re.compile(r'^(?:.*?/)?(?=(?:%s)/)' % TOPDIRS)


def rel(path):
    """A path as the source tree names it: drop ./, ../ and absolute prefixes."""
    return TREE.sub('', path, count=1)


def diag(log):
    out = []
    with open(log, errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            m = GCC.match(line) or OBJTOOL.match(line)
            if m:
                kind = 'error' if 'error' in m.group('kind') else 'warning'
                msg = re.sub(r'\+0x[0-9a-f]+', '', m.group('msg'))
                out.append(f'{kind}\t{rel(m.group("path"))}\t{msg}')
                continue
            m = MAKE_ERR.match(line)
            if m:
                out.append(f'error\t{rel(m.group("path"))}\tmake: the build of this target failed')
    return out


def read_diag(path):
    with open(path) as f:
        return collections.Counter(line.rstrip('\n') for line in f if line.strip())


def compare(old_path, new_path):
    old, new = read_diag(old_path), read_diag(new_path)
    extra = 0
    for key in sorted(new):
        for _ in range(new[key] - old.get(key, 0)):
            print(key)
            extra += 1
    return 1 if extra else 0


def makefile_line(src, directory, obj):
    """The first line of DIRECTORY's Makefile or Kbuild naming OBJ (joined
    across backslash continuations), or None."""
    for name in ('Kbuild', 'Makefile'):
        path = os.path.join(src, directory, name)
        if not os.path.exists(path):
            continue
        with open(path, errors='replace') as f:
            text = f.read().replace('\\\n', ' ')
        for line in text.splitlines():
            if line.lstrip().startswith('#'):
                continue
            if re.search(r'(^|[\s=])%s(\s|$)' % re.escape(obj), line):
                return f'{directory}/{name}: {" ".join(line.split())}'
    return None


def options(line, config):
    opts = sorted(set(re.findall(r'CONFIG_[A-Za-z0-9_]+', line)))
    return [(o, config.get(o, 'n')) for o in opts]


def reason(src, config, cfile):
    """(enabled, why): whether CONFIG builds FILE's object, and the chain of
    Makefile lines (with their options' values) that says so."""
    directory, base = os.path.split(cfile)
    obj = base[:-2] + '.o'
    why = []
    for _ in range(8):
        line = makefile_line(src, directory, obj)
        if line is None:
            if obj.endswith('/'):
                why.append(f'{directory}/Makefile does not descend into {obj}')
            else:
                why.append(f'no Makefile line of {directory}/ names {obj} '
                           '(a file another one #includes, or not built on any config)')
            return False, ' <- '.join(why)
        opts = options(line, config)
        why.append(line + (' [' + ', '.join(f'{o}={v}' for o, v in opts) + ']' if opts else ''))
        off = [o for o, v in opts if v not in ('y', 'm')]
        if off:
            return False, ' <- '.join(why)
        # a composite object's part (foo-y += x.o, foo-objs := x.o): follow foo.o
        body = line.split(': ', 1)[1]
        m = re.match(r'([A-Za-z0-9_.-]+?)-(?:y|m|objs|\$\(CONFIG_[A-Za-z0-9_]+\))\s*[:+]?=', body)
        if m and m.group(1) != 'obj' and m.group(1) + '.o' != obj:
            obj = m.group(1) + '.o'
            continue
        # the object is enabled here: is the directory reached from its parent?
        if not directory or '/' not in directory:
            break
        directory, sub = os.path.split(directory)
        obj = sub + '/'
    return True, ' <- '.join(why)


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == 'diag':
        for line in diag(args[1]):
            print(line)
        return 0
    if len(args) == 3 and args[0] == 'compare':
        return compare(args[1], args[2])
    if len(args) >= 4 and args[0] in ('reason', 'configured'):
        config = kconfig.read(args[2])
        for cfile in args[3:]:
            enabled, why = reason(args[1], config, cfile)
            if args[0] == 'reason':
                print(f'{cfile}\t{why}')
            elif enabled:
                print(cfile)
        return 0
    sys.exit(__doc__)


sys.exit(main())
