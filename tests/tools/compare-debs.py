#!/usr/bin/python3
"""Compares two sets of .deb files package by package: their files (path,
mode, link target), control fields, and shlibs, symbols and triggers
files; prints a Markdown report.

usage: compare-debs.py OURS_DIR THEIRS_DIR [--allow-missing REGEX]
  Exit 0 when every package of THEIRS is in OURS with the same files (but
  the ones REGEX matches, which may be missing from ours), the same
  Depends, Pre-Depends, Provides, Section, Priority, Multi-Arch and
  Architecture, and the same shlibs, symbols and triggers (comments
  aside); else 1.
"""
import glob
import os
import re
import subprocess
import sys

FIELDS = ["Architecture", "Depends", "Pre-Depends", "Provides", "Section",
          "Priority", "Multi-Arch"]


def run(*args):
    return subprocess.run(args, check=True, capture_output=True).stdout


def packages(d):
    out = {}
    for f in glob.glob(os.path.join(d, "*.deb")):
        out[run("dpkg-deb", "-f", f, "Package").decode().strip()] = f
    return out


def files(deb):
    listing = run("dpkg-deb", "--fsys-tarfile", deb)
    out = {}
    for line in subprocess.run(["tar", "-tvf", "-"], input=listing, check=True,
                               capture_output=True).stdout.decode().splitlines():
        parts = line.split(None, 5)
        name = parts[5]
        target = ""
        if " -> " in name:
            name, target = name.split(" -> ", 1)
        if name.endswith("/"):
            continue
        out[name.lstrip(".")] = (parts[0], target)
    return out


def field(deb, name):
    return run("dpkg-deb", "-f", deb, name).decode().strip()


def control_file(deb, name):
    r = subprocess.run(["dpkg-deb", "-I", deb, name], capture_output=True)
    if r.returncode:
        return None
    return "\n".join(l for l in r.stdout.decode().splitlines()
                     if not l.startswith("#")).strip()


def main():
    ours_dir, theirs_dir = sys.argv[1], sys.argv[2]
    allow = None
    if len(sys.argv) > 4 and sys.argv[3] == "--allow-missing":
        allow = re.compile(sys.argv[4])
    ours, theirs = packages(ours_dir), packages(theirs_dir)
    ok = True
    print("| package | files (same / only Debian / only padpack) | "
          "fields that differ | shlibs, symbols, triggers |")
    print("|---|---|---|---|")
    notes = []
    for p in sorted(theirs):
        if p not in ours:
            print("| %s | missing from padpack's set | | |" % p)
            ok = False
            continue
        a, b = files(ours[p]), files(theirs[p])
        same = [f for f in b if f in a and a[f] == b[f]]
        only_debian = sorted(f for f in b if f not in a)
        only_ours = sorted(f for f in a if f not in b)
        differ = sorted(f for f in b if f in a and a[f] != b[f])
        for f in only_debian:
            if not (allow and allow.search(f)):
                ok = False
            notes.append("%s: only in Debian's: %s" % (p, f))
        for f in only_ours + differ:
            ok = False
            notes.append("%s: only in padpack's or different: %s" % (p, f))
        fdiff = []
        for name in FIELDS:
            va, vb = field(ours[p], name), field(theirs[p], name)
            if va != vb:
                fdiff.append(name)
                notes.append("%s: %s: Debian '%s', padpack '%s'" % (p, name, vb, va))
                ok = False
        cdiff = []
        for name in ("shlibs", "symbols", "triggers"):
            if control_file(ours[p], name) != control_file(theirs[p], name):
                cdiff.append(name)
                ok = False
        print("| %s | %d / %d / %d | %s | %s |" % (
            p, len(same), len(only_debian), len(only_ours) + len(differ),
            ", ".join(fdiff) or "none (%s)" % ", ".join(FIELDS),
            "differ: " + ", ".join(cdiff) if cdiff else "identical"))
    extra = sorted(set(ours) - set(theirs))
    if extra:
        print("\npadpack's set has more: %s" % ", ".join(extra))
    if notes:
        print()
        for n in notes:
            print("- " + n)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
