"""Host-side test that every relative link in README.md and docs/*.md
resolves: the file or directory it names exists in the tree, and an
anchor into a Markdown file names one of that file's headings (GitHub's
rule: lower case, punctuation other than '-' and '_' dropped, spaces to
'-').  The README was split into docs/, whose pages link one level up
(../results/..., ../README.md); a link left as results/... from docs/
would break silently."""
import glob
import os
import re
import unittest

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

# [text](target) outside code spans; an image's ![alt](target) alike
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
CODE_SPAN = re.compile(r'`[^`]*`')
HEADING = re.compile(r'^#{1,6}\s+(.*?)\s*#*\s*$')


def pages():
    return [os.path.join(TOP, 'README.md')] + sorted(glob.glob(os.path.join(TOP, 'docs', '*.md')))


def slug(heading):
    s = heading.strip().lower().replace('`', '')
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(path):
    out = set()
    in_fence = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                in_fence = not in_fence
            m = None if in_fence else HEADING.match(line)
            if m:
                out.add(slug(m.group(1)))
    return out


def links(path):
    """(line number, target) of every link of a page, code blocks and
    code spans left out."""
    out = []
    in_fence = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.startswith('```'):
                in_fence = not in_fence
            if in_fence or line.startswith('    '):
                continue
            for m in LINK.finditer(CODE_SPAN.sub('', line)):
                out.append((n, m.group(1)))
    return out


def broken(path):
    bad = []
    for n, target in links(path):
        if re.match(r'^[a-z][a-z0-9+.-]*:', target):  # http:, mailto: ...
            continue
        file, _, anchor = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        where = '%s:%d: %s' % (os.path.relpath(path, TOP), n, target)
        if not os.path.exists(dest):
            bad.append(where + ' (no such file)')
        elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
            bad.append(where + ' (no such heading)')
    return bad


class DocLinks(unittest.TestCase):
    def test_every_relative_link_resolves(self):
        bad = []
        for p in pages():
            bad += broken(p)
        self.assertEqual(bad, [], 'broken links:\n' + '\n'.join(bad))

    def test_pages_have_links(self):
        # the check reads something: the README links the docs pages
        self.assertGreater(len(pages()), 1)
        targets = [t for _, t in links(os.path.join(TOP, 'README.md'))]
        self.assertIn('docs/tests.md', targets)

    def test_the_check_catches_a_broken_link(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, 'docs'))
            page = os.path.join(d, 'docs', 'x.md')
            with open(os.path.join(d, 'README.md'), 'w') as f:
                f.write('# Top\n')
            with open(page, 'w') as f:
                f.write('# A page\n[ok](../README.md#top) [ok](#a-page) `[code](nowhere)`\n'
                        '[bad](results/x.md) [bad](../README.md#nope)\n')
            self.assertEqual([b.split(': ', 1)[1] for b in broken(page)],
                             ['results/x.md (no such file)', '../README.md#nope (no such heading)'])


if __name__ == '__main__':
    unittest.main()
