#!/usr/bin/env python3
"""Writes hostile or broken .deb files for the tests.

usage: craft-deb.py CASE OUT.deb OUTSIDE-DIR

OUTSIDE-DIR is a directory outside the extraction target that the hostile
packages try to write into; the tests check it stays empty.
"""
import bz2
import gzip
import io
import lzma
import sys
import tarfile
import zlib


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


def entry(name, kind=tarfile.REGTYPE, data=b"", link="", mode=0o644,
          uid=0):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.linkname = link
    info.uid = info.gid = uid
    if kind == tarfile.REGTYPE:
        info.size = len(data)
        return info, data
    return info, None


CONTROL = (b"Package: hostile\nVersion: 1\nArchitecture: all\n"
           b"Maintainer: T <t@example.org>\nDescription: hostile\n")


def control_tar(control=CONTROL, extra=()):
    return tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755),
                      entry("./control", data=control)] + list(extra))


def deb(data_entries=None, members=None, control=CONTROL):
    if members is None:
        data = tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755)] +
                         data_entries)
        members = [("debian-binary", b"2.0\n"),
                   ("control.tar", control_tar(control)),
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
        # The same path twice: what is left depends on the order.
        "dup-file-symlink": [entry("./a", data=b"x"),
                             entry("./a", tarfile.SYMTYPE, link=outside)],
        "dup-symlink-dir": [entry("./a", tarfile.SYMTYPE, link=outside),
                            entry("./a/", d, mode=0o755),
                            entry("./a/f", data=b"x")],
        "dup-file-file": [entry("./a", data=b"x"), entry("./a", data=b"y")],
        "dup-spelled": [entry("./usr/", d, mode=0o755),
                        entry("./usr/x", data=b"x"),
                        entry(".//usr/./x", tarfile.SYMTYPE, link=outside)],
        "root-file": [entry(".", data=b"x")],
        "root-symlink": [entry("./", tarfile.SYMTYPE, link=outside),
                         entry("./evil", data=b"x")],
        "under-file": [entry("./a", data=b"x"), entry("./a/b", data=b"y")],
        "newline-name": [entry("./new\nline", data=b"x")],
        "long-name": [entry("./" + ("d" * 200 + "/") * 21 + "f", data=b"x")],
        "long-target": [entry("./l", tarfile.SYMTYPE, link="t" * 5000)],
        "deep": [entry("./" + "d/" * 300 + "f", data=b"x")],
        "setid": [entry("./usr/", d, mode=0o755),
                  entry("./usr/suid", data=b"#!/bin/sh\n", mode=0o4755),
                  entry("./usr/sgid", data=b"#!/bin/sh\n", mode=0o2755),
                  entry("./usr/both", data=b"#!/bin/sh\n", mode=0o6711)],
    }


