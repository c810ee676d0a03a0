#!/usr/bin/python3
"""Checks a .changes file the way dpkg-genchanges writes it and dak reads
it: the fields in dpkg's order, every listed file present with the size
and the MD5, SHA-1 and SHA-256 given, the same files in the three lists,
Binary naming every package of the listed .debs, Description naming all
but the automatic -dbgsym ones, Architecture the .debs' architectures.

usage: check-changes.py FILE.changes    (exit 0 when it holds, else 1)
"""
import hashlib
import os
import subprocess
import sys

ORDER = ["Format", "Date", "Source", "Binary", "Binary-Only",
         "Built-For-Profiles", "Architecture", "Version", "Distribution",
         "Urgency", "Maintainer", "Changed-By", "Description", "Closes",
         "Changes", "Checksums-Md5", "Checksums-Sha1", "Checksums-Sha256",
         "Files"]


def parse(text):
    fields, order, cur = {}, [], None
    for line in text.splitlines():
        if line.startswith((" ", "\t")):
            fields[cur] += "\n" + line
        else:
            cur, _, value = line.partition(":")
            if cur in fields:
                raise SystemExit("field %s twice" % cur)
            fields[cur] = value.strip()
            order.append(cur)
    return fields, order


def lines(value):
    return [l.split() for l in value.split("\n")[1:]]


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", deb, name], check=True,
                          capture_output=True, text=True).stdout.strip()


def main():
    path = sys.argv[1]
    top = os.path.dirname(path) or "."
    fields, order = parse(open(path, encoding="utf-8").read())
    errors = []
    ranks = [ORDER.index(f) for f in order if f in ORDER]
    if ranks != sorted(ranks) or len(ranks) != len(order):
        errors.append("fields out of dpkg's order or unknown: %s" % order)
    algos = {"Checksums-Sha1": "sha1", "Checksums-Sha256": "sha256"}
    names = {}
    for f, algo in algos.items():
        names[f] = []
        for h, size, name in lines(fields[f]):
            data = open(os.path.join(top, name), "rb").read()
            names[f].append(name)
            if int(size) != len(data):
                errors.append("%s: size %s, file has %d" % (name, size, len(data)))
            if hashlib.new(algo, data).hexdigest() != h:
                errors.append("%s: %s differs" % (name, f))
    files = []
    for md5, size, section, priority, name in lines(fields["Files"]):
        data = open(os.path.join(top, name), "rb").read()
        files.append(name)
        if hashlib.md5(data).hexdigest() != md5 or int(size) != len(data):
            errors.append("%s: Files entry differs" % name)
        if name.endswith(".deb") and field(os.path.join(top, name), "Section") != section:
            errors.append("%s: section %s, package says otherwise" % (name, section))
    for f in names.values():
        if f != files or files != sorted(files):
            errors.append("the lists differ or are not sorted: %s %s" % (f, files))
    debs = [n for n in files if n.endswith(".deb")]
    pkgs = sorted(field(os.path.join(top, d), "Package") for d in debs)
    if fields["Binary"].split() != pkgs:
        errors.append("Binary %s, packages %s" % (fields["Binary"], pkgs))
    described = [l[0] for l in lines(fields["Description"])]
    auto = [p for d, p in zip(sorted(debs), pkgs)
            if field(os.path.join(top, d), "Auto-Built-Package")]
    want = sorted(field(os.path.join(top, d), "Package") for d in debs
                  if not field(os.path.join(top, d), "Auto-Built-Package"))
    if described != want:
        errors.append("Description lists %s, want %s (auto: %s)" % (described, want, auto))
    archs = set(field(os.path.join(top, d), "Architecture") for d in debs)
    if set(fields["Architecture"].split()) != archs:
        errors.append("Architecture %s, packages %s" % (fields["Architecture"], archs))
    if not any(n.endswith(".buildinfo") for n in files):
        errors.append("no .buildinfo listed")
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
