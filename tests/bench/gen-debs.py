#!/usr/bin/env python3
"""Writes N small, valid .deb files quickly (for repository benchmarks).

usage: gen-debs.py DIR N [FIRST]
Packages benchNNNNN_1.0-1_amd64.deb, each with a few-line description and
one data file, gzip members, as dpkg-deb would lay them out."""
import gzip
import io
import os
import sys
import tarfile

MTIME = 1700000000


def tar_gz(files):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data, mode in files:
            info = tarfile.TarInfo(name)
            info.mtime, info.uname, info.gname = MTIME, "root", "root"
            if data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), mode
                tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), 9, mtime=0)


def member(name, data):
    head = b"%-16s%-12d%-6d%-6d%-8s%-10d`\n" % (
        name.encode(), MTIME, 0, 0, b"100644", len(data))
    return head + data + (b"\n" if len(data) % 2 else b"")


def deb(i):
    name = "bench%05d" % i
    control = ("Package: %s\nVersion: 1.0-1\nArchitecture: amd64\n"
               "Maintainer: Bench <bench@example.org>\nInstalled-Size: 8\n"
               "Depends: libc6 (>= 2.34)\nSection: misc\nPriority: optional\n"
               "Description: benchmark package %d\n"
               " A generated package for the repository benchmark, with a\n"
               " description of a few lines like most real packages have.\n"
               % (name, i)).encode()
    ctl = tar_gz([("./", None, 0), ("./control", control, 0o644)])
    data = tar_gz([("./", None, 0), ("./usr/", None, 0),
                   ("./usr/share/", None, 0), ("./usr/share/%s/" % name, None, 0),
                   ("./usr/share/%s/data" % name, b"%d\n" % i, 0o644)])
    return (b"!<arch>\n" + member("debian-binary", b"2.0\n") +
            member("control.tar.gz", ctl) + member("data.tar.gz", data))


def main():
    out, n = sys.argv[1], int(sys.argv[2])
    first = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    os.makedirs(out, exist_ok=True)
    for i in range(first, first + n):
        with open(os.path.join(out, "bench%05d_1.0-1_amd64.deb" % i), "wb") as f:
            f.write(deb(i))


if __name__ == "__main__":
    main()
