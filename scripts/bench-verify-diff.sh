#!/usr/bin/env bash
# The verify and diff half of `make bench`, run after scripts/bench.sh (it
# reuses its master, project and mcpack copy in bench/cache/).
#
#   verify: `mcpack verify` of the archive (streamed, never unpacked)
#           against `sha256sum -c` over the unpacked payload and
#           `bagit.py --validate --processes 2` on the unpacked bag.
#   diff:   two bundles that differ by one clause and a retouched region of
#           the master (about 1% of its area), built from lossless TIFF
#           masters so only the retouched tiles change; `mcpack diff`
#           against `diff -rq` on the two unpacked trees (and diffoscope on
#           the two archives where it is installed).
#
# Prints a table of wall times and ratios against the targets, and appends
# it to bench/results.md. Reports, does not gate.
set -euo pipefail
export LC_ALL=C  # a decimal point in $EPOCHREALTIME and awk

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cache="$root/bench/cache"
logs="$cache/logs"
results="$root/bench/results.md"
mcpack="$cache/mcpack"
width="${BENCH_WIDTH:-34000}"
height="${BENCH_HEIGHT:-24000}"
master="$cache/master-${width}x${height}.jpg"

say() { printf 'bench: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
[ -x "$mcpack" ] && [ -f "$master" ] || die "run scripts/bench.sh first (it makes the master and the project)"

# Each command runs BENCH_RUNS times (default 5); the run with the median
# wall time stands for all of them: these commands take well under a
# second, where one sample is mostly noise. Commands compared with each
# other take turns (A, B, C, A, B, C, ...), so a drift in the machine's
# speed touches each alike. /usr/bin/time gives wall time in hundredths,
# too coarse for a 30 ms diff, so wall time is taken from $EPOCHREALTIME
# around it (which adds /usr/bin/time's own start, ~1 ms, to every command
# alike); peak RSS still comes from /usr/bin/time.
runs="${BENCH_RUNS:-5}"
turn_names=() turn_commands=()
# compare NAME COMMAND...: adds a command to the next `take_turns`.
compare() {
  turn_names+=("$1"); shift
  turn_commands+=("$(printf '%q ' "$@")")
}
take_turns() {
  local i k name median start
  say "timing ${turn_names[*]} ($runs runs each, in turns)"
  local n=${#turn_names[@]} j
  for i in $(seq 1 "$runs"); do
    # Each run starts one command later, so none always follows the same one.
    for j in $(seq 0 $((n - 1))); do
      k=$(( (i - 1 + j) % n ))
      name=${turn_names[$k]}
      start=$EPOCHREALTIME
      eval "/usr/bin/time -v -o \"\$logs/\$name.\$i.time\" ${turn_commands[$k]}" >"$logs/$name.out" 2>"$logs/$name.err" || true
      awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f\n", b - a }' >"$logs/$name.$i.wall"
    done
  done
  for name in "${turn_names[@]}"; do
    median=$(for i in $(seq 1 "$runs"); do echo "$(cat "$logs/$name.$i.wall") $i"; done \
      | sort -g | awk -v n="$runs" 'NR == int(n / 2) + 1 { print $2 }')  # the upper of two middles
    cp "$logs/$name.$median.time" "$logs/$name.time"
    cp "$logs/$name.$median.wall" "$logs/$name.wall"
    sed -n 's/^[[:space:]]*Exit status: //p' "$logs/$name.time" >"$logs/$name.status"
  done
  turn_names=() turn_commands=()
}
wall() { awk '{ printf "%.3f", $1 }' "$logs/$1.wall"; }
# shellcheck source=scripts/bench-lib.sh
. "$root/scripts/bench-lib.sh"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r != "n/a" && r <= t) ? "PASS" : "FAIL" }'; }
status() { cat "$logs/$1.status"; }

work="$cache/vd"
mkdir -p "$work"

# --- two bundles from lossless masters --------------------------------------

