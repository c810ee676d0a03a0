#!/usr/bin/env python3
"""Prints every setting the spec schema (src/lib/spec_schema.c) knows,
one a line: its path (lists of groups as NAME[]), type, whether it is
required, and the schema's own description, tab-separated.
usage: spec-settings.py src/lib/spec_schema.c"""
import re
import sys

src = open(sys.argv[1]).read()
src = re.sub(r'\\\n', ' ', src)
src = re.sub(r'("(?:[^"\\]|\\.)*")|/\*.*?\*/', lambda m: m.group(1) or '',
             src, flags=re.S)
macros = dict(re.findall(r'#define (\w+_KEYS) (.*)', src))
ENTRY = re.compile(r'\{\s*"(\w+)",\s*(PP_ST_\w+),\s*([\w|]+),\s*(\w+),\s*'
                   r'((?:"(?:[^"\\]|\\.)*"\s*)+)\}|(\b\w+_KEYS\b)')


def entries(body):
    for m in ENTRY.finditer(body):
        if m.group(6):
            yield from entries(macros[m.group(6)])
        else:
            what = ''.join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(5)))
            yield (m.group(1), m.group(2), m.group(3), m.group(4),
                   what.replace('\\"', '"'))


tables = {n: list(entries(b)) for n, b in re.findall(
    r'(\w+)\[\] = \{(.*?)\n\};', src, flags=re.S)}


def walk(table, prefix):
    for name, kind, flags, sub, what in tables[table]:
        path = prefix + name
        print('\t'.join([path, kind[6:].lower(),
                         'required' if 'REQUIRED' in flags else '', what]))
        if sub != 'NULL':
            walk(sub, path + ('[].' if kind == 'PP_ST_GROUPS' else '.'))


walk('pp_spec_schema', '')
