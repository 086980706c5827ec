"""Markdown table cells as report.py and decision.py write them.

GitHub-flavoured Markdown splits a table row at every '|' that is not
escaped, inside code spans too, and a row with more cells than its header
loses the extra ones (DECISION.md's IOMMU row lost its link that way).  A
cell whose text comes from data or is composed of parts goes through
cell(); a row of such cells through row()."""
import re


def cell(x):
    """X as the text of one table cell: on one line, every '|' escaped."""
    return re.sub(r'(?<!\\)\|', r'\\|', str(x).replace('\n', ' '))


def row(*cells):
    """One table row of CELLS, each escaped by cell()."""
    return '| ' + ' | '.join(cell(c) for c in cells) + ' |'