def pax_nul():
    """A pax header naming the entry "./a<NUL>b" (pax allows any byte)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, data in (("./a", b"first"), ("./x", b"second")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1700000000
            if name == "./x":
                info.pax_headers = {"path": "./a\x00b"}
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def tar_header(name, size):
    info = tarfile.TarInfo(name)
    info.size = size
    info.mode = 0o644
    info.mtime = 1700000000
    return info.tobuf(tarfile.GNU_FORMAT)


def gzip_member(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


def bomb_gz(size):
    """A data.tar.gz holding one file of size zero bytes, made of gzip
    members each inflating to 4 MiB: a gzip file may hold many, read as
    one stream, so the bomb costs no time to make."""
    chunk = 4 << 20
    assert size % chunk == 0
    zeros = gzip_member(bytes(chunk))
    head = gzip_member(tar_header("./zeros", size))
    tail = gzip_member(bytes(1024))
    return head + zeros * (size // chunk) + tail


def bomb_xz(size):
    """The same as data.tar.xz: xz files may hold many streams too (read
    as one by libarchive; dpkg-deb stops after the first)."""
    chunk = 4 << 20
    return (lzma.compress(tar_header("./zeros", size)) +
            lzma.compress(bytes(chunk), preset=9) * (size // chunk) +
            lzma.compress(bytes(1024)))


def declared_8g(real):
    """A tar entry declaring 8 GiB followed by only `real` bytes."""
    return tar_header("./huge", 8 << 30) + bytes(real)


def installed(kib):
    return CONTROL + b"Installed-Size: %d\n" % kib


def sized():
    """Bombs and big entries, with the Installed-Size they declare (made
    on demand)."""
    m = lambda name, data, ctl: [("debian-binary", b"2.0\n"),
                                 ("control.tar", control_tar(ctl)),
                                 (name, data)]
    gz = lambda: bomb_gz(1 << 30)  # 1 MiB
    return {
        "bomb": lambda: deb(members=m("data.tar.gz", gz(), installed(8))),
        "bomb-nosize": lambda: deb(members=m("data.tar.gz", gz(), CONTROL)),
        "bomb-xz": lambda: deb(members=m("data.tar.xz", bomb_xz(1 << 30),
                                         installed(8))),
        "huge": lambda: deb(members=m("data.tar", declared_8g(2 << 20),
                                      installed(4))),
        "huge-nosize": lambda: deb(members=m("data.tar",
                                             declared_8g(2 << 20), CONTROL)),
        "fits": lambda: deb(members=m("data.tar", tar_bytes(
            [entry("./", tarfile.DIRTYPE, mode=0o755),
             entry("./two-mib", data=bytes(2 << 20))]), installed(2048))),
        "pax-nul": lambda: deb(members=m("data.tar", pax_nul(), CONTROL)),
    }


def odd_data_gz():
    """A data.tar.gz of an odd number of bytes (xz streams are always a
    multiple of four), so that it needs a padding byte."""
    for n in range(1, 64):
        z = gzip_member(tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755),
                                   entry("./file", data=b"y" * n)]))
        if len(z) % 2:
            return z
    raise ValueError("no odd size found")


def old_format():
    """The format of dpkg before 0.93.76: a version line, the length of
    control.tar.gz on a line, then control.tar.gz and data.tar.gz."""
    ctl = gzip_member(tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755),
                                 entry("./control", data=CONTROL)]))
    data = gzip_member(tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755),
                                  entry("./file", data=b"old\n")]))
    return b"0.939000\n%d\n" % len(ctl) + ctl + data


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
        "no-final-pad": (b"!<arch>\n" + ar_member("debian-binary", b"2.0\n") +
                         ar_member("control.tar", ctl) +
                         ar_member("data.tar.gz", odd_data_gz())[:-1]),
        "truncated-stream": deb(members=good[:2] + [
            ("data.tar.xz", lzma.compress(good_data)[:60])]),
        "bad-compression": deb(members=good[:2] + [("data.tar.xz", b"not xz at all\n")]),
        "unknown-compression": deb(members=good[:2] + [("data.tar.rar", good_data)]),
        "bad-size-field": full[:8 + 48] + b"12x4      " + full[8 + 58:],
        "two-data": deb(members=good + [("data.tar.xz",
                                         lzma.compress(good_data))]),
        "control-after-data": deb(members=good + [("control.tar", ctl)]),
        "old-format": old_format(),
    }


FOLDED = b"""Package: folded
Version: 0:1.0-1
Architecture: all
Maintainer: T <t@example.org>
Pre-Depends: dpkg(>=1.15)
Depends: libc6 (>= 2.34),
 libfoo (>= 0:1.2) | libbar,
  libbaz:any,
\tlibqux (<< 3~)
Essential: no
Multi-Arch: no
Description: folded
 fields
X-Custom: a
 b
"""


def odd_listing():
    """Entries whose tar -tv line is unusual: dates before 1970 and in
    3000, owners by number and long names, set-id and sticky modes,
    escapes in names."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        def add(name, kind=tarfile.REGTYPE, data=b"", mode=0o644, link="",
                mtime=1700000000, owner=(0, 0, "root", "root")):
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.linkname, info.mtime = (
                kind, mode, link, mtime)
            info.uid, info.gid, info.uname, info.gname = owner
            info.size = len(data) if kind == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(data) if info.size else None)
        add("./", tarfile.DIRTYPE, mode=0o755)
        add("./before-1970", mtime=-100000)
        add("./year-3000", mtime=32503680000)
        add("./by-number", owner=(70000, 70001, "", ""))
        add("./long-owner", data=b"x" * 123456,
            owner=(1, 1, "averyveryverylongusername",
                   "averyveryverylonggroupname"))
        add("./sticky", tarfile.DIRTYPE, mode=0o1777)
        add("./setuid", data=b"x", mode=0o4711)
        add("./setgid-noexec", mode=0o2644)
        add("./ln", tarfile.SYMTYPE, link="target with spaces")
        add("./hl", tarfile.LNKTYPE, link="./setuid")
        add("./utf8-\u00e9", data=b"x")
        add("./tab\tname", data=b"x")
        add("./back\\slash", data=b"x")
        add("./chr", tarfile.CHRTYPE)
    return buf.getvalue()


ODD = b"""Package: odd
version: 1:2.0
Architecture: amd64
Maintainer: T <t@example.org>
depends: a (< 1), b (> 2), c (>=1:1.0-1), d(=0:3)
Conflicts: e (<< 1)
Breaks: f
Priority: Optional
Multi-Arch: Same
Essential: Yes
Protected: no
Section: Misc
Installed-Size: 12
Description: odd
 one
 .
 two
"""


