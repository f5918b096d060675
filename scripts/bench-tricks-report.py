"""Writes the "Which speed tricks matter" section of bench/results.md from
the logs scripts/bench-tricks.sh leaves in bench/cache/tricks-logs, in place
of the section already there (or at the end). bench-tricks.sh runs it; run
it alone to put the section back after bench.sh wrote results.md anew:

    python3 scripts/bench-tricks-report.py [LOGS [RESULTS]]
"""
import glob
import json
import os
import statistics
import sys
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
logs = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "bench/cache/tricks-logs")
results = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "bench/results.md")
# What the run was: written by bench-tricks.sh beside its logs.
params = dict(line.split("=", 1) for line in open(f"{logs}/params").read().split())
width, height, runs, cores, commit = params["width"], params["height"], params["rounds"], params["cores"], params["commit"].replace("_", " ")
measured = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(os.path.getmtime(f"{logs}/params")))
def gather(kind):
    """Every round's time of each variant, by name, in the variants' order."""
    times = {}
    for path in sorted(glob.glob(f"{logs}/{kind}-*.json")):
        for result in json.load(open(path))["results"]:
            times.setdefault(result["command"], []).extend(result["times"])
    return times
cold, edit = gather("cold"), gather("edit")
names = [line.split("|")[0] for line in open(f"{logs}/variants").read().splitlines()]
rss = [int(open(f"{logs}/rss-{i}").read().split()[-1]) / 1024 for i in range(len(names))]
def med(times): return statistics.median(times)
base_cold, base_edit, base_rss = med(cold[names[0]]), med(edit[names[0]]), rss[0]
def pct(x, base): return f"{(x / base - 1) * 100:+.1f}%"
lines = [
    "<!-- tricks:begin (scripts/bench-tricks.sh writes this section) -->",
    "## Which speed tricks matter",
    "",
    f"- measured: {measured}; mcpack commit {commit}; master {width} x {height} px; {cores} cores",
    f"- each row turns one trick off (Tests/Tuning, BuildTuning); medians of {runs} rounds of cold builds and 5 of",
    "  one-clause rebuilds (hyperfine), every variant once a round, its place in the round moving on each",
    "  round; peak RSS from one more cold build each (GNU time).",
    "  A positive change is what the trick saves. For scale, the noise: every trick on, cold builds ranged "
    f"{min(cold[names[0]]):.2f}-{max(cold[names[0]]):.2f} s and one-clause rebuilds {min(edit[names[0]]):.2f}-{max(edit[names[0]]):.2f} s over the rounds.",
    "",
    "| with this trick off | cold build | change | peak RSS | change | one-clause rebuild | change |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
]
for name, r in zip(names, rss):
    c, e = med(cold[name]), med(edit[name])
    if name == names[0]:
        lines.append(f"| ({name}) | {c:.2f} s | | {r:.0f} MB | | {e:.2f} s | |")
    else:
        lines.append(f"| {name} | {c:.2f} s | {pct(c, base_cold)} | {r:.0f} MB | {pct(r, base_rss)} | "
                     f"{e:.2f} s | {pct(e, base_edit)} |")
lines.append("<!-- tricks:end -->")
section = "\n".join(lines) + "\n"
text = open(results).read() if os.path.exists(results) else ""
begin, end = text.find("<!-- tricks:begin"), text.find("<!-- tricks:end -->")
if begin >= 0 and end > begin:
    text = text[:begin] + section + text[end + len("<!-- tricks:end -->\n"):]
else:
    text = text.rstrip("\n") + ("\n\n" if text else "") + section
open(results, "w").write(text)
print(section)
