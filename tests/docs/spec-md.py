#!/usr/bin/env python3
"""doc/spec.md from doc/man/padpack-spec.5.scd: the same text in Markdown,
each section's settings as a table.
usage: spec-md.py doc/man/padpack-spec.5.scd > doc/spec.md"""
import re
import sys

S = open(sys.argv[1]).read().split('\n')
def inl(t):
    t = re.sub(r'(?<!\\)\*(.+?)(?<!\\)\*', lambda m: '`' + m.group(1).replace('\\_', '_').replace('\\*', '*') + '`', t)
    t = re.sub(r'(?<![\w\\])_(.+?)(?<!\\)_(?!\w)', r'*\1*', t)
    t = t.replace('\\_', '_').replace('\\*', '*').replace('|', '\\|')
    return t


def ind(l):
    return len(l) - len(l.lstrip('\t'))

out = ['# The spec', '',
       'A spec is a libconfig file that names a project, its variants and how',
       'padpack builds, splits and images it. This page is a Markdown copy of',
       '[padpack-spec(5)](man/padpack-spec.5.scd) (`man padpack-spec`), the',
       'reference; `tests/run.sh docs` checks that both name every setting the',
       'schema (`src/lib/spec_schema.c`) knows. `pkg/paddle.cfg` documents every',
       'setting in its comments.', '',
       '## How do I', '',
       '| to | set |',
       '|---|---|',
       '| start a spec for a project of my own | `padpack split --stage DIR --name NAME --version V --scaffold NAME.cfg` writes one |',
       '| add a CPU variant (AVX-512) | a value of an axis, with its `cmake`, `cflags`, `isa`, `isa_require` ([example](#examples)) |',
       '| add an axis (one build per Python version) | an entry of `axes` ([example](#examples)) |',
       '| name the packages of a variant | `axes[].values[].suffix` |',
       '| build with make, autotools, meson or my own commands | `build.system` |',
       '| start from dpkg-buildflags | `build.buildflags = true` |',
       '| skip a variant where its toolkit is missing | `axes[].values[].needs` |',
       '| move files to another package, or drop them | `packages.files` ([example](#examples)) |',
       '| override a control field, add a maintainer script | `packages.control` |',
       '| depend on a library no installed package ships | `packages.needed` |',
       '| put every shared library in one package | `packages.runtime = "one"` |',
       '| give each shared library its own -dev package | `packages.dev = "library"` |',
       '| choose what a production image installs | `image.runtime` |',
       '| make production images dpkg knows (derived images run apt) | `image.records = "dpkg"` |',
       '']
i = 0
# skip header up to DESCRIPTION
while not S[i].startswith('# DESCRIPTION'): i += 1
sec = None
rows = []
def flush_rows():
    global rows
    if rows:
        out.append('| setting | type | meaning, default |')
        out.append('|---|---|---|')
        for a, b, c in rows:
            out.append('| %s | %s | %s |' % (a, b, c))
        out.append('')
    rows = []
para = []
def flush_para():
    global para
    if para:
        out.append(inl(' '.join(para))); out.append('')
    para = []
code = False
while i < len(S):
    l = S[i]
    if l.strip().startswith('```'):
        flush_para(); flush_rows()
        code = not code
        out.append(l.strip());
        if not code: out.append('')
        i += 1; continue
    if code:
        out.append(l); i += 1; continue
    if l.startswith('# '):
        flush_para(); flush_rows()
        name = l[2:].strip()
        if name in ('SEE ALSO',): break
        title = {'DESCRIPTION': 'Format', 'TOP-LEVEL SETTINGS': 'Top-level settings', 'BUILD': 'build', 'AXES': 'axes', 'IMAGE': 'image', 'APPS': 'apps', 'PACKAGES': 'packages', 'PLACEHOLDERS': 'Placeholders', 'EXAMPLES': 'Examples', 'FILES': 'Files'}[name]
        out.append('## ' + title); out.append(''); i += 1; continue
    if l.startswith('[['):
        flush_para()
        out.append('| placeholder | value |'); out.append('|---|---|')
        i += 2
        while i < len(S) and S[i].startswith('|'):
            out.append('| %s | %s |' % (inl(S[i][1:].strip()), inl(S[i+1][1:].strip()))); i += 2
        out.append(''); continue
    if not l.strip():
        flush_para(); i += 1; continue
    k = ind(l)
    nxt = S[i+1] if i + 1 < len(S) else ''
    if l.lstrip().startswith('*') and nxt.strip() and ind(nxt) == k + 1:
        flush_para()
        term = l.strip(); j = i + 1
        # a term may run over lines at the same indent (joined)
        body = []
        while j < len(S) and S[j].strip() and ind(S[j]) > k:
            if ind(S[j]) == k + 1 and S[j].lstrip().startswith('*') and j + 1 < len(S) and ind(S[j+1]) == k + 2:
                break
            body.append(S[j].strip()); j += 1
        # continued paragraphs in the body (after a blank line, same indent)
        while j + 1 < len(S) and not S[j].strip() and S[j+1].strip() and ind(S[j+1]) == k + 1 and not (S[j+1].lstrip().startswith('*') and j + 2 < len(S) and ind(S[j+2]) == k + 2):
            j += 1
            while j < len(S) and S[j].strip() and ind(S[j]) > k:
                body.append(S[j].strip()); j += 1
        m = re.match(r'^(.*?\*)\s*\(([^)]*)\)$', term)
        if m:
            name, typ = m.group(1), m.group(2)
        else:
            name, typ = term, ''
        rows.append((inl(name), inl(typ), inl(' '.join(body))))
        i = j
        continue
    flush_rows()
    para.append(l.strip()); i += 1
flush_para(); flush_rows()
sys.stdout.write('\n'.join(out).rstrip('\n') + '\n')
