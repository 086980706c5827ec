"""check_guest.py RUNDIR PREFIX [--seg-limit=N | --kunit-only] [SUITE...] - judge a guest test run.

RUNDIR is qemu/run.sh's output.  Prints one line per result,
"PREFIX/<name>\t<passed|failed|skipped>\t<why>": every KUnit case (from the
per-suite KTAP files the guest copied out of debugfs), a failure for every
SUITE that did not run, and every smoke check (tests/guest/smoke.sh's files;
not with --kunit-only, for a boot of another plan, such as the reliability
suite's on the debug kernel).

The smoke check whole-requests-<bs> wants every 1M and 4M write to reach
scsi_debug whole (256 and 1024 one-page segments).  --seg-limit=N says the
host may take at most N segments a command: a prefix of the sg_ring series
from the SCSI core's transition until scsi_debug opts in to rings, when
scsi_debug is an unconverted host and gets one array of at most
SG_RING_CHUNK_SIZE entries.  Then each request must be split into exactly
ceil(pages / N) commands, no more and no fewer."""
import glob
import os
import sys

from bench import fiojson  # noqa: E402
from bench import ktap  # noqa: E402

WORD = {'pass': 'passed', 'fail': 'failed', 'skip': 'skipped'}
SIZES = {'4k': 4096, '64k': 65536, '1M': 1 << 20, '4M': 4 << 20}
SMOKE_BYTES = 32 << 20


def emit(prefix, name, status, why=''):
    print(f'{prefix}/{name}\t{WORD.get(status, status)}\t{why}')


def kunit(out, prefix, want_suites):
    files = sorted(glob.glob(os.path.join(out, 'kunit', '*.ktap')))
    found = {os.path.basename(f)[:-5] for f in files}
    for suite in want_suites:
        if suite not in found:
            emit(prefix, f'kunit/{suite}', 'fail', f'suite {suite} did not run (not built in?)')
    for f in files:
        with open(f) as fh:
            cases, problems = ktap.cases(fh.read())
        for p in problems:
            emit(prefix, f'kunit/{os.path.basename(f)}', 'fail', p)
        for name, status, reason in cases:
            emit(prefix, f'kunit/{name}', status, reason)


def smoke(out, prefix, seg_limit=None):
    disk = os.path.join(out, 'smoke.disk')
    if not os.path.exists(disk):
        emit(prefix, 'smoke/scsi_debug-disk', 'fail', 'no scsi_debug disk appeared (see plan.log)')
        return
    emit(prefix, 'smoke/scsi_debug-disk', 'pass')
    for bs, size in SIZES.items():
        name = f'smoke/fio-verify-{bs}'
        path = os.path.join(out, f'fio-verify-{bs}.json')
        if not os.path.exists(path):
            emit(prefix, name, 'fail', f'{path} missing: fio did not run')
            continue
        try:
            doc = fiojson.load(path)
        except ValueError as e:
            emit(prefix, name, 'fail', str(e))
            continue
        errs = fiojson.verify_errors(doc)
        job = fiojson.jobs(doc)[0]
        if errs:
            emit(prefix, name, 'fail', f'fio error {errs[0][1]} (verify mismatch or I/O error)')
        elif job['write']['io_bytes'] != SMOKE_BYTES or job['read']['io_bytes'] != SMOKE_BYTES:
            emit(prefix, name, 'fail', f"wrote {job['write']['io_bytes']}, verified "
                 f"{job['read']['io_bytes']} bytes, expected {SMOKE_BYTES}")
        else:
            emit(prefix, name, 'pass', f'{SMOKE_BYTES >> 20} MiB written and verified')
        # requests must reach the driver whole: > 128 segments for 1M/4M
        try:
            with open(os.path.join(out, f'stat-{bs}')) as fh:
                v = [int(x) for x in fh.read().split()]
        except (OSError, ValueError):
            emit(prefix, f'smoke/whole-requests-{bs}', 'fail', 'no block stat recorded')
            continue
        wios, wsec = v[6] - v[2], v[7] - v[3]
        per = wsec * 512 // wios if wios else 0
        pages = size // 4096
        if seg_limit and pages > seg_limit:
            pieces = -(-pages // seg_limit)
            want = SMOKE_BYTES // size * pieces
            if wios == want and wsec * 512 == SMOKE_BYTES:
                emit(prefix, f'smoke/whole-requests-{bs}', 'pass',
                     f'{wios} writes: each {bs} request ({pages} segments) split into {pieces} '
                     f'at the host\'s limit of {seg_limit} segments')
            else:
                emit(prefix, f'smoke/whole-requests-{bs}', 'fail',
                     f'{wios} writes of {wsec * 512} bytes, expected {want} writes of {SMOKE_BYTES} '
                     f'(each {bs} request split into {pieces} at {seg_limit} segments)')
        elif per == size:
            emit(prefix, f'smoke/whole-requests-{bs}', 'pass',
                 f'{wios} writes of {per} bytes ({pages} segments each)')
        else:
            emit(prefix, f'smoke/whole-requests-{bs}', 'fail',
                 f'{wios} writes averaging {per} bytes, expected {size}: requests were split')


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = os.path.join(sys.argv[1], 'share', 'out')
    prefix = sys.argv[2]
    seg_limit = None
    kunit_only = False
    suites = []
    for a in sys.argv[3:]:
        if a == '--kunit-only':
            kunit_only = True
        elif a.startswith('--seg-limit='):
            try:
                seg_limit = int(a.split('=', 1)[1])
            except ValueError:
                sys.exit(f'check_guest.py: {a}: the limit must be a whole number of segments')
        else:
            suites.append(a)
    kunit(out, prefix, suites)
    if not kunit_only:
        smoke(out, prefix, seg_limit)


main()
