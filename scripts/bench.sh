#!/usr/bin/env bash
# The benchmark behind `make bench`: mcpack against the pipeline of tools a
# user would otherwise run, on a full-size Magna Carta master scan.
#
#   1. makes (once) a deterministic BENCH_WIDTH x BENCH_HEIGHT parchment-like
#      master JPEG in bench/cache/ with the vips command-line tool;
#   2. makes a benchmark project in bench/cache/project/ from the example
#      project (bundle.toml + assets/), with that master as its document;
#   3. times with /usr/bin/time -v, in BENCH_ROUNDS rounds (default 3), each
#      in fresh folders: a cold mcpack build, a rebuild with nothing changed,
#      a rebuild after one clause's translation was edited, a plain copy of
#      the archive, vips dzsave + vips thumbnail + bagit.py + zip +
#      sha256sum, and (for information) a cold build without launch
#      layers. The machine's speed drifts (the same cold build has taken 20
#      and 26 s of CPU an hour apart), so each round's two sides run back
#      to back and each ratio is taken within its round;
#   4. prints a table with the targets, judged on the median round's ratio,
#      and writes it to bench/results.md.
#
# It reports, it does not gate: a missed target still exits 0; a command
# that fails exits non-zero.
#
# Environment:
#   BENCH_WIDTH, BENCH_HEIGHT  master size (default 34000 x 24000); smaller
#                              for a smoke test, e.g. 4000 x 3000, but no
#                              smaller than 4000 x 2800: the example clauses'
#                              overlay rectangles must fit on the master
#   MCPACK                     the mcpack binary (default .build/release/mcpack,
#                              built with `make build` if missing)
#   BENCH_ROUNDS               rounds of all the timings (default 3)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

width="${BENCH_WIDTH:-34000}"
height="${BENCH_HEIGHT:-24000}"
rounds="${BENCH_ROUNDS:-3}"
mcpack_default=".build/release/mcpack"
mcpack="${MCPACK:-$mcpack_default}"

cache="$root/bench/cache"
logs="$cache/logs"
results="$root/bench/results.md"

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

