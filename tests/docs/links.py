#!/usr/bin/env python3
"""Checks the links of Markdown files: every relative link names a file
that exists, and every #anchor a heading of that file (as GitHub makes
anchors: lower case, punctuation but '-' and '_' dropped, spaces as '-').
Prints each broken link as FILE:LINE: LINK; exits 1 if there is any.
usage: links.py FILE.md...   (links in a list after a line "More:" are
pages other branches bring, and only reported when --all is given)"""
import os
import re
import sys

LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')


def anchors(path):
    found, code = set(), False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            code = not code
        m = re.match(r'^#+ (.*)$', line)
        if m and not code:
            slug = re.sub(r'[^\w\- ]', '', m.group(1).strip().lower())
            found.add(slug.replace(' ', '-'))
    return found


def check(path, strict):
    bad, code, more = [], False, False
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        if line.startswith('```'):
            code = not code
        if code:
            continue
        if line.strip() == 'More:':
            more = True
        elif more and line.strip() and not line.startswith('- '):
            more = False
        for target in LINK.findall(line):
            if re.match(r'^[a-z]+:', target):
                continue
            file, _, anchor = target.partition('#')
            full = os.path.normpath(os.path.join(os.path.dirname(path), file)) \
                if file else path
            if not os.path.exists(full):
                if strict or not more:
                    bad.append('%s:%d: %s (no such file)' % (path, n, target))
                continue
            if anchor and full.endswith('.md') and anchor not in anchors(full):
                bad.append('%s:%d: %s (no such heading)' % (path, n, target))
    return bad


if __name__ == '__main__':
    args = sys.argv[1:]
    strict = '--all' in args
    bad = [b for f in args if f != '--all' for b in check(f, strict)]
    print('\n'.join(bad))
    sys.exit(1 if bad else 0)
