"""Read kernel .config files and config fragments."""
import re

_SET = re.compile(r'^(CONFIG_[A-Za-z0-9_]+)=(.*)$')
_UNSET = re.compile(r'^# (CONFIG_[A-Za-z0-9_]+) is not set$')


def read(path):
    """Return {option: value} of a .config or fragment; unset options are 'n'."""
    opts = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            m = _SET.match(line)
            if m:
                opts[m.group(1)] = m.group(2)
                continue
            m = _UNSET.match(line)
            if m:
                opts[m.group(1)] = 'n'
    return opts
