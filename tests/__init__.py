"""The project's tests: tests/host/ (unit tests, run by tests/run.sh) and
the host-side checks of guest runs (check_guest, bench_same, bench_inflight),
run as python3 -m tests.<name> from the top of the tree."""
