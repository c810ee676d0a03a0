#!/usr/bin/python3
"""Checks from an strace of padpack repo add/publish that a power cut at
any moment is safe: that every file reached the disk before a name or an
index pointed at it.

usage: check-sync-order.py TRACE ROOT
TRACE: strace -f -y -qq -e trace=fsync,fdatasync,syncfs,openat,rename,
renameat,renameat2,link,linkat,symlink,symlinkat,mkdir,mkdirat -o TRACE
padpack ...
A syncfs (a large batch of pool files) counts as a sync of every file and
directory made before it.
ROOT: the repository, as an absolute path.

The rules (each broken one is printed; the exit status is 1 then):
 1. a file renamed into place was fsync'ed (under its temporary name)
    before the rename;
 2. a directory that got a new name (rename, link, symlink, mkdir) is
    fsync'ed after, before the run ends;
 3. a pool file and its directory are synced before any Packages index is
    renamed into place and before db/*.list (or the changes to it since it
    was written whole, db/*.list.log) names it;
 4. every index of a suite is synced before its Release is renamed into
    place (Release, InRelease and Release.gpg come after the indices);
 5. the new suite directory's directories are synced before it is
    exchanged with (or renamed to) the served one, and dists/ after.
db/zcache/ is left out of 1 and 2: its pieces are a cache, each checked
by its size and CRC-32 when read and made again when damaged; and the
name of db/cache out of 2: the old cache and the new are both right.
An index hard-linked into a suite from db/indices/files/ (published
before, and synced then) counts as listed in 4.
"""
import os
import re
import sys

LINE = re.compile(r"^(\d+)\s+(.*)$")
CALL = re.compile(r"^(\w+)\((.*)\)\s+= (-?\d+)")
FD = re.compile(r"^(?:\d+|AT_FDCWD)<(.*)>$")


def events(path):
    """(syscall, args, result) in the order the calls completed."""
    pending = {}
    for raw in open(path, encoding="utf-8", errors="replace"):
        m = LINE.match(raw.rstrip("\n"))
        if not m:
            continue
        pid, text = m.groups()
        if text.endswith("<unfinished ...>"):
            pending[pid] = text[: -len("<unfinished ...>")].rstrip()
            continue
        r = re.match(r"^<\.\.\. \w+ resumed>(.*)$", text)
        if r:
            text = pending.pop(pid, "") + r.group(1)
        c = CALL.match(text)
        if c:
            yield c.group(1), split_args(c.group(2)), int(c.group(3))


def split_args(s):
    """Top-level comma-separated arguments; strings unquoted."""
    args, cur, quoted, depth = [], "", False, 0
    i = 0
    while i < len(s):
        ch = s[i]
        if quoted:
            if ch == "\\" and i + 1 < len(s):
                cur += s[i + 1]
                i += 2
                continue
            if ch == '"':
                quoted = False
            else:
                cur += ch
        elif ch == '"':
            quoted = True
        elif ch in "<[{(":
            depth += 1
            cur += ch
        elif ch in ">]})":
            depth -= 1
            cur += ch
        elif ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    if cur.strip():
        args.append(cur.strip())
    return args


def at(dirfd, path):
    if os.path.isabs(path):
        return os.path.normpath(path)
    m = FD.match(dirfd)
    return os.path.normpath(os.path.join(m.group(1) if m else "/", path))


def fd_path(arg):
    m = FD.match(arg)
    return m.group(1) if m else None


class Trace:
    def __init__(self, path):
        self.syncs = []      # (t, path); path None: syncfs, all of them
        self.created = {}    # path: when it was made (openat O_CREAT)
        self.renames = []    # (t, old, new, exchange)
        self.entries = []    # (t, directory, name made): rename/link/...
        self.links = []      # (t, old, new): hard links
        for t, (call, a, rc) in enumerate(events(path)):
            if rc < 0:
                continue
            if call in ("fsync", "fdatasync"):
                self.syncs.append((t, fd_path(a[0])))
            elif call == "syncfs":
                self.syncs.append((t, None))
            elif call == "openat" and "O_CREAT" in a[2]:
                self.created.setdefault(at(a[0], a[1]), t)
            elif call == "rename":
                self.rename(t, os.path.normpath(a[0]), os.path.normpath(a[1]), False)
            elif call in ("renameat", "renameat2"):
                exchange = len(a) > 4 and "RENAME_EXCHANGE" in a[4]
                self.rename(t, at(a[0], a[1]), at(a[2], a[3]), exchange)
            elif call == "link":
                self.entries.append((t, os.path.dirname(os.path.normpath(a[1])), a[1]))
                self.links.append((t, os.path.normpath(a[0]), os.path.normpath(a[1])))
            elif call == "linkat":
                new = at(a[2], a[3])
                self.entries.append((t, os.path.dirname(new), new))
            elif call == "symlink":
                self.entries.append((t, os.path.dirname(os.path.normpath(a[1])), a[1]))
            elif call == "symlinkat":
                new = at(a[1], a[2])
                self.entries.append((t, os.path.dirname(new), new))
            elif call == "mkdir":
                new = os.path.normpath(a[0])
                self.entries.append((t, os.path.dirname(new), new))
            elif call == "mkdirat":
                new = at(a[0], a[1])
                self.entries.append((t, os.path.dirname(new), new))

    def rename(self, t, old, new, exchange):
        self.renames.append((t, old, new, exchange))
        self.entries.append((t, os.path.dirname(new), new))
        if exchange:
            self.entries.append((t, os.path.dirname(old), old))

    def synced(self, path, after=-1, before=None):
        """The first time path was fsync'ed in (after, before), or None."""
        after = max(after, self.created.get(path, -1))
        for t, p in self.syncs:
            if p in (path, None) and t > after and (before is None or t < before):
                return t
        return None


