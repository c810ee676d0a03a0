#!/usr/bin/env python3
"""The README's tour, as a test runs it.

A tour block in README.md is a fenced block right after a line
`<!-- tour -->` (run on this machine) or `<!-- tour: root -->` (run as
root in a clean Debian root); in it, a line starting with "$ " is a
command, the lines after it its output (standard output and error),
where a line "..." stands for any number of lines.

  tour.py extract README.md DIR   writes DIR/NN.host.sh or DIR/NN.root.sh
                                  (the commands, each after a marker line)
                                  and DIR/NN.expected, one pair a block
  tour.py compare EXPECTED ACTUAL exit 0 when ACTUAL (the script's output)
                                  matches; else prints where it differs

Before comparing, what differs from run to run is masked on both sides:
key fingerprints and IDs, dates, durations ("4.5 s"), package sizes in
padpack split's table, and what the machine's CPU decides: the level of
the build the loader takes (paddle --version's variant and library lines,
the instructions paddle's kernel names); runs of spaces count as one.
"""
import re
import sys

MARK = '@@@ tour command '
MASKS = [
    (re.compile(r'\b[0-9A-F]{40}\b'), '<FINGERPRINT>'),
    (re.compile(r'\b[0-9A-F]{16}\b'), '<KEYID>'),
    (re.compile(r'\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d( UTC|Z)?'), '<DATE>'),
    (re.compile(r'\b\d+\.\d+ s\b'), '<N> s'),
    (re.compile(r'^(  \S+ +\S+ +\S+ +)\d+( +\S+\.deb)$'), r'\1<SIZE>\2'),
    (re.compile(r'^variant: cpu-\S+ \(device: cpu, isa: [^)]*\)$'),
     'variant: cpu-<LEVEL> (device: cpu, isa: <ISA>)'),
    (re.compile(r'^library: \S+ \(built for [^)]*\)$'), 'library: <LIBRARY>'),
    (re.compile(r' on cpu \([^)]*\): '), ' on cpu (<ISA>): '),
]


def blocks(readme):
    lines = open(readme, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        m = re.match(r'^<!-- tour(: (root))? -->$', lines[i])
        i += 1
        if not m:
            continue
        if not lines[i].startswith('```'):
            sys.exit('%s:%d: a tour marker must precede a fenced block'
                     % (readme, i))
        body = []
        i += 1
        while not lines[i].startswith('```'):
            body.append(lines[i])
            i += 1
        yield m.group(2) or 'host', i, body


def extract(readme, outdir):
    n = 0
    for where, line, body in blocks(readme):
        n += 1
        script, expected, k = [], [], 0
        for b in body:
            if b.startswith('$ '):
                k += 1
                script.append("echo '%s%d'" % (MARK, k))
                script.append('{ %s\n} 2>&1' % b[2:])
                expected.append('%s%d' % (MARK, k))
            else:
                expected.append(b)
        if not k:
            sys.exit('%s:%d: a tour block without a command' % (readme, line))
        base = '%s/%02d' % (outdir, n)
        with open('%s.%s.sh' % (base, where), 'w') as f:
            f.write('\n'.join(script) + '\n')
        with open(base + '.expected', 'w') as f:
            f.write('\n'.join(expected) + '\n')
    print(n)


def norm(line):
    line = line.rstrip()
    for rx, rep in MASKS:
        line = rx.sub(rep, line)
    return re.sub(r' +', ' ', line)


def match(want, got):
    """want may hold "..." lines, each matching any run of lines."""
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(want):
            r = j == len(got)
        elif want[i] == '...':
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and want[i] == got[j] and m(i + 1, j + 1)
        memo[i, j] = r
        return r
    return m(0, 0)


def compare(expected, actual):
    def lines(path):
        text = open(path, encoding='utf-8', errors='replace').read()
        return [norm(x) for x in text.rstrip('\n').split('\n')]
    want, got = lines(expected), lines(actual)
    # command by command, so that a failure names its command
    def split(ls):
        cmds, cur = {}, None
        for x in ls:
            if x.startswith(MARK):
                cur = x
                cmds[cur] = []
            elif cur:
                cmds[cur].append(x)
        return cmds
    w, g = split(want), split(got)
    bad = 0
    for cmd, out in w.items():
        if not match(out, g.get(cmd, ['<not run>'])):
            bad += 1
            print('# command %s: the README says' % cmd[len(MARK):])
            print('\n'.join('#   ' + x for x in out))
            print('# and it printed')
            print('\n'.join('#   ' + x for x in g.get(cmd, ['<not run>'])))
    return 1 if bad else 0


if __name__ == '__main__':
    if sys.argv[1] == 'extract':
        extract(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == 'compare':
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
