#!/usr/bin/env python3
"""Where a command's peak resident memory goes (Linux, for make bench).

usage: peak-split.py OUT.json COMMAND [ARG...]

Runs COMMAND (its output to /dev/null) and reads /proc/PID/smaps_rollup
every 20 ms; at the highest Rss seen it splits it into anonymous memory
(heap, thread stacks: what the program allocated) and file-backed pages
(the code and read-only data of the program and its libraries, mapped from
their files), and counts the program's own file among the latter. GNU
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


def own_file_kib(pid, smaps):
    """Resident KiB of the mappings of the program's own executable."""
    try:
        exe = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return 0
    total, mine = 0, False
    for line in smaps.splitlines():
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            mine = line.rstrip().endswith(" " + exe)
        elif mine and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total


def main():
    out, command = sys.argv[1], sys.argv[2:]
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = {"rss": 0}
    while child.poll() is None:
        try:
            rollup = open(f"/proc/{child.pid}/smaps_rollup").read()
            rss = kib(rollup, "Rss")
            if rss > peak["rss"]:
                anonymous = kib(rollup, "Anonymous")
                smaps = open(f"/proc/{child.pid}/smaps").read()
                peak = {"rss": rss, "anonymous": anonymous, "file": rss - anonymous,
                        "own_file": own_file_kib(child.pid, smaps)}
        except (OSError, ValueError):
            pass  # not started yet, or just ended
        time.sleep(0.02)
    with open(out, "w") as f:
        json.dump(peak, f)
    sys.exit(child.returncode)


main()
