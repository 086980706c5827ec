"""Unit tests of the host side: python3 -m unittest discover -s tests/host -t .
(tests/run.sh) from the top of the tree."""
