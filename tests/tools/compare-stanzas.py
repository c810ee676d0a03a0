#!/usr/bin/env python3
"""Compares two Packages files field by field.

usage: compare-stanzas.py OURS THEIRS [ONE-SIDED-FIELD...]
Every stanza of THEIRS must have one in OURS for the same Package,
Version and Architecture, with the same fields and values; a field named
as one-sided may be missing from either side (padpack lists MD5sum and
SHA256 as Debian's archive does; the tools add SHA1, apt-ftparchive
SHA512).
Prints each difference; exits 1 if there is any."""
import sys


def stanzas(path):
    out, cur, last = [], {}, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line:
            if cur:
                out.append(cur)
            cur, last = {}, None
        elif line[0] in " \t":
            cur[last] += "\n" + line
        else:
            name, _, value = line.partition(":")
            last = name.lower()
            cur[last] = value.strip()
    if cur:
        out.append(cur)
    return out


def key(s):
    return (s.get("package"), s.get("version"), s.get("architecture"))


def main():
    ours = {key(s): s for s in stanzas(sys.argv[1])}
    theirs = stanzas(sys.argv[2])
    extra_ok = {f.lower() for f in sys.argv[3:]}
    bad = 0
    if len(theirs) != len(ours):
        print("stanzas: ours %d, theirs %d" % (len(ours), len(theirs)))
        bad += 1
    for t in theirs:
        o = ours.get(key(t))
        if o is None:
            print("missing in ours: %s" % (key(t),))
            bad += 1
            continue
        for f, v in t.items():
            if f in extra_ok and f not in o:
                continue
            if o.get(f) != v:
                print("%s %s: ours %r, theirs %r" % (key(t)[0], f, o.get(f), v))
                bad += 1
        for f in set(o) - set(t) - extra_ok:
            print("%s: field %s only in ours" % (key(t)[0], f))
            bad += 1
    print("%d stanzas compared, %d differences" % (len(theirs), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