def readers():
    """Unusual packages dpkg-deb reads."""
    d = tarfile.DIRTYPE
    base = [entry("./", d, mode=0o755)]
    ctl = lambda control, extra=(): [
        ("debian-binary", b"2.0\n"), ("control.tar", control_tar(control, extra)),
        ("data.tar", tar_bytes(base))]
    return {
        "folded": deb(members=ctl(FOLDED)),
        "odd-fields": deb(members=ctl(ODD)),
        # CRLF line ends, blanks at line ends (dpkg keeps those inside a
        # value), a value starting on its second line.
        "odd-lines": deb(members=ctl(
            CONTROL.replace(b"Description: hostile\n",
                            b"Description:\n hostile text \t\n more \n")
            .replace(b"\n", b"\r\n") + b"X-Tab:\t\tvalue\t \r\n")),
        "revision": deb(members=ctl(CONTROL.replace(b"Version: 1\n",
                                                    b"Version: 1.0-1\n") +
                                    b"Revision: 5\n")),
        "revision-only": deb(members=ctl(CONTROL + b"Package-Revision: 2\n")),
        "no-final-newline": deb(members=ctl(CONTROL + b"Homepage: h")),
        "malformed": deb(members=ctl(CONTROL.replace(
            b"Architecture", b"this line is no field\nArchitecture"))),
        "no-control": deb(members=[("debian-binary", b"2.0\n"),
                                   ("control.tar", tar_bytes(
                                       base + [entry("./postinst",
                                                     data=b"#!/bin/sh\n",
                                                     mode=0o755)])),
                                   ("data.tar", tar_bytes(base))]),
        "control-subdir": deb(members=ctl(CONTROL, [
            entry("./sub/", d, mode=0o555),
            entry("./sub/file", data=b"in a subdirectory\n"),
            entry("./ro/", d, mode=0o500),
            entry("./ro/deeper/", d, mode=0o500),
            entry("./ro/deeper/f", data=b"x", mode=0o400),
            entry("./md5sums", data=b"")])),
        # Blank owner fields, a mode of letters: dpkg reads only names,
        # sizes and end magics.
        "lax-ar-header": b"".join(
            [b"!<arch>\n"] +
            [h[:28] + b" " * 12 + (b"rw-r--r-" if i else h[40:48]) + h[48:]
             for i, h in enumerate(
                 [ar_member(n, d) for n, d in ctl(CONTROL)])]),
        # Compressions dpkg-deb still reads but no longer writes.
        # Line counts and interpreters as dpkg-deb --info reckons them.
        "odd-scripts": deb(members=ctl(CONTROL.rstrip(b"\n"), [
            entry("./postinst", data=b"#!/bin/sh -e\necho hi\n", mode=0o755),
            entry("./preinst", data=b"#! /usr/bin/perl -w\n1;\n", mode=0o755),
            entry("./config", data=b"#!/bin/sh\nexit 0", mode=0o755),
            entry("./triggers", data=b""),
            entry("./templates", data=b"x"),
            entry("./a-very-long-control-file-name-indeed", data=b"1\n2\n"),
            entry("./prerm", data=b"\x7fELF binary", mode=0o755),
            entry("./postrm", data=b"#!" + b"/x" * 200 + b"\n", mode=0o755),
            entry("./shlibs", data=b"#\n")])),
        "odd-listing": deb(members=ctl(CONTROL)[:2] + [
            ("data.tar", odd_listing())]),
        "data-bz2": deb(members=ctl(CONTROL)[:2] + [
            ("data.tar.bz2", bz2.compress(tar_bytes(base + [
                entry("./file", data=b"bzip2\n")])))]),
        "data-lzma": deb(members=ctl(CONTROL)[:2] + [
            ("data.tar.lzma", lzma.compress(tar_bytes(base + [
                entry("./file", data=b"lzma\n")]), format=lzma.FORMAT_ALONE))]),
        "hardlink-chain": deb(base + [
            entry("./a", data=b"linked\n"),
            entry("./b", tarfile.LNKTYPE, link="./a"),
            entry("./c", tarfile.LNKTYPE, link="./b")]),
        "fifo": deb(base + [entry("./usr/", d, mode=0o755),
                            entry("./usr/fifo", tarfile.FIFOTYPE, mode=0o600)]),
        "owners": deb(base + [entry("./usr/", d, mode=0o755, uid=1234),
                              entry("./usr/f", data=b"x", uid=1234)]),
    }


GOOD = [("debian-binary", b"2.0\n"), None,
        ("data.tar", tar_bytes([entry("./", tarfile.DIRTYPE, mode=0o755)]))]


def control_bombs():
    """Control archives padpack reads into memory (made on demand)."""
    return {
        "control-twice": lambda: deb(members=[GOOD[0], ("control.tar", control_tar(
            extra=[entry("./control", data=CONTROL.replace(b"hostile",
                                                           b"other"))])),
                                      GOOD[2]]),
        "control-entries": lambda: deb(members=[GOOD[0], ("control.tar", control_tar(
            extra=[entry("./d%d/" % i, tarfile.DIRTYPE, mode=0o755)
                   for i in range(10001)])), GOOD[2]]),
        "control-big": lambda: deb(members=[GOOD[0], ("control.tar.gz", gzip_member(
            control_tar(extra=[entry("./big%d" % i, data=bytes(40 << 20))
                               for i in range(2)]))), GOOD[2]]),
    }


def main():
    case, out, outside = sys.argv[1:4]
    for make in (lambda: {k: deb(v) for k, v in hostile(outside).items()},
                 broken, sized, readers, control_bombs):
        cases = make()
        if case in cases:
            break
    data = cases[case]
    with open(out, "wb") as f:
        f.write(data() if callable(data) else data)


if __name__ == "__main__":
    main()