def is_index(path):
    return os.path.basename(path).startswith("Packages")


def main():
    trace, root = Trace(sys.argv[1]), os.path.normpath(sys.argv[2])
    zcache = os.path.join(root, "db", "zcache") + "/"
    stored = os.path.join(root, "db", "indices", "files") + "/"
    bad, n = [], {"files": 0, "dirs": 0, "pool": 0, "indices": 0, "suites": 0}
    suite_moves = [r for r in trace.renames if os.path.isdir(r[2]) or r[3]]
    file_renames = [r for r in trace.renames if r not in suite_moves]

    # 1. data before the name
    for t, old, new, _ in file_renames:
        if new.startswith(zcache):
            continue
        n["files"] += 1
        if trace.synced(old, before=t) is None:
            bad.append("1: %s renamed to %s unsynced" % (old, new))
    # 2. names made are synced after
    dir_synced = {}
    for t, d, new in trace.entries:
        if (new + "/").startswith(zcache) or new == os.path.join(root, "db", "cache"):
            continue
        n["dirs"] += 1
        s = trace.synced(d, after=t)
        if s is None:
            bad.append("2: the directory %s (new name %s) never synced "
                       "after" % (d, new))
        dir_synced[new] = s
    # 3. pool files before an index or a members list names them
    namers = [t for t, old, new, _ in file_renames
              if is_index(new) or (new.startswith(os.path.join(root, "db"))
                                   and new.endswith((".list", ".list.log")))]
    for t, old, new, _ in file_renames:
        if not new.startswith(os.path.join(root, "pool") + "/"):
            continue
        n["pool"] += 1
        done = dir_synced.get(new)
        late = [u for u in namers if done is None or u < done]
        if late:
            bad.append("3: %s is named by an index or list (event %d) "
                       "before its directory is synced (%s)" % (new, late[0], done))
    # 4. indices before Release
    for t, old, new, _ in file_renames:
        if os.path.basename(new) not in ("Release", "InRelease", "Release.gpg"):
            continue
        tree = os.path.dirname(new)
        for u, o, idx, _ in file_renames:
            if not (is_index(idx) and idx.startswith(tree + "/")):
                continue
            n["indices"] += 1
            if trace.synced(o, before=t) is None:
                bad.append("4: %s renamed before %s was synced" % (new, idx))
        # an index linked from the store of published ones (db/indices/files)
        # was synced when first written; one linked from elsewhere must be
        # synced in this run
        for u, o, idx in trace.links:
            if not (is_index(idx) and idx.startswith(tree + "/")):
                continue
            n["indices"] += 1
            if not o.startswith(stored) and trace.synced(o, before=t) is None:
                bad.append("4: %s renamed before %s (linked) was synced" % (new, idx))
    # 5. the suite's directories before the exchange, dists/ after
    for t, old, new, exchange in suite_moves:
        n["suites"] += 1
        for u, d, name in trace.entries:
            if u < t and (d == old or d.startswith(old + "/")) and \
                    trace.synced(d, after=u, before=t) is None:
                bad.append("5: %s not synced before the exchange, after %s" % (d, name))
        if trace.synced(os.path.dirname(new), after=t) is None:
            bad.append("5: %s not synced after the exchange" % os.path.dirname(new))
    for b in bad:
        print("not synced in order: " + b)
    print("checked: %(files)d files renamed into place, %(dirs)d new names, "
          "%(pool)d pool files, %(indices)d index listings, %(suites)d suite "
          "exchanges" % n)
    sys.exit(1 if bad else 0)


main()
