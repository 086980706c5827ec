"""sgbench's host-side analysis, one package: run its commands from the top
of the tree as python3 -m bench.<module> (bench.report, bench.decision,
bench.attrib); its modules import each other as bench.<module>.  The shell
scripts beside them (run.sh, attrib.sh, guest.sh) are the rig."""
