#!/usr/bin/env python3
"""Writes N small, valid .deb files whose control data is shaped like
Debian's: the names, versions, architectures, dependencies, sections and
descriptions of a real Packages file, taken in turn (a second round gets
names with a suffix, and so on, until N).

usage: gen-debs-debian.py PACKAGES-FILE DIR N
Each package has one data file, /usr/share/doc/NAME/README, and gzip
members, like gen-debs.py's."""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gen_debs",
                                              os.path.join(HERE, "gen-debs.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

KEEP = ("Package", "Source", "Version", "Architecture", "Maintainer",
        "Installed-Size", "Pre-Depends", "Depends", "Recommends", "Suggests",
        "Breaks", "Conflicts", "Replaces", "Provides", "Section", "Priority",
        "Multi-Arch", "Homepage", "Description")


def stanzas(path):
    """(field, value) lists of each stanza, continuation lines kept."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for block in text.split("\n\n"):
        fields, cur = [], None
        for line in block.split("\n"):
            if not line:
                continue
            if line[0] in " \t" and cur is not None:
                fields[-1] = (fields[-1][0], fields[-1][1] + "\n" + line)
                continue
            name, _, value = line.partition(":")
            fields.append((name, value.strip()))
            cur = name
        if any(n == "Package" for n, _ in fields):
            yield fields


def control(fields, suffix):
    out = []
    for name, value in fields:
        if name not in KEEP:
            continue
        if name == "Architecture" and value not in ("all", "amd64"):
            value = "amd64"
        if suffix and name == "Package":
            value += suffix
        if suffix and name == "Source":
            value = value.split(" ")[0] + suffix
        out.append("%s: %s\n" % (name, value))
    return "".join(out).encode()


def deb(ctl, name):
    ctl_tar = gen.tar_gz([("./", None, 0), ("./control", ctl, 0o644)])
    data = gen.tar_gz([("./", None, 0), ("./usr/", None, 0),
                       ("./usr/share/", None, 0), ("./usr/share/doc/", None, 0),
                       ("./usr/share/doc/%s/" % name, None, 0),
                       ("./usr/share/doc/%s/README" % name,
                        b"%s\n" % name.encode(), 0o644)])
    return (b"!<arch>\n" + gen.member("debian-binary", b"2.0\n") +
            gen.member("control.tar.gz", ctl_tar) +
            gen.member("data.tar.gz", data))


def main():
    src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    all_stanzas = list(stanzas(src))
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        fields = all_stanzas[i % len(all_stanzas)]
        rnd = i // len(all_stanzas)
        suffix = "-r%d" % rnd if rnd else ""
        ctl = control(fields, suffix)
        name = dict(fields)["Package"] + suffix
        with open(os.path.join(out, "%06d_%s.deb" % (i, name)), "wb") as f:
            f.write(deb(ctl, name))


if __name__ == "__main__":
    main()
