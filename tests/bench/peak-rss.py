#!/usr/bin/env python3
"""Runs a command and prints 'WALL_SECONDS PEAK_RSS_KIB' on stderr's last
line: wall time, and the peak of the summed resident set of the command and
all its descendants (dpkg-deb runs tar and its compressor as separate
processes), sampled every 10 ms from /proc. The command is waited for on a
thread of its own, so its end is timed exactly, not to the next sample."""
import os
import subprocess
import sys
import threading
import time


def children_map():
    kids = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(pid))
    return kids


def rss_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss(root):
    kids, total, todo = children_map(), 0, [root]
    while todo:
        pid = todo.pop()
        total += rss_kib(pid)
        todo.extend(kids.get(pid, []))
    return total


def main():
    ended = {}

    def wait(proc):
        proc.wait()
        ended["at"] = time.monotonic()

    start = time.monotonic()
    proc = subprocess.Popen(sys.argv[1:])
    waiter = threading.Thread(target=wait, args=(proc,))
    waiter.start()
    peak = 0
    while waiter.is_alive():
        peak = max(peak, tree_rss(proc.pid))
        waiter.join(0.01)
    wall = ended["at"] - start
    if proc.returncode:
        sys.exit(proc.returncode)
    print("%.3f %d" % (wall, peak), file=sys.stderr)


if __name__ == "__main__":
    main()
