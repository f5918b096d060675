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
names = [line.split("|")[0] for line in open(f"{logs}/variants").read().splitlines()]
rss = [int(open(f"{logs}/rss-{i}").read().split()[-1]) / 1024 for i in range(len(names))]
# The timed measures, in the table's order: (log kind, column).
measures = [(kind, label) for kind, label in [
    ("cold", "cold build"), ("nochange", "rebuild, nothing changed"),
    ("launch", "rebuild, launch screens made again"), ("edit", "rebuild, one clause edited"),
] if glob.glob(f"{logs}/{kind}-*.json")]
times = {kind: gather(kind) for kind, _ in measures}
def med(values): return statistics.median(values)
def pct(x, base): return f"{(x / base - 1) * 100:+.1f}%"
def fmt(seconds): return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.0f} ms"
base = names[0]
rounds = {kind: len(glob.glob(f"{logs}/{kind}-*.json")) for kind, _ in measures}
noise = "; ".join(f"{label} {fmt(min(times[kind][base]))}-{fmt(max(times[kind][base]))}" for kind, label in measures)
lines = [
    "<!-- tricks:begin (scripts/bench-tricks.sh writes this section) -->",
    "## Which speed tricks matter",
    "",
    f"- measured: {measured}; mcpack commit {commit}; master {width} x {height} px; {cores} cores",
    "- each row turns one trick off (Tests/Tuning, BuildTuning); medians over rounds (hyperfine): "
    + ", ".join(f"{rounds[kind]} of {label}" for kind, label in measures) + ";",
    "  every variant once a round, its place in the round moving on each round; peak RSS from one more",
    "  cold build each (GNU time)."
    + (" The launch rebuild removes only the launch cache entry (the same bytes come out, so the"
       "\n  archive is not written again)." if "launch" in times else "")
    + " A positive change is what the trick saves.",
    f"- for scale, the noise: every trick on, over the rounds: {noise}.",
    "",
    f"| with this trick off | {measures[0][1]} | change | peak RSS | change | "
    + " | ".join(f"{label} | change" for _, label in measures[1:]) + " |",
    "| --- |" + " ---: | ---: |" * (len(measures) + 1),
]
order = [measures[0], ("rss", "peak RSS")] + measures[1:]
def value(kind, name):
    return rss[names.index(name)] if kind == "rss" else med(times[kind][name])
for name in names:
    cells = []
    for kind, _ in order:
        v = value(kind, name)
        shown = f"{v:.0f} MB" if kind == "rss" else fmt(v)
        cells += [shown, "" if name == base else pct(v, value(kind, base))]
    lines.append(f"| {'(' + name + ')' if name == base else name} | " + " | ".join(cells) + " |")
# Each round times every variant once, so a variant is compared with the
# every-trick-on build of its own round (a drift of the machine's speed
# between rounds then cancels). A trick shows on a timed figure when the
# build without it was slower in at least four rounds of five (every round
# of three) and slower in the median; on peak RSS (one run each) when it is
# more than 2% higher. A shared machine's noise is of the size of the
# smaller tricks' effects: a single run is one sample, repeated runs decide.
def rounds_slower(kind, name):
    slower = 0
    for path in sorted(glob.glob(f"{logs}/{kind}-*.json")):
        round_times = {r["command"]: statistics.median(r["times"]) for r in json.load(open(path))["results"]}
        slower += round_times[name] > round_times[base]
    return slower
lines += ["", "What this run shows each trick is worth (a timed figure counts when the build with the trick off "
          "was slower than the build with every trick on of the same round in at least 80% of the rounds, and in "
          "the median; peak RSS when more than 2% higher):", ""]
for name in names[1:]:
    shown = []
    for kind, label in order:
        if kind == "rss":
            if value(kind, name) > value(kind, base) * 1.02:
                shown.append(f"{label} {pct(value(kind, name), value(kind, base))}")
        elif rounds_slower(kind, name) >= 0.8 * rounds[kind] and value(kind, name) > value(kind, base):
            shown.append(f"{label} {pct(value(kind, name), value(kind, base))} "
                         f"(slower in {rounds_slower(kind, name)} of {rounds[kind]} rounds)")
    lines.append(f"- {name}: " + ("; ".join(shown) if shown else "nothing beyond the noise in this run"))
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
