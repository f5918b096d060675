#!/usr/bin/env bash
# What each of mcpack's speed tricks is worth: cold builds, their peak RSS,
# rebuilds (nothing changed, one clause edited, the launch screens made
# again) of the benchmark master with every trick on, and with each one off
# in turn (Tests/Tuning, BuildTuning), timed with
# hyperfine in one run. Writes the section between the "tricks" markers of
# bench/results.md (appending it when absent). `make bench` runs it after
# its own figures; `make bench-tricks` runs it alone.
#
# Environment: BENCH_WIDTH, BENCH_HEIGHT (default 34000 x 24000), BENCH_RUNS
# (cold builds per variant, default 3), as scripts/bench.sh.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
width="${BENCH_WIDTH:-34000}" height="${BENCH_HEIGHT:-24000}" runs="${BENCH_RUNS:-3}"
cache="$root/bench/cache" results="$root/bench/results.md"
logs="$cache/tricks-logs" work="$cache/tricks"
say() { printf 'bench-tricks: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
case "$width$height$runs" in *[!0-9]*) die "BENCH_WIDTH, BENCH_HEIGHT and BENCH_RUNS must be whole numbers" ;; esac
# shellcheck source=scripts/bench-lib.sh
. "$root/scripts/bench-lib.sh"

need hyperfine hyperfine
need vips libvips-tools vips
need python3 python3
if [ "$(uname -s)" = Darwin ]; then need gtime time gnu-time; gnu_time=gtime; static=""
else need /usr/bin/time time; gnu_time=/usr/bin/time; static="--static-swift-stdlib"; fi
[ -f "$fontfile" ] || apt_install fonts-dejavu-core

say "building mcpack-tuning (release, as make build builds mcpack)"
swift build -c release --product mcpack-tuning $static >/dev/null
mkdir -p "$cache" "$logs"
# One run at a time over bench/cache/: bench.sh, which runs this script,
# already holds the lock (BENCH_LOCKED); alone, it takes it as they do.
if [ -z "${BENCH_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
  exec 9>"$cache/.lock"
  flock -n 9 || { say "another bench.sh, bench-tricks.sh or crash-safety.sh is running; waiting for it"; flock 9; }
fi
rm -f "$logs"/*
tuning="$cache/mcpack-tuning"
cp -f "$(swift build -c release --product mcpack-tuning $static --show-bin-path 2>/dev/null)/mcpack-tuning" "$tuning"

master="$cache/master-${width}x${height}.jpg"
stamp="$cache/master-${width}x${height}.done"
ensure_master
rm -rf "$work"
project="$work/project"
bench_project "$project"
cores="$(getconf _NPROCESSORS_ONLN)"
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$root" diff --quiet HEAD -- Sources Package.swift Tests/Tuning 2>/dev/null || commit="$commit (with uncommitted changes)"
printf 'width=%s\nheight=%s\nrounds=%s\ncores=%s\ncommit=%s\n' "$width" "$height" "$runs" "$cores" "${commit// /_}" >"$logs/params"
trash="$work/trash"
mkdir -p "$trash"
export -f aside
export trash

# NAME VARIANT ENV: the variants, each the build with one trick off.
variants=(
  "every trick on|all|"
  "master hashed while the other inputs are checked|no-hash-ahead|"
  "launch screens in two lanes|one-lane|"
  "square launch background resized once for both orientations|no-square-once|"
  "archive hashed on a second core while written|no-hash-while-writing|"
  "one dzsave worker more than the cores|all|VIPS_CONCURRENCY=$cores"
  "malloc arenas capped|no-arena-cap|"
)
printf '%s\n' "${variants[@]}" >"$logs/variants"
command_of() {  # VARIANT ENV OUTPUT
  echo "cd '$project' && exec ${2:+env $2 }'$tuning' $1 --output $3"
}
export -f edit_clause
export root project

# A variant's turn comes at a different place in each round, so a drift of
# the machine's speed (or a cold page cache at the start) does not favour
# one; each figure is the median of a variant's rounds. One untimed build
# first reads the master into the page cache, as every later build finds it.
rounds() {  # KIND ROUNDS OUTPUT PREPARE
  local kind="$1" count="$2" output="$3" prepare="$4" round i n=${#variants[@]}
  for round in $(seq 1 "$count"); do
    local args=()
    for i in $(seq 0 $((n - 1))); do
      IFS='|' read -r name variant env <<<"${variants[$(( (i + round - 1) % n ))]}"
      args+=(-n "$name" --prepare "$prepare" "$(command_of "$variant" "$env" "$output")")
    done
    say "$kind, round $round of $count"
    hyperfine --shell=bash --runs 1 --export-json "$logs/$kind-$round.json" "${args[@]}"
  done
}
say "one untimed cold build (the page cache)"
bash -c "$(command_of all "" out)" >/dev/null
rounds cold "$runs" out "aside '$project/out' '$project/.mcpack-cache'"
say "peak RSS of each variant (one more cold build each)"
i=0
for v in "${variants[@]}"; do
  IFS='|' read -r name variant env <<<"$v"
  aside "$project/out" "$project/.mcpack-cache"
  "$gnu_time" -f %M -o "$logs/rss-$i" bash -c "$(command_of "$variant" "$env" out)" >"$logs/rss-$i.out" \
    || die "$name failed; see $logs/rss-$i.out"
  i=$((i + 1))
done
rounds nochange 5 out true
# Only the launch screens made again (as after a new launch background, but
# with the same bytes, so the archive is not written again): the tricks that
# touch only the launch input show here, out of the cold build's noise.
rounds launch 5 out "aside '$project/.mcpack-cache/launch'"
rounds edit 5 out-edit "edit_clause; aside '$project/out-edit'"

python3 "$root/scripts/bench-tricks-report.py" "$logs" "$results"
rm -rf "$work"