project="$work/project"
if [ ! -f "$work/masters.done" ]; then
  say "making two TIFF masters that differ in one region (about 1% of the area)"
  rm -rf "$project"
  mkdir -p "$project/assets/document"
  for item in clauses.toml icon launch categories; do cp -R "$root/assets/$item" "$project/assets/$item"; done
  vips copy "$master" "$work/a.v"
  rw=$((width / 10)); rh=$((height / 10)); rx=$((width / 3)); ry=$((height / 3))
  vips extract_area "$work/a.v" "$work/patch.v" $rx $ry $rw $rh
  vips linear "$work/patch.v" "$work/patch2.v" 0.85 12 --uchar
  vips insert "$work/a.v" "$work/patch2.v" "$work/b.v" $rx $ry
  vips copy "$work/a.v" "$project/assets/document/master-a.tif"
  vips copy "$work/b.v" "$project/assets/document/master-b.tif"
  rm -f "$work"/*.v
  touch "$work/masters.done"
fi
sed -e 's|^image = "[^"]*"|image = "assets/document/master.tif"|' -e '/^\[\[copies\]\]/,$d' "$root/bundle.toml" >"$project/bundle.toml"

build_version() { # version master-file
  ln -f "$project/assets/document/$2" "$project/assets/document/master.tif"
  sed -i "s|^version = \"[^\"]*\"|version = \"$1\"|" "$project/bundle.toml"
  (cd "$project" && "$mcpack" build --output dist --overwrite >/dev/null)
}
# The pair is remade whenever mcpack changes, so the archives timed are the
# ones this mcpack writes (the tile cache makes that quick).
stamp="$work/pair.mcpack-sha256"
binary_hash=$(sha256sum "$mcpack" | cut -d ' ' -f 1)
if [ ! -f "$project/dist/magna-carta-1.1.0.zip" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$binary_hash" ]; then
  say "building version 1.0.0 and 1.1.0 (one clause edited, one region retouched)"
  rm -rf "$project/dist" "$work/unpacked-a" "$work/unpacked-b" "$stamp"
  cp "$root/assets/clauses.toml" "$project/assets/clauses.toml"
  build_version 1.0.0 master-a.tif
  python3 - "$project/assets/clauses.toml" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
marker = 'translation = """'
i = text.index(marker, text.index('id = "39"'))
open(path, "w", encoding="utf-8").write(text[:i + len(marker)] + "(revised) " + text[i + len(marker):])
PY
  build_version 1.1.0 master-b.tif
  echo "$binary_hash" >"$stamp"
fi
a="$project/dist/magna-carta-1.0.0.zip"
b="$project/dist/magna-carta-1.1.0.zip"

unpack() { # archive folder
  [ -d "$2" ] && return
  mkdir -p "$2.tmp"
  python3 -m zipfile -e "$1" "$2.tmp"
  mv "$2.tmp" "$2"
}
unpack "$a" "$work/unpacked-a"
unpack "$b" "$work/unpacked-b"
bag="$work/unpacked-a/magna-carta-1.0.0"

# --- verify -------------------------------------------------------------------

compare verify-mcpack "$mcpack" verify "$a"
compare verify-sha256sum bash -c "cd '$bag' && sha256sum --quiet -c manifest-sha256.txt"
compare verify-bagit bagit.py --validate --processes 2 "$bag"
take_turns

# --- diff ---------------------------------------------------------------------

compare diff-mcpack "$mcpack" diff "$a" "$b"
compare diff-rq diff -rq "$work/unpacked-a/magna-carta-1.0.0" "$work/unpacked-b/magna-carta-1.1.0"
take_turns
# diffoscope compares every member of both archives; it runs once, stopped
# after DIFFOSCOPE_LIMIT seconds (default 300), and a stopped run says so.
diffoscope_limit="${DIFFOSCOPE_LIMIT:-300}"
command -v diffoscope >/dev/null 2>&1 || apt_install diffoscope-minimal || say "diffoscope could not be installed; left out"
have_diffoscope=0
if command -v diffoscope >/dev/null 2>&1; then
  have_diffoscope=1
  say "timing diff-diffoscope (once, at most ${diffoscope_limit} s)"
  /usr/bin/time -v -o "$logs/diff-diffoscope.time" timeout "$diffoscope_limit" \
    diffoscope --no-progress --text /dev/null "$a" "$b" >"$logs/diff-diffoscope.out" 2>"$logs/diff-diffoscope.err" || true
  sed -n 's/^[[:space:]]*Exit status: //p' "$logs/diff-diffoscope.time" >"$logs/diff-diffoscope.status"
fi
changed_tiles=$(grep -o '[0-9]* tiles in' "$logs/diff-mcpack.out" | head -n 1 || true)

report() {
  echo
  echo "## verify and diff ($(date -u '+%Y-%m-%d %H:%M UTC'))"
  echo
  echo "- archive: $(basename "$a"), $(stat -c %s "$a") bytes; the diff pair differs by one clause and a retouched region (${changed_tiles:-see diff output})"
  echo "- exit statuses: mcpack verify $(status verify-mcpack), sha256sum $(status verify-sha256sum), bagit.py $(status verify-bagit), mcpack diff $(status diff-mcpack), diff -rq $(status diff-rq)"
  echo
  echo "Wall times are the median of $runs runs, the commands compared taking turns, timed to the millisecond (diffoscope: one run, in hundredths)."
  echo
  echo "| run | wall s | peak RSS MB |"
  echo "| --- | ---: | ---: |"
  for run in verify-mcpack verify-sha256sum verify-bagit diff-mcpack diff-rq; do
    echo "| $run | $(wall $run) | $(rss_mb $run) |"
  done
  [ $have_diffoscope = 1 ] && echo "| diff-diffoscope (one run$([ "$(status diff-diffoscope)" = 124 ] && echo ", stopped at the limit")) | $(wall_seconds diff-diffoscope) | $(rss_mb diff-diffoscope) |"
  echo
  echo "| measure | value | target | result |"
  echo "| --- | ---: | ---: | --- |"
  local r
  r=$(ratio "$(wall verify-mcpack)" "$(wall verify-sha256sum)"); echo "| mcpack verify / sha256sum -c | $r | <= 1.0 | $(verdict "$r" 1.0) |"
  r=$(ratio "$(wall verify-mcpack)" "$(wall verify-bagit)"); echo "| mcpack verify / bagit.py --validate | $r | <= 0.3 | $(verdict "$r" 0.3) |"
  r=$(ratio "$(wall diff-mcpack)" "$(wall diff-rq)"); echo "| mcpack diff / diff -rq | $r | <= 0.1 | $(verdict "$r" 0.1) |"
  if [ $have_diffoscope = 1 ]; then
    r=$(ratio "$(wall diff-mcpack)" "$(wall_seconds diff-diffoscope)")
    [ "$(status diff-diffoscope)" = 124 ] && r="< $r"
    echo "| mcpack diff / diffoscope | $r | (none set) | |"
  else
    echo "| diffoscope | not installed | | |"
  fi
}
report | tee -a "$results"
