#!/usr/bin/env python3
"""Which pages a command holds at its peak resident size (Linux, root).

usage: resident-pages.py [--out PREFIX] [--cwd DIR] [--interval S] [--step-kb N]
                         [--elf PATH] -- COMMAND [ARG...]
       resident-pages.py --faults PERF.DATA --elf PATH [--touching REGEX]
          (PERF.DATA from `perf record -e page-faults -c 1 -d -g -- setarch -R CMD`)

peak-split.py (make bench) says *how much* of a peak is anonymous and how
much file-backed, not *which* pages, so it cannot tell ICU data touched
for nothing from code that must run, nor a libvips buffer from a Swift
heap of tile records; this says which.

With --faults it reads a perf record of every page fault instead: the
pages that faulted are the least the program really touched (each fault
maps a whole 64 KiB window), and the call stacks of the faults in the
symbols matching --touching (ICU's data and code by default) say which of
the program's own functions pulled them in.

Writes PREFIX.json (every snapshot's mappings, the peak's page bits) and
PREFIX.txt (the report: mappings by kind, the program's own file by ELF
section, by owner (archive or Swift module) and by symbol, the ICU data
blob by the ICU item its pages hold, and an estimate of fault-around).
"""
import argparse
import bisect
import collections
import json
import os
import re
import signal
import struct
import subprocess
import sys
import time

PAGE = 4096
# The kernel's fault-around window (fault_around_bytes, debugfs; 64 KiB by
# default, measured so on this kernel): a read fault on a file mapping maps
# every neighbour already in the page cache within the aligned window, so a
# resident page need not have been read by the program.
FAULT_AROUND = 64 * 1024

# The static archives the toolchain links with --static-swift-stdlib. A
# symbol's archive names its owner more truly than its spelling: ICU's C
# functions (u_*, ucol_*) and CoreFoundation's do not carry a module name.
TOOLCHAIN_STATIC = "/opt/swift/usr/lib/swift_static/linux"


def kib(text, field):
    found = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else 0


HEADER = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) ([0-9a-f]+) \S+ (\d+)\s*(.*)$")


def parse_smaps(text):
    maps, cur = [], None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            cur = {"start": int(m.group(1), 16), "end": int(m.group(2), 16), "perms": m.group(3),
                   "offset": int(m.group(4), 16), "inode": int(m.group(5)), "path": m.group(6).strip(), "kb": {}}
            maps.append(cur)
        elif cur is not None and ":" in line:
            k, _, v = line.partition(":")
            v = v.strip()
            if v.endswith(" kB"):
                cur["kb"][k] = int(v[:-3])
    return maps


