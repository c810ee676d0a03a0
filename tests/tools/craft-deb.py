#!/usr/bin/env python3
"""Writes hostile or broken .deb files for the tests.

usage: craft-deb.py CASE OUT.deb OUTSIDE-DIR

OUTSIDE-DIR is a directory outside the extraction target that the hostile
packages try to write into; the tests check it stays empty.
"""
import io
import lzma
import sys
import tarfile


def ar_member(name, data, pad=b"\n", size=None):
    size = len(data) if size is None else size
    head = b"%-16s%-12d%-6d%-6d%-8s%-10d`\n" % (
        name.encode(), 1700000000, 0, 0, b"100644", size)
    assert len(head) == 60
    return head + data + (pad if len(data) % 2 else b"")


def tar_bytes(entries, fmt=tarfile.GNU_FORMAT):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as tar:
        for info, data in entries:
            info.mtime = 1700000000
            info.uname = info.gname = "root"
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


def entry(name, kind=tarfile.REGTYPE, data=b"", link="", mode=0o644):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.linkname = link
    if kind == tarfile.REGTYPE:
        info.size = len(data)
        return info, data
    return info, None


def control_tar():
    control = (b"Package: hostile\nVersion: 1\nArchitecture: all\n"
               b"Maintainer: T <t@example.org>\nDescription: hostile\n")
    return tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755),
                      entry("./control", data=control)])


def deb(data_entries=None, members=None):
    if members is None:
        data = tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755)] +
                         data_entries)
        members = [("debian-binary", b"2.0\n"),
                   ("control.tar", control_tar()),
                   ("data.tar", data)]
    out = b"!<arch>\n"
    for m in members:
        out += ar_member(*m)
    return out


def hostile(outside):
    d = tarfile.DIRTYPE
    return {
        "dotdot": [entry("./../dotdot-evil", data=b"x")],
        "dotdot-deep": [entry("./usr/", d, mode=0o755),
                        entry("./usr/../../dotdot-evil", data=b"x")],
        "absolute": [entry(outside + "/absolute-evil", data=b"x")],
        "symlink-absolute": [
            entry("./link", tarfile.SYMTYPE, link=outside),
            entry("./link/through-absolute", data=b"x")],
        "symlink-relative": [
            entry("./usr/", d, mode=0o755),
            entry("./usr/link", tarfile.SYMTYPE, link="../../" * 20 + outside.lstrip("/")),
            entry("./usr/link/through-relative", data=b"x")],
        "hardlink-outside": [entry("./hl", tarfile.LNKTYPE, link="../../etc/passwd")],
        "hardlink-absolute": [entry("./hl", tarfile.LNKTYPE, link="/etc/passwd")],
        "hardlink-unknown": [entry("./hl", tarfile.LNKTYPE, link="./not-in-package")],
        "device": [entry("./dev-null", tarfile.CHRTYPE)],
        "block-device": [entry("./dev-sda", tarfile.BLKTYPE)],
        "fifo": [entry("./fifo", tarfile.FIFOTYPE)],
    }


def broken():
    good_data = tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755),
                           entry("./file", data=b"y" * 3000)])
    ctl = control_tar()
    good = [("debian-binary", b"2.0\n"), ("control.tar", ctl),
            ("data.tar", good_data)]
    full = deb(members=good)
    return {
        "truncated": full[:len(full) - 1500],
        "oversize": b"!<arch>\n" + ar_member("debian-binary", b"2.0\n") +
        ar_member("control.tar", ctl) +
        ar_member("data.tar", good_data, size=len(good_data) + 100000),
        "no-debian-binary": deb(members=good[1:]),
        "version-3": deb(members=[("debian-binary", b"3.0\n")] + good[1:]),
        "no-newline": deb(members=[("debian-binary", b"2.0")] + good[1:]),
        "unknown-member": deb(members=good[:1] + [("junk", b"junk")] + good[1:]),
        "data-first": deb(members=[good[0], good[2], good[1]]),
        "no-data": deb(members=good[:2]),
        "bad-magic": b"!<arch>\r" + full[8:],
        "bad-end-magic": full[:8 + 58] + b"X\n" + full[8 + 60:],
        "bad-padding": b"!<arch>\n" + ar_member("debian-binary", b"2.0\n") +
        ar_member("control.tar", ctl) +
        ar_member("data.tar.xz", lzma.compress(good_data) + b"z", pad=b"X"),
        "truncated-stream": deb(members=good[:2] + [
            ("data.tar.xz", lzma.compress(good_data)[:60])]),
        "bad-compression": deb(members=good[:2] + [("data.tar.xz", b"not xz at all\n")]),
        "unknown-compression": deb(members=good[:2] + [("data.tar.rar", good_data)]),
        "bad-size-field": full[:8 + 48] + b"12x4      " + full[8 + 58:],
    }


def main():
    case, out, outside = sys.argv[1:4]
    cases = {k: deb(v) for k, v in hostile(outside).items()}
    cases.update(broken())
    with open(out, "wb") as f:
        f.write(cases[case])


if __name__ == "__main__":
    main()
