#!/usr/bin/env python3
"""Where a command's peak resident memory goes (Linux, for make bench).

usage: peak-split.py OUT.json COMMAND [ARG...]

Runs COMMAND (its output to OUT.out, beside OUT.json) and reads /proc/PID/smaps_rollup
every 20 ms; at the highest Rss seen it splits it into anonymous memory
(heap, thread stacks: what the program allocated) and file-backed pages
(the code and read-only data of the program and its libraries, mapped from
their files). The program's own file's resident pages, from the full
reading of smaps (once a second) whose total was the highest, are counted
among the latter: not the most seen in any reading, since a build unmaps
the code it ran before its tiling, the peak. GNU
time's maximum resident set size is the same total, but cannot say which
part grew. A sample can miss the very top by a few MB; the split, not the
total, is what this is for. Exits with COMMAND's status.
"""
import json
import os
import re
import subprocess
import sys
import time


def kib(text, field):
    found = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else 0


def split(pid, smaps):
    """Resident, anonymous and the program's own file's KiB, summed over
    the mappings of one reading of smaps."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        exe = None
    rss = anonymous = own = 0
    mine = False
    for line in smaps.splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            mine = exe is not None and line.rstrip().endswith(" " + exe)
        elif line.startswith("Rss:"):
            kb = int(line.split()[1])
            rss += kb
            if mine:
                own += kb
        elif line.startswith("Anonymous:"):
            anonymous += int(line.split()[1])
    return {"rss": rss, "anonymous": anonymous, "file": rss - anonymous, "own_file": own}


def main():
    out, command = sys.argv[1], sys.argv[2:]
    log = open(os.path.splitext(out)[0] + ".out", "w")
    child = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    peak = {"rss": 0, "anonymous": 0, "file": 0, "own_file": 0}
    # Reading the whole smaps holds the process's memory map locked for a
    # while: read at every new high (every 20 ms while memory grows), it
    # stalled the build, and some runs then peaked 35 to 140 MB higher than
    # under GNU time. So the totals come from smaps_rollup, and the
    # program's own pages from a full reading at most once a second.
    last_full = 0.0
    highest_full = 0
    while child.poll() is None:
        try:
            rollup = open(f"/proc/{child.pid}/smaps_rollup").read()
            rss, anonymous = kib(rollup, "Rss"), kib(rollup, "Anonymous")
            if rss > peak["rss"]:
                peak.update(rss=rss, anonymous=anonymous, file=rss - anonymous)
            if time.monotonic() - last_full >= 1.0:
                last_full = time.monotonic()
                found = split(child.pid, open(f"/proc/{child.pid}/smaps").read())
                if found["rss"] > highest_full:
                    highest_full = found["rss"]
                    peak["own_file"] = found["own_file"]
        except (OSError, ValueError):
            pass  # not started yet, or just ended
        time.sleep(0.02)
    with open(out, "w") as f:
        json.dump(peak, f)
    sys.exit(child.returncode)


main()