def stop(pid):
    # smaps and pagemap read while the process runs show a map that moves
    # under the reader, and a full smaps read holds mmap_lock long enough
    # to stall the build's page faults (peak-split.py saw peaks 35-140 MB
    # higher): a stopped process is both consistent and cheap to read.
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + 0.5
    while time.monotonic() < deadline:
        try:
            states = [open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()[0]
                      for t in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            return
        if all(s in "TtZX" for s in states):
            return
        time.sleep(0.002)


def snapshot(pid, exe_hint):
    exe = exe_hint or os.readlink(f"/proc/{pid}/exe")
    smaps = parse_smaps(open(f"/proc/{pid}/smaps").read())
    own = [m for m in smaps if m["path"] == exe]
    pages = {}
    if own:
        base = min(m["start"] for m in own if m["offset"] == 0)
        lo, hi = base, max(m["end"] for m in own)
        # The .bss tail past the file is an anonymous mapping just after the
        # last file mapping: part of the program's image all the same.
        region = own + [m for m in smaps if not m["path"] and any(o["end"] == m["start"] for o in own)]
        with open(f"/proc/{pid}/pagemap", "rb") as pm:
            for m in region:
                n = (m["end"] - m["start"]) // PAGE
                pm.seek((m["start"] // PAGE) * 8)
                raw = pm.read(n * 8)
                ents = struct.unpack(f"{len(raw) // 8}Q", raw)
                for i, e in enumerate(ents):
                    if e >> 63 & 1:
                        # bit 61: a page-cache (file) page; clear on a present
                        # page of a private file mapping means a COW copy:
                        # anonymous memory charged to the binary's image.
                        pages[(m["start"] - base) // PAGE + i] = "file" if e >> 61 & 1 else "anon"
    else:
        base = None
    return {"exe": exe, "base": base, "smaps": smaps, "pages": pages}


def kind(m, exe):
    p = m["path"]
    if p == exe:
        return "own file " + ("(anon COW)" if m["kb"].get("Anonymous") else "")
    if p.startswith("["):
        return p
    if p:
        return "file " + os.path.basename(p)
    return "anon mmap"


# --- the ELF side -----------------------------------------------------------

def sections(elf):
    out = []
    for line in subprocess.run(["readelf", "-SW", elf], capture_output=True, text=True).stdout.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+\S+\s+(\S*)\s", line)
        if m and "A" in m.group(6) and int(m.group(5), 16):
            out.append((int(m.group(3), 16), int(m.group(5), 16), m.group(1)))
    return sorted(out)


def symbols(elf):
    syms = []
    nm = subprocess.run(["nm", "-S", "-n", "--defined-only", elf], capture_output=True, text=True).stdout
    for line in nm.splitlines():
        p = line.split(None, 3)
        if len(p) == 4:
            a, s = int(p[0], 16), int(p[1], 16)
            if s:
                syms.append((a, a + s, p[3]))
    syms.sort()
    # Aliases and nested symbols would count one byte twice: clip each to
    # start where the one before it ends.
    flat, end = [], 0
    for a, b, n in syms:
        a = max(a, end)
        if b > a:
            flat.append((a, b, n))
            end = b
    return flat


def archive_owners():
    owners = {}
    if not os.path.isdir(TOOLCHAIN_STATIC):
        return owners
    for lib in sorted(os.listdir(TOOLCHAIN_STATIC)):
        if not lib.endswith(".a"):
            continue
        out = subprocess.run(["nm", "--defined-only", "-A", os.path.join(TOOLCHAIN_STATIC, lib)],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            p = line.rsplit(" ", 1)
            if len(p) == 2:
                owners.setdefault(p[1], lib)
    return owners


SWIFT_MOD = re.compile(r"^\$s(\d+)([A-Za-z_][A-Za-z0-9_]*)")


def owner(name, archives):
    if name in archives:
        return archives[name].replace(".a", "")
    m = SWIFT_MOD.match(name)
    if m:
        return "swift:" + m.group(2)[: int(m.group(1))]
    if name.startswith("$s"):
        return "swift:stdlib(substitution)"
    if name.startswith("CCryptoBoringSSL"):
        return "BoringSSL (swift-crypto)"
    if name.startswith("_ZN4toml") or "toml" in name.lower():
        return "toml++ (TOMLKit)"
    if name.startswith("mcvips_"):
        return "CVipsShim"
    return "other"


def icu_items(elf, sym_addr, sym_end, secs):
    """The ICU common data's table of contents: (start, end, item name)
    as ELF addresses, so a resident page names the ICU data it holds."""
    off = None
    for line in subprocess.run(["readelf", "-lW", elf], capture_output=True, text=True).stdout.splitlines():
        p = line.split()
        if p and p[0] == "LOAD":
            o, v, fs = int(p[1], 16), int(p[2], 16), int(p[4], 16)
            if v <= sym_addr < v + fs:
                off = o + (sym_addr - v)
    if off is None:
        return []
    with open(elf, "rb") as f:
        f.seek(off)
        blob = f.read(sym_end - sym_addr)
    header = struct.unpack_from("<H", blob, 0)[0]
    count = struct.unpack_from("<I", blob, header)[0]
    items = []
    for i in range(count):
        name_off, data_off = struct.unpack_from("<II", blob, header + 4 + 8 * i)
        name = blob[header + name_off: blob.index(b"\0", header + name_off)].decode()
        items.append((sym_addr + header + data_off, name))
    items.sort()
    out = []
    for i, (a, n) in enumerate(items):
        b = items[i + 1][0] if i + 1 < len(items) else sym_end
        out.append((a, b, n))
    # The header and the TOC itself, read by every lookup.
    out.insert(0, (sym_addr, items[0][0] if items else sym_end, "(header + table of contents)"))
    return out


def spread(pages, intervals, label=lambda n: n):
    """Resident bytes of each interval (start, end, name): a page split by
    the bytes each interval holds of it; bytes of no interval go to None."""
    starts = [a for a, _, _ in intervals]
    acc = collections.Counter()
    for pg, how in pages.items():
        lo, hi = pg * PAGE, pg * PAGE + PAGE
        i = max(bisect.bisect_right(starts, lo) - 1, 0)
        covered = 0
        while i < len(intervals) and intervals[i][0] < hi:
            a, b, n = intervals[i]
            o = min(b, hi) - max(a, lo)
            if o > 0:
                acc[(label(n), how)] += o
                covered += o
            i += 1
        if covered < PAGE:
            acc[(None, how)] += PAGE - covered
    return acc


def mb(b):
    return b / 1048576


def report(snap, peak_rollup, elf, out):
    exe = snap["exe"]
    w = out.write
    w(f"peak (smaps_rollup): Rss {peak_rollup['rss'] / 1024:.1f} MB, Anonymous {peak_rollup['anon'] / 1024:.1f} MB\n")
    rss = sum(m["kb"].get("Rss", 0) for m in snap["smaps"])
    w(f"snapshot used: Rss {rss / 1024:.1f} MB at t={snap['t']:.1f}s\n\n")

    w("== mappings by kind at the snapshot (MB) ==\n")
    by = collections.defaultdict(lambda: [0, 0, 0, 0])
    for m in snap["smaps"]:
        k = kind(m, exe)
        if not m["path"]:
            size = m["end"] - m["start"]
            # Thread stacks: glibc puts a guard page (---p) just below each;
            # arenas are 64 MiB-aligned reservations mostly PROT_NONE.
            k = "anon mmap (%s)" % ("64MiB-class arena/reservation" if size >= 60 << 20 else
                                     "8 MiB-class (thread stack?)" if 7 << 20 <= size <= 9 << 20 else
                                     ">=1 MiB" if size >= 1 << 20 else "<1 MiB")
        e = by[k]
        e[0] += m["kb"].get("Rss", 0)
        e[1] += m["kb"].get("Anonymous", 0)
        e[2] += 1
        e[3] += (m["end"] - m["start"]) // 1024
    w(f"{'kind':45s} {'Rss':>8s} {'Anon':>8s} {'n':>4s} {'Vsize':>9s}\n")
    for k, e in sorted(by.items(), key=lambda x: -x[1][0]):
        if e[0]:
            w(f"{k[:45]:45s} {e[0] / 1024:8.1f} {e[1] / 1024:8.1f} {e[2]:4d} {e[3] / 1024:9.1f}\n")

    w("\n== largest single mappings (Rss MB) ==\n")
    for m in sorted(snap["smaps"], key=lambda m: -m["kb"].get("Rss", 0))[:25]:
        w(f"{m['start']:x}-{m['end']:x} {m['perms']} {mb(m['end'] - m['start']):8.1f}MB virt "
          f"Rss {m['kb'].get('Rss', 0) / 1024:7.1f} Anon {m['kb'].get('Anonymous', 0) / 1024:7.1f} {m['path']}\n")

    pages = snap["pages"]
    if not pages:
        return
    secs = sections(elf)
    w(f"\n== {os.path.basename(elf)}: resident pages by ELF section (MB) ==\n")
    acc = spread(pages, [(a, a + s, n) for a, s, n in secs])
    names = [n for _, _, n in secs] + [None]
    size = {n: s for _, s, n in secs}
    w(f"{'section':30s} {'size':>8s} {'file':>8s} {'anon':>8s} {'>=touched':>9s}\n")
    tf = ta = 0
    # One page per 64 KiB window that holds any resident file page is the
    # least that was really read; the rest may be fault-around neighbours.
    windows = collections.defaultdict(set)
    for pg, how in pages.items():
        if how == "file":
            for a, s, n in secs:
                if a <= pg * PAGE < a + s:
                    windows[n].add(pg * PAGE // FAULT_AROUND)
                    break
    for n in names:
        f, a = acc.get((n, "file"), 0), acc.get((n, "anon"), 0)
        tf += f
        ta += a
        if f or a:
            w(f"{str(n):30s} {mb(size.get(n, 0)):8.2f} {mb(f):8.2f} {mb(a):8.2f} {mb(len(windows[n]) * PAGE):9.2f}\n")
    w(f"{'total':30s} {'':8s} {mb(tf):8.2f} {mb(ta):8.2f}\n")

    syms = symbols(elf)
    archives = archive_owners()
    big = [(a, s, n) for a, s, n in secs if s >= 256 * 1024 or n.startswith("swift5")]
    for a, s, n in big:
        sub = {p: h for p, h in pages.items() if a <= p * PAGE < a + s}
        if not sub:
            continue
        inside = [x for x in syms if a <= x[0] < a + s]
        acc_o = spread(sub, inside, lambda nm: owner(nm, archives))
        tot = sum(acc_o.values())
        w(f"\n-- {n}: {mb(tot):.2f} MB resident, by owner --\n")
        for (o, how), b in sorted(acc_o.items(), key=lambda x: -x[1])[:15]:
            w(f"  {mb(b):7.2f} {how:4s} {o}\n")
        acc_s = spread(sub, inside)
        w(f"  top symbols:\n")
        for (o, how), b in sorted(acc_s.items(), key=lambda x: -x[1])[:12]:
            w(f"  {mb(b):7.2f} {how:4s} {str(o)[:110]}\n")

    icu = [x for x in syms if re.match(r"icudt\d+_dat$", x[2])]
    if icu:
        a, b, n = icu[0]
        items = icu_items(elf, a, b, secs)
        sub = {p: h for p, h in pages.items() if a <= p * PAGE < b}
        acc_i = spread(sub, items)
        w(f"\n== ICU data {n}: {mb(b - a):.1f} MB, resident {mb(len(sub) * PAGE):.2f} MB "
          f"(>= {mb(len({p * PAGE // FAULT_AROUND for p in sub}) * PAGE):.2f} MB touched) ==\n")
        for (o, how), by in sorted(acc_i.items(), key=lambda x: -x[1])[:40]:
            w(f"  {by / 1024:9.1f} KB {how:4s} {o}\n")


def faults(perf_data, elf, touching, out):
    """Pages of `elf` that faulted, by section, and who faulted the
    symbols matching `touching`."""
    text = subprocess.run(["perf", "script", "-i", perf_data, "--show-mmap-events", "-F", "comm,tid,addr,ip,sym,dso"],
                          capture_output=True, text=True).stdout
    real = os.path.realpath(elf)
    base = None
    for m in re.finditer(r"PERF_RECORD_MMAP2 .*?\[(0x[0-9a-f]+)\(0x[0-9a-f]+\) @ (0x[0-9a-f]+|0) .*?\]: \S+ (\S+)", text):
        if base is None and os.path.realpath(m.group(3)) == real and int(m.group(2), 16) == 0:
            base = int(m.group(1), 16)
    if base is None:
        sys.exit(f"no mapping of {elf} at offset 0 in {perf_data}")
    secs = sections(elf)
    syms = symbols(elf)
    starts = [a for a, _, _ in syms]
    archives = archive_owners()
    end = max(a + s for a, s, _ in secs)
    pages = collections.defaultdict(set)
    stacks = collections.defaultdict(collections.Counter)
    pat = re.compile(touching)
    # perf script prints a sample's header line, then its call chain
    # indented, then a blank line.
    for block in text.split("\n\n"):
        lines = [l for l in block.splitlines() if l.strip() and "PERF_RECORD" not in l]
        if not lines:
            continue
        head = lines[0].split()
        if len(head) < 3:
            continue
        try:
            addr = int(head[2], 16) - base
        except ValueError:
            continue
        if not 0 <= addr < end:
            continue
        sec = next((n for a, s, n in secs if a <= addr < a + s), None)
        pages[sec].add(addr // PAGE)
        i = bisect.bisect_right(starts, addr) - 1
        sym = syms[i][2] if i >= 0 and syms[i][0] <= addr < syms[i][1] else ""
        if sym and pat.search(sym):
            frames = [l.strip().split(None, 1)[1].rsplit(" (", 1)[0] for l in lines[1:] if len(l.strip().split(None, 1)) == 2]
            # The first frame of the program's own Swift modules: not a
            # toolchain archive's, not a package dependency's spelling.
            own = next((f for f in frames if SWIFT_MOD.match(f) and f not in archives
                        and owner(f, archives).split(":")[-1] not in ("ArgumentParser", "TOMLKit", "Mustache", "Crypto")), None)
            stacks[own][" <- ".join(frames[:8])] += 1
    w = out.write
    w(f"== {os.path.basename(elf)}: pages that faulted, by section (the least really touched) ==\n")
    for n, p in sorted(pages.items(), key=lambda x: -len(x[1])):
        w(f"{str(n):30s} {len(p):6d} pages {mb(len(p) * PAGE):7.2f} MB\n")
    w(f"\n== faults in symbols matching {touching!r}, by the program's own caller ==\n")
    for own, c in sorted(stacks.items(), key=lambda x: -sum(x[1].values())):
        w(f"\n{sum(c.values()):5d} faults under {own}\n")
        for st, k in c.most_common(4):
            w(f"   {k:4d}  {st[:400]}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="resident")
    ap.add_argument("--cwd")
    ap.add_argument("--interval", type=float, default=0.05)
    ap.add_argument("--step-kb", type=int, default=1024,
                    help="take a new full snapshot when Rss passes the last by this much")
    ap.add_argument("--elf", help="the ELF file to map pages to (default: /proc/PID/exe)")
    ap.add_argument("--faults", metavar="PERF.DATA", help="analyse a perf record of page faults instead of running")
    ap.add_argument("--touching", default=r"^icudt|icu_\d+|_\d\d$",
                    help="symbols whose faults get call stacks (default: ICU's data and code)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    if args.faults:
        if not args.elf:
            sys.exit("--faults needs --elf")
        faults(args.faults, args.elf, args.touching, sys.stdout)
        return
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    log = open(args.out + ".out", "w")
    t0 = time.monotonic()
    child = subprocess.Popen(cmd, cwd=args.cwd, stdout=log, stderr=subprocess.STDOUT)
    series, snaps, best = [], [], 0
    peak = {"rss": 0, "anon": 0}
    stops = 0.0
    while child.poll() is None:
        try:
            roll = open(f"/proc/{child.pid}/smaps_rollup").read()
            rss, anon = kib(roll, "Rss"), kib(roll, "Anonymous")
            t = time.monotonic() - t0
            series.append((round(t, 3), rss, anon))
            if rss > peak["rss"]:
                peak = {"rss": rss, "anon": anon, "t": t}
            # The wrapper (nice, setarch) has exec'd into the program once
            # /proc/PID/exe is no longer the wrapper's.
            exe = os.readlink(f"/proc/{child.pid}/exe")
            if rss > best + args.step_kb and (args.elf is None or os.path.realpath(args.elf) == exe):
                s0 = time.monotonic()
                stop(child.pid)
                try:
                    snap = snapshot(child.pid, exe)
                finally:
                    os.kill(child.pid, signal.SIGCONT)
                stops += time.monotonic() - s0
                snap["t"] = t
                snap["rss"] = sum(m["kb"].get("Rss", 0) for m in snap["smaps"])
                if snap["rss"] > best:
                    best = snap["rss"]
                    snaps = [snap]  # only the highest is kept: pages of a 100 MB binary add up
        except (OSError, ValueError, ProcessLookupError):
            pass
        time.sleep(args.interval)
    if not snaps:
        print("no snapshot taken", file=sys.stderr)
        sys.exit(child.returncode or 1)
    snap = snaps[0]
    elf = args.elf or snap["exe"]
    with open(args.out + ".txt", "w") as out:
        out.write(f"command: {' '.join(cmd)}\nexit {child.returncode}; wall {time.monotonic() - t0:.1f}s, "
                  f"{stops:.2f}s stopped for snapshots\n")
        report(snap, peak, elf, out)
    with open(args.out + ".json", "w") as f:
        json.dump({"peak": peak, "series": series,
                   "snapshot": {k: v for k, v in snap.items() if k != "pages"},
                   "pages": sorted(snap["pages"].items())}, f)
    print(open(args.out + ".txt").read())
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