case "$width$height" in *[!0-9]*) die "BENCH_WIDTH and BENCH_HEIGHT must be whole numbers" ;; esac
[ "$width" -ge 256 ] && [ "$height" -ge 256 ] || die "BENCH_WIDTH and BENCH_HEIGHT must be at least 256"
case "$rounds" in ''|*[!0-9]*) die "BENCH_ROUNDS must be a whole number, at least 1" ;; esac
rounds=$((10#$rounds))
[ "$rounds" -ge 1 ] || die "BENCH_ROUNDS must be a whole number, at least 1"

# shellcheck source=scripts/bench-lib.sh
. "$root/scripts/bench-lib.sh"

# --- tools --------------------------------------------------------------

command -v vips >/dev/null 2>&1 || apt_install libvips-tools
[ -x /usr/bin/time ] || apt_install time
command -v zip >/dev/null 2>&1 || apt_install zip
command -v sha256sum >/dev/null 2>&1 || apt_install coreutils
[ -f "$fontfile" ] || apt_install fonts-dejavu-core
if ! command -v bagit.py >/dev/null 2>&1; then
  command -v python3 >/dev/null 2>&1 || apt_install python3 python3-pip
  say "installing bagit (bagit.py) from PyPI"
  python3 -m pip install --quiet --disable-pip-version-check bagit 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages bagit
  hash -r
  command -v bagit.py >/dev/null 2>&1 || die "bagit.py is still not on PATH after installing bagit"
fi

ensure_mcpack
if [ -n "$(find Sources Package.swift -newer "$mcpack" -type f 2>/dev/null | head -n 1)" ]; then
  say "warning: $mcpack is older than Sources/; run \`make build\` to time the current code"
fi
mkdir -p "$cache" "$logs"
# One run at a time: two would share bench/cache/ and skew each other's times.
exec 9>"$cache/.lock"
if ! flock -n 9; then
  say "another bench.sh is running; waiting for it"
  flock 9
fi
# Time a private copy: others may rebuild .build/release/mcpack meanwhile.
cp -f "$mcpack" "$cache/mcpack"
mcpack_bin="$cache/mcpack"

# --- 1. the master --------------------------------------------------------

master="$cache/master-${width}x${height}.jpg"
stamp="$cache/master-${width}x${height}.done"

ensure_master

# --- 2. the project -------------------------------------------------------

# Deleting thousands of files just before a timed run slows that run's file
# creation: ext4 without a journal (as on these machines) skips inodes freed
# in the last ~60 s while it still holds their inode table in memory, and
# that scan cost a cold build about 8 s of system time. So the previous
# run's folders are moved aside now and deleted after the timings, and a
# run that starts within 65 s of such a clean-up first waits out the rest.
trash="$cache/trash"
mkdir -p "$trash"
for old in "$cache"/project "$cache"/project-* "$cache"/pipeline "$cache"/pipeline-*; do
  if [ -e "$old" ]; then mv "$old" "$trash/$(basename "$old").$$.$RANDOM"; fi
done
if [ -f "$cache/.cleaned" ]; then
  wait_s=$(( $(cat "$cache/.cleaned") + 65 - $(date +%s) ))
  if [ "$wait_s" -gt 0 ]; then
    say "waiting ${wait_s} s: the last run deleted its files less than 65 s ago"
    sleep "$wait_s"
  fi
fi
clean_up() { # deletes what was moved aside; records when, see above
  if [ -n "$(ls -A "$trash" 2>/dev/null)" ]; then
    rm -rf "$trash"
    date +%s >"$cache/.cleaned"
  fi
}

# --- 3. the timings -------------------------------------------------------

# timed NAME COMMAND...: runs it under /usr/bin/time -v, output in $logs/NAME.*
timed() {
  local name="$1"; shift
  say "timing $name"
  # Other work on the machine skews wall times: the whole machine's busy
  # CPU time is read before and after, so the report can show how much of
  # it was not this run's.
  busy_jiffies >"$logs/$name.busy"
  if ! /usr/bin/time -v -o "$logs/$name.time" "$@" >"$logs/$name.out" 2>"$logs/$name.err"; then
    say "$name failed; its output:"
    tail -n 40 "$logs/$name.out" "$logs/$name.err" >&2
    grep -i 'exit status' "$logs/$name.time" >&2 || true
    exit 1
  fi
  echo "$(( $(busy_jiffies) - $(cat "$logs/$name.busy") ))" >"$logs/$name.busy"
}
# Busy time of all CPUs since boot, in USER_HZ ticks (user nice system irq softirq steal).
busy_jiffies() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
other_cpu_seconds() { # the machine's busy CPU seconds during run NAME, less the run's own
  awk -v busy="$(cat "$logs/$1.busy")" -v own="$(cpu_seconds "$1")" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { o = busy / hz - own; if (o < 0) o = 0; printf "%.1f", o }'
}
cpu_seconds() { # user + system
  awk -F': ' '/User time \(seconds\)|System time \(seconds\)/ { s += $2 } END { printf "%.2f", s }' "$logs/$1.time"
}
json_field() { # NAME KEY: a string or number field of mcpack's --json line
  sed -n "s/.*\"$2\" *: *\"\{0,1\}\([^\",}]*\).*/\1/p" "$logs/$1.out" | head -n 1
}

# one_round R: every timing once, in fresh folders; logs named NAME-R.
one_round() {
  local r="$1"
  local project="$cache/project-$r" pipe="$cache/pipeline-$r"
  bench_project "$project"
  # a. cold
  timed "mcpack-cold-$r" bash -c "cd '$project' && exec '$mcpack_bin' build --json --output out"
  # b. nothing changed, same output
  timed "mcpack-nochange-$r" bash -c "cd '$project' && exec '$mcpack_bin' build --json --output out"
  # c. one clause's translation edited; a fresh output folder, so no --overwrite
  local clauses="$project/assets/clauses.toml"
  awk '
    /^id = "1"$/ { in_clause = 1 }
    in_clause && prev ~ /^translation = """\\$/ && !done { sub(/^  /, "  Benchmark edit: "); done = 1 }
    { print; prev = $0 }
  ' "$root/assets/clauses.toml" >"$clauses"
  cmp -s "$root/assets/clauses.toml" "$clauses" && die "could not edit clause 1's translation in $clauses"
  timed "mcpack-edit-$r" bash -c "cd '$project' && exec '$mcpack_bin' build --json --output out-edit"
  # d. the floor under any one-clause rebuild: the edited archive is a new
  # file the size of the old one (its tag files, which change, come first,
  # so every later byte moves). dd copies the cold archive to a new file and
  # flushes it, as a build does; on a VM whose fresh memory the host must
  # back page by page, this alone can exceed 5% of the cold build.
  local cold_archive
  cold_archive="$project/$(json_field "mcpack-cold-$r" archive)"
  [ -f "$cold_archive" ] || die "cannot find the cold build's archive ($cold_archive)"
  timed "copy-floor-$r" dd if="$cold_archive" of="$project/floor-copy.zip" bs=1M conv=fsync status=none
  # e. the pipeline a user would otherwise run
  local icon="$project/assets/icon/AppIcon-1024.png"
  mkdir -p "$pipe"
  timed "pipeline-$r" bash -c '
    set -euo pipefail
    master="$1" icon="$2" pipe="$3"
    mkdir -p "$pipe/magna-carta/document" "$pipe/magna-carta/icon"
    vips dzsave "$master" "$pipe/magna-carta/document/pyramid" \
      --tile-size 254 --overlap 1 --suffix ".jpg[Q=85]"
    n=0
    for px in 20 40 29 58 40 80 76 152 167 1024; do
      n=$((n + 1))
      vips thumbnail "$icon" "$pipe/magna-carta/icon/icon-$n-$px.png" "$px"
    done
    bagit.py --quiet --sha256 --processes "$(nproc)" "$pipe/magna-carta"
    cd "$pipe"
    zip -q -r -0 magna-carta.zip magna-carta
    sha256sum magna-carta.zip >magna-carta.zip.sha256
  ' pipeline "$master" "$icon" "$pipe"
  pipeline_zip_bytes=$(stat -c %s "$pipe/magna-carta.zip")
  pipeline_files=$(find "$pipe/magna-carta/data" -type f | wc -l)
  # f. for information, not judged: a cold build without the launch layers,
  # which mcpack makes and the pipeline above does not (28 PNGs)
  local bare="$cache/project-$r-nolaunch"
  bench_project "$bare"
  awk '/^\[/ { skip = ($0 == "[launch]") } !skip' "$bare/bundle.toml" >"$bare/bundle.toml.tmp"
  mv "$bare/bundle.toml.tmp" "$bare/bundle.toml"
  grep -q '^\[launch\]\|assets/launch/' "$bare/bundle.toml" && die "could not take [launch] out of $bare/bundle.toml"
  timed "mcpack-bare-$r" bash -c "cd '$bare' && exec '$mcpack_bin' build --json --output out"
  # Moved aside, not deleted: see the trash above.
  mv "$project" "$trash/project-$r.$$"
  mv "$bare" "$trash/project-$r-nolaunch.$$"
  mv "$pipe" "$trash/pipeline-$r.$$"
}

for r in $(seq 1 "$rounds"); do
  say "round $r of $rounds"
  one_round "$r"
done
clean_up

# --- 4. the report --------------------------------------------------------

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "inf" }'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v != "inf" && v + 0 <= t + 0) ? "PASS" : "FAIL" }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int(NR / 2) + 1] }'; }  # the upper of two middles
span() { printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print (lo == hi) ? lo : lo "-" hi }'; }

cold_vs_pipe=() bare_vs_pipe=() nochange_vs_cold=() edit_vs_cold=() floor_vs_cold=() rss_all=() outcomes_ok=1
for r in $(seq 1 "$rounds"); do
  cold=$(wall_seconds "mcpack-cold-$r")
  cold_vs_pipe+=("$(ratio "$cold" "$(wall_seconds "pipeline-$r")")")
  bare_vs_pipe+=("$(ratio "$(wall_seconds "mcpack-bare-$r")" "$(wall_seconds "pipeline-$r")")")
  nochange_vs_cold+=("$(ratio "$(wall_seconds "mcpack-nochange-$r")" "$cold")")
  edit_vs_cold+=("$(ratio "$(wall_seconds "mcpack-edit-$r")" "$cold")")
  floor_vs_cold+=("$(ratio "$(wall_seconds "copy-floor-$r")" "$cold")")
  for run in mcpack-cold mcpack-nochange mcpack-edit mcpack-bare; do rss_all+=("$(rss_mb "$run-$r")"); done
  [ "$(json_field "mcpack-cold-$r" outcome)" = written ] && [ "$(json_field "mcpack-nochange-$r" outcome)" = unchanged ] \
    && [ "$(json_field "mcpack-edit-$r" outcome)" = written ] && [ "$(json_field "mcpack-bare-$r" outcome)" = written ] || outcomes_ok=0
done
max_rss=$(printf '%s\n' "${rss_all[@]}" | sort -g | tail -n 1)

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
[ -n "$cpu_model" ] || cpu_model=$(uname -m)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git -C "$root" status --porcelain -- Sources Package.swift 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes to Sources/ or Package.swift)"
fi
mcpack_version=$("$mcpack_bin" --version 2>/dev/null || echo unknown)
vips_version=$(vips --version)
master_bytes=$(stat -c %s "$master")
gen_seconds=$(stamp_field seconds)
gen_rss=$(stamp_field peak_rss_kb | awk '{ printf "%.1f", $1 / 1024 }')

report() {
  echo "# mcpack benchmark"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "- machine: $(nproc) cores ($cpu_model), $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo) memory"
  echo "- mcpack: $mcpack_version, commit $commit"
  echo "- libvips: $vips_version"
  echo "- master: ${width} x ${height} px JPEG Q85, $master_bytes bytes (made in $gen_seconds s wall, peak RSS $gen_rss MB)"
  echo "- mcpack archive: $(json_field mcpack-cold-1 files) files, $(json_field mcpack-cold-1 bytes) bytes; pipeline zip: $pipeline_files payload files, $pipeline_zip_bytes bytes"
  echo "- $rounds rounds, each in fresh folders, its runs back to back; every ratio is taken within its round"
  echo "- outcomes: $( [ $outcomes_ok = 1 ] && echo "as expected in every round (cold written, no-change unchanged, one-clause written, no-launch written)" || echo "NOT as expected; see $logs")"
  echo
  echo "| round | run | wall s | peak RSS MB | CPU s (user+sys) | other processes' CPU s meanwhile |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: |"
  local r run label
  for r in $(seq 1 "$rounds"); do
    for run in mcpack-cold pipeline mcpack-nochange mcpack-edit copy-floor mcpack-bare; do
      case $run in
        mcpack-cold) label="mcpack cold build" ;;
        pipeline) label="pipeline (vips dzsave + thumbnail, bagit.py, zip, sha256sum)" ;;
        mcpack-nochange) label="mcpack rebuild, nothing changed" ;;
        mcpack-edit) label="mcpack rebuild, one clause edited" ;;
        copy-floor) label="copying the cold archive to a new file (dd, fsync)" ;;
        mcpack-bare) label="mcpack cold build without launch layers (for information)" ;;
      esac
      echo "| $r | $label | $(wall_seconds "$run-$r") | $(rss_mb "$run-$r") | $(cpu_seconds "$run-$r") | $(other_cpu_seconds "$run-$r") |"
    done
  done
  echo
  echo "Each measure is judged on its median over the rounds; the range is every round's."
  echo
  echo "| measure | median | range | target | result |"
  echo "| --- | ---: | ---: | ---: | --- |"
  local m
  m=$(median "${cold_vs_pipe[@]}")
  echo "| cold / pipeline wall | $m | $(span "${cold_vs_pipe[@]}") | <= 0.8 | $(verdict "$m" 0.8) |"
  m=$(median "${bare_vs_pipe[@]}")
  echo "| for information: cold without launch layers / pipeline wall | $m | $(span "${bare_vs_pipe[@]}") | (none; the pipeline makes no launch layers) | |"
  echo "| mcpack peak RSS (max of all its runs) | $max_rss MB | $(span "${rss_all[@]}") | <= 256 MB | $(verdict "$max_rss" 256) |"
  m=$(median "${nochange_vs_cold[@]}")
  echo "| no-change rebuild / cold wall | $m | $(span "${nochange_vs_cold[@]}") | <= 0.05 | $(verdict "$m" 0.05) |"
  m=$(median "${edit_vs_cold[@]}")
  echo "| one-clause rebuild / cold wall | $m | $(span "${edit_vs_cold[@]}") | <= 0.05 | $(verdict "$m" 0.05) |"
  m=$(median "${floor_vs_cold[@]}")
  echo "| floor: archive copy / cold wall | $m | $(span "${floor_vs_cold[@]}") | (none; a one-clause rebuild writes as much) | |"
}

report >"$results.tmp"
mv "$results.tmp" "$results"
echo
cat "$results"
echo
say "wrote $results; logs in $logs"
if [ $outcomes_ok != 1 ]; then
  say "note: expected outcomes written / unchanged / written in every round"
fi
