#!/usr/bin/python3
"""Makes a Release agree again with the files it lists, for the tests that
craft hostile repositories from a good one.

usage: rehash-release.py SUITE_DIR [REL=SIZE:SHA256...]
Each MD5Sum and SHA256 entry whose file is present gets that file's size
and hash; REL=SIZE:SHA256 sets an entry's values by hand (an index that is
absent, or a lie), adding the entry when Release lacks it.
"""
import hashlib
import os
import sys


def main():
    suite = sys.argv[1]
    forced = {}
    for arg in sys.argv[2:]:
        rel, value = arg.split("=", 1)
        size, sha = value.split(":", 1)
        forced[rel] = (int(size), sha)
    path = os.path.join(suite, "Release")
    out, section, seen = [], None, set()
    for line in open(path, encoding="utf-8").read().splitlines():
        if not line.startswith(" "):
            if section == "SHA256":
                out += added(forced, seen)
            section = line.split(":", 1)[0]
            out.append(line)
            continue
        digest, size, rel = line.split()
        algo = {"MD5Sum": hashlib.md5, "SHA256": hashlib.sha256}.get(section)
        seen.add(rel)
        if section == "SHA256" and rel in forced:
            size, digest = forced[rel]
        elif algo and os.path.isfile(os.path.join(suite, rel)):
            data = open(os.path.join(suite, rel), "rb").read()
            size, digest = len(data), algo(data).hexdigest()
        out.append(" %s %16s %s" % (digest, size, rel))
    if section == "SHA256":
        out += added(forced, seen)
    open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")


def added(forced, seen):
    return [" %s %16s %s" % (sha, size, rel)
            for rel, (size, sha) in forced.items() if rel not in seen]


main()
