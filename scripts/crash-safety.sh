#!/usr/bin/env bash
# Crash safety of `mcpack build` (issue 7): kills real builds with SIGKILL at
# random moments and checks that nothing a kill leaves behind is ever taken
# for a finished archive, touches another version's archive, or poisons the
# work cache. Run with --help for what it does and how long it takes.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/crash-safety.sh [--kills N] [--seed S] [-h | --help]

Kills `mcpack build` with SIGKILL at random moments and checks what is left.

  1. Makes (once) the benchmark master with scripts/bench.sh's recipe
     (bench/cache/master-WxH.jpg, shared with bench.sh) and a private
     project in bench/cache/crash/project/ like bench.sh's project.
  2. Builds version 1.0.0 (A) once and records the sha256 of its archive
     and of its .sha256 file.
  3. Builds version 1.0.1 (B) three times in a separate copy,
     bench/cache/crash/ref/: cold (no cache and no earlier archive, so the
     master is tiled; this is the length of a full build and gives the
     reference sha256, builds being reproducible), then beside a copy of A's
     archive (whose tiles B copies) with the icon and launch cache entries
     removed, and with the whole cache kept. Each is watched every 50 ms to time its phases (tiling, icons,
     launch, archive written, renamed, .sha256 written). All three must give
     the same bytes, and the reference must pass `mcpack verify`.
  4. Bumps the project to B, then N times: removes B's archive and .sha256
     and, in a seeded balanced rotation, the whole cache and A's archive
     ("cold": A and its .sha256 are held outside the output folder until the
     kill, so B tiles the master into its archive as it is written), the
     icon and launch entries ("part") or nothing ("warm"); starts `mcpack build`
     and kills it with SIGKILL
       - "uniform" (about 2 of 3 kills): at a moment drawn uniformly over
         the length of a reference build from the same cache state;
       - "writing": a moment drawn uniformly over the archive phase, counted
         from when the temporary archive appears;
       - "commit": a moment drawn uniformly over read-back, rename and
         .sha256, counted from when the temporary archive reaches its final
         size.
     After each kill it checks that
       (a) B's archive is absent, or passes `mcpack verify` (exit 0) with
           the reference sha256; a B .sha256 file, if any, is the reference
           line and has its archive beside it;
       (b) A's archive and A's .sha256 are byte-identical to before;
       (c) a following `mcpack build` exits 0, leaves nothing in the output
           folder but A's and B's archive and .sha256 (no .*partial* file nor
           any other temporary file), and writes the reference bytes (the
           cache was not poisoned), with a correct .sha256.
     Leftovers of the kill (temporary archive, temporary cache entries) are
     listed, and so is what the build was doing when killed, read from the
     files it had made.
  5. Prints one line per kill and every failure with its details; exits 1
     on any failure, 2 when it could not run.

Options:
  --kills N   kills to try (default 12; at least 1)
  --seed S    seed of the kill plan (default 1): the same seed gives the
              same cache states, kinds and moments as fractions of the
              reference phases; the seconds follow this run's reference
              builds, and where a kill lands still varies, as build times
              vary by some 20% from run to run on this machine
  -h, --help  this text

Environment:
  CRASH_WIDTH, CRASH_HEIGHT  master size (default 34000 x 24000, the
                             benchmark's); e.g. 4000 x 3000 for a quick run,
                             but no smaller than 4000 x 2800 (the example
                             clauses' overlays must fit)
  MCPACK                     the mcpack binary (default .build/release/mcpack,
                             built if missing); a private copy is run

Run time on the 2-core benchmark machine, full size, defaults: about 3 min
(A and the cold reference build tile the master, about 15 s each; a kill
in the "cold" state costs up to one more, the other builds copy A's tiles
in a few seconds; allow 3-5 minutes, more on a busy machine);
about 1 minute at 4000 x 3000 with --kills 6. Making the full-size master,
if missing, adds about 1 minute. Disk under bench/cache/crash/ at full size:
2.8 GB at the peak, 1.6 GB kept after the run (both projects, for
inspection; the next run moves them aside and deletes them at its end, with
the caches removed during the run). Logs: bench/cache/crash/logs/<time>-<pid>/.
One run at a time: it holds bench/cache/.lock, as scripts/bench.sh does.
EOF
}

kills=12
seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --kills) [ $# -ge 2 ] || { usage >&2; exit 2; }; kills="$2"; shift 2 ;;
    --kills=*) kills="${1#*=}"; shift ;;
    --seed) [ $# -ge 2 ] || { usage >&2; exit 2; }; seed="$2"; shift 2 ;;
    --seed=*) seed="${1#*=}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) printf 'crash-safety: unknown argument %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
  esac
done

# Linux only, and said before anything else (all above runs in macOS's own
# bash 3.2, so --help works there): it reads /proc (a build's state, the
# load, CPU time), holds bench/cache/.lock with flock, and uses GNU stat,
# sed, find and date, and bash 5 (associative arrays, EPOCHREALTIME).
if [ "$(uname -s)" != Linux ]; then
  echo "crash-safety.sh: needs Linux (/proc, flock, GNU stat/sed/find/date, bash 5); on a Mac run it in a Linux container or VM" >&2
  exit 2
fi

say() { printf 'crash-safety: %s\n' "$*" >&2; }
die() { say "error: $*"; [ -z "${logs:-}" ] || [ ! -d "$logs" ] || say "logs: $logs"; exit 2; }

case "$kills" in ''|*[!0-9]*) die "--kills must be a whole number" ;; esac
[ "$kills" -ge 1 ] || die "--kills must be at least 1"
case "$seed" in ''|*[!0-9]*) die "--seed must be a whole number" ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

width="${CRASH_WIDTH:-34000}"
height="${CRASH_HEIGHT:-24000}"
case "$width$height" in *[!0-9]*) die "CRASH_WIDTH and CRASH_HEIGHT must be whole numbers" ;; esac
[ "$width" -ge 256 ] && [ "$height" -ge 256 ] || die "CRASH_WIDTH and CRASH_HEIGHT must be at least 256"
mcpack_default=".build/release/mcpack"
mcpack="${MCPACK:-$mcpack_default}"

cache="$root/bench/cache"
crash="$cache/crash"
logs="$crash/logs/$(date -u +%Y%m%dT%H%M%SZ)-$$"   # this run's logs
version_a="1.0.0"
version_b="1.0.1"
export SWIFT_BACKTRACE=enable=no

# shellcheck source=scripts/bench-lib.sh
. "$root/scripts/bench-lib.sh"

command -v python3 >/dev/null 2>&1 || die "python3 is needed (for the seeded kill plan)"
command -v sha256sum >/dev/null 2>&1 || apt_install coreutils
command -v flock >/dev/null 2>&1 || apt_install util-linux

ensure_mcpack
mkdir -p "$cache" "$crash" "$logs"
exec 9>"$cache/.lock"
if ! flock -n 9; then
  say "scripts/bench.sh or another crash-safety.sh is running; waiting for it"
  flock 9
fi
# Run a private copy: others may rebuild .build/release/mcpack meanwhile.
cp -fp "$mcpack" "$crash/mcpack"
bin="$crash/mcpack"
mcpack_version=$("$bin" --version 2>/dev/null) || die "$bin --version fails; is $mcpack being rebuilt right now?"
if [ -n "$(find Sources Package.swift -newer "$mcpack" -type f 2>/dev/null | head -n 1)" ]; then
  say "warning: $mcpack is older than Sources/ or Package.swift; this run tests that binary"
fi

# --- the master (bench.sh's recipe, in bench-lib.sh) ----------------------

master="$cache/master-${width}x${height}.jpg"
stamp="$cache/master-${width}x${height}.done"
if ! { [ -f "$master" ] && [ -f "$stamp" ] && [ "$(stamp_field generator)" = "$generator_version" ]; }; then
  command -v vips >/dev/null 2>&1 || apt_install libvips-tools
  [ -x /usr/bin/time ] || apt_install time
  [ -f "$fontfile" ] || apt_install fonts-dejavu-core
fi
ensure_master

# --- helpers -------------------------------------------------------------

started_us=${EPOCHREALTIME/./}
now_us() { echo "${EPOCHREALTIME/./}"; }
secs() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1e6 }'; }   # microseconds -> "s.ss"

# Sleeps without forking: a read with a timeout on a FIFO nobody writes to.
tmp="$crash/tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
mkfifo "$tmp/nap"
exec {nap_fd}<>"$tmp/nap"
nap() { read -r -t "$1" -u "$nap_fd" _ || true; }

running_pid=""
on_exit() {
  if [ -n "$running_pid" ]; then kill -KILL "$running_pid" 2>/dev/null || true; fi
  # A "cold" kill holds A's archive aside: back into place, whatever ended the run.
  if [ -n "${held:-}" ] && [ -n "${archive_a:-}" ] && [ -e "$held/$archive_a" ]; then
    mv "$held/$archive_a" "$held/$archive_a.sha256" "$outdir/" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap on_exit EXIT
trap 'say "error: line $LINENO: \"$BASH_COMMAND\" failed (exit $?); logs: $logs"' ERR
trap 'exit 130' INT TERM

# alive PID: the process exists and is not a zombie (kill -0 succeeds on zombies).
alive() {
  local s
  read -r s 2>/dev/null </proc/"$1"/stat || return 1
  s=${s##*) }
  [ "${s%% *}" != Z ]
}
has() { compgen -G "$1" >/dev/null; }                       # a glob matches
first() { compgen -G "$1" | head -n 1; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }
set_version() { sed -i "s|^version = \"[^\"]*\"|version = \"$2\"|" "$1/bundle.toml"; }
json_field() { sed -n "s/.*\"$2\" *: *\"\{0,1\}\([^\",}]*\).*/\1/p" "$1" | head -n 1; }

name_of() { sed -n 's/^name = "\([^"]*\)".*/\1/p' "$root/bundle.toml" | head -n 1; }
bundle_name=$(name_of)
out_rel=$(sed -n 's/^output = "\([^"]*\)".*/\1/p' "$root/bundle.toml" | head -n 1)
format=$(sed -n 's/^format = "\([^"]*\)".*/\1/p' "$root/bundle.toml" | head -n 1)
case "$format" in zip) ext=zip ;; tar.gz) ext=tar.gz ;; tar.zst) ext=tar.zst ;; *) die "unknown format '$format' in bundle.toml" ;; esac
[ -n "$bundle_name" ] && [ -n "$out_rel" ] || die "cannot read [bundle] name and output from bundle.toml"
archive_a="$bundle_name-$version_a.$ext"
archive_b="$bundle_name-$version_b.$ext"

trash="$crash/trash"
mkdir -p "$trash"
aside() { # moves a path into the trash (deleted at the end): deleting thousands
  # of files just before a build slows its file creation (see bench.sh)
  if [ -e "$1" ]; then mv "$1" "$trash/$(basename "$1").$$.$RANDOM"; fi
}

# strays: files in the project's output folder other than A's and B's
# archive and .sha256: a temporary archive, or any other file a build left.
strays() {
  find "$outdir" -mindepth 1 -maxdepth 1 ! -name "$archive_a" ! -name "$archive_a.sha256" \
    ! -name "$archive_b" ! -name "$archive_b.sha256" -printf '%f\n' | sort
}

# build DIR LOG: a build to completion, --json; sets build_rc and build_us.
build() {
  local t0 rc=0
  t0=$(now_us)
  (cd "$1" && exec "$bin" build --json) >"$logs/$2.out" 2>"$logs/$2.err" || rc=$?
  build_rc=$rc
  build_us=$(( $(now_us) - t0 ))
}

# --- phases: what a build has made, read from its files --------------------

# The tiles are no cache entry: a cold build writes them into the archive.
kinds="icons launch"
# watch DIR LOG: runs a build in DIR to completion, polling every 50 ms for
# when each cache entry's temporary folder and final entry, the temporary
# archive, its final size, the archive and its .sha256 appear. Sets
# ev[NAME] to microseconds since start (absent: not seen) and build_rc.
declare -A ev
watch() {
  local dir="$1" name="$2" out="$1/$out_rel" t0 pid rc=0 k now sz
  local -a sizes=()
  ev=()
  local -A present=()
  for k in $kinds; do if has "$dir/.mcpack-cache/$k/[!.]*"; then present[$k]=1; fi; done
  t0=$(now_us)
  (cd "$dir" && exec "$bin" build --json) >"$logs/$name.out" 2>"$logs/$name.err" &
  pid=$!
  running_pid=$pid
  while alive "$pid"; do
    now=$(( $(now_us) - t0 ))
    for k in $kinds; do
      [ -n "${ev[${k}_tmp]:-}" ] || ! has "$dir/.mcpack-cache/$k/.*${OutputMarker}*" || ev[${k}_tmp]=$now
      [ -n "${present[$k]:-}" ] || [ -n "${ev[${k}_done]:-}" ] || ! has "$dir/.mcpack-cache/$k/[!.]*" || ev[${k}_done]=$now
    done
    if has "$out/.$archive_b$OutputMarker*"; then
      [ -n "${ev[arch_tmp]:-}" ] || ev[arch_tmp]=$now
      sz=$(size_of "$(first "$out/.$archive_b$OutputMarker*")")
      sizes+=("$now:$sz")
    fi
    [ -n "${ev[arch_final]:-}" ] || [ ! -e "$out/$archive_b" ] || ev[arch_final]=$now
    [ -n "${ev[sha_final]:-}" ] || [ ! -e "$out/$archive_b.sha256" ] || ev[sha_final]=$now
    nap 0.05
  done
  wait "$pid" || rc=$?
  running_pid=""
  ev[exit]=$(( $(now_us) - t0 ))
  build_rc=$rc
  # The temporary archive is complete at the first sample at its final size.
  if [ -e "$out/$archive_b" ]; then
    local final_size s
    final_size=$(size_of "$out/$archive_b")
    for s in "${sizes[@]}"; do
      if [ "${s#*:}" = "$final_size" ]; then ev[arch_full]=${s%%:*}; break; fi
    done
  fi
}
OutputMarker=".partial-"

timeline() { # the ev[] of the last watch, as one line
  local e parts=()
  for e in icons_tmp icons_done launch_tmp launch_done arch_tmp arch_full arch_final sha_final exit; do
    if [ -n "${ev[$e]:-}" ]; then parts+=("$e $(secs "${ev[$e]}")"); fi
  done
  local IFS=,
  echo "${parts[*]}" | sed 's/,/, /g'
}

# doing DIR PID: what the build with that pid was doing when it died, from
# the files it left (the cache entries present before it started are in
# before[KIND]).
declare -A before
doing() {
  local dir="$1" pid="$2" out="$1/$out_rel" k tmpdir n
  local made=""
  if [ -e "$out/$archive_b.sha256" ] && [ -e "$out/$archive_b" ]; then
    echo "finishing: archive and .sha256 in place"; return
  fi
  if has "$out/.$archive_b.sha256$OutputMarker$pid"; then echo "writing .sha256 (archive already in place)"; return; fi
  if [ -e "$out/$archive_b" ]; then
    if has "$out/.dat.nosync*"; then
      echo "archive in place; writing .sha256 (Foundation's temporary $(basename "$(first "$out/.dat.nosync*")"))"
    else
      echo "archive renamed into place; .sha256 not yet written"
    fi
    return
  fi
  local part="$out/.$archive_b$OutputMarker$pid"
  if [ -e "$part" ]; then
    local sz
    sz=$(size_of "$part")
    if [ "$sz" -ge "$ref_bytes" ]; then
      echo "archive fully written ($sz bytes): fsync, read-back check or rename"
    else
      awk -v s="$sz" -v t="$ref_bytes" 'BEGIN { printf "writing the archive: %.1f of %.1f MB (%.0f%%)\n", s / 1048576, t / 1048576, 100 * s / t }'
    fi
    return
  fi
  for k in launch icons; do
    tmpdir=$(first "$dir/.mcpack-cache/$k/.*$OutputMarker$pid" || true)
    if [ -n "$tmpdir" ]; then
      n=$(find "$tmpdir/files" -type f 2>/dev/null | wc -l)
      if [ -e "$tmpdir/index.json" ]; then
        echo "$k entry made and indexed ($n files), not yet renamed"
      else
        echo "making the $k entry ($n files so far)"
      fi
      return
    fi
    if [ -z "${before[$k]:-}" ] && has "$dir/.mcpack-cache/$k/[!.]*"; then made="$made $k"; fi
  done
  if [ -n "$made" ]; then
    case "$made" in
      *launch*) echo "after the launch entry: bag assembly, before the archive" ;;
      *icons*) echo "between the icons and the launch entry (reusing or checking launch)" ;;
      *) echo "after the icons entry, before the launch entry" ;;
    esac
    return
  fi
  echo "checking inputs / checking reused cache entries (nothing written yet)"
}

# --- 1. the projects --------------------------------------------------------

project="$crash/project"
ref="$crash/ref"
held="$crash/held-A"  # A's archive, out of B's way during a "cold" kill
say "moving aside what an earlier run left in $crash"
aside "$project"
aside "$ref"
aside "$held"
bench_project "$project"
bench_project "$ref"
set_version "$project" "$version_a"
set_version "$ref" "$version_b"
outdir="$project/$out_rel"
refout="$ref/$out_rel"

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
# Busy time of all CPUs since boot, in USER_HZ ticks (as bench.sh reads it).
busy_jiffies() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat; }
busy_start=$(busy_jiffies)
failures=()
fail() { failures+=("$*"); say "FAIL: $*"; }

# --- 2. version A --------------------------------------------------------

say "building $version_a (A) in $project"
build "$project" build-A
[ "$build_rc" = 0 ] || { tail -n 20 "$logs/build-A.err" >&2; die "building A failed (exit $build_rc)"; }
a_build_us=$build_us
a_sha=$(sha_of "$outdir/$archive_a")
a_sum_sha=$(sha_of "$outdir/$archive_a.sha256")
a_bytes=$(size_of "$outdir/$archive_a")
say "A: $(secs "$a_build_us") s, $a_bytes bytes, sha256 $a_sha"

# --- 3. the reference builds of B ----------------------------------------

declare -A len tl arch_len commit_len
run_ref() { # state: build B in the reference copy and time its phases
  local state="$1"
  local k
  before=()
  for k in $kinds; do if has "$ref/.mcpack-cache/$k/[!.]*"; then before[$k]=1; fi; done
  say "reference build of $version_b, cache $state"
  watch "$ref" "ref-$state"
  [ "$build_rc" = 0 ] || { tail -n 20 "$logs/ref-$state.err" >&2; die "reference build ($state) failed (exit $build_rc)"; }
  len[$state]=${ev[exit]}
  tl[$state]=$(timeline)
  # The archive phase: from the temporary archive's appearance to the end;
  # the commit phase: from its reaching the final size to the end.
  arch_len[$state]=$(( ev[exit] - ${ev[arch_tmp]:-0} ))
  commit_len[$state]=$(( ev[exit] - ${ev[arch_full]:-${ev[arch_tmp]:-0}} ))
  say "  $(secs "${len[$state]}") s: ${tl[$state]}"
}
run_ref cold
ref_sha=$(sha_of "$refout/$archive_b")
ref_bytes=$(size_of "$refout/$archive_b")
ref_sum="$ref_sha  $archive_b"
[ "$(cat "$refout/$archive_b.sha256")" = "$ref_sum" ] || die "the reference .sha256 does not hold '$ref_sum'"
ref_tiles=$(python3 -c 'import sys, zipfile; print(sum("_files/" in n for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$refout/$archive_b")
rc=0; "$bin" verify "$refout/$archive_b" >"$logs/ref-verify.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$logs/ref-verify.out" >&2; die "the reference archive does not pass mcpack verify (exit $rc)"; }
[ "$ref_sha" != "$a_sha" ] || die "A and B have the same bytes; the version bump did not reach the archive"

rm -f "$refout/$archive_b" "$refout/$archive_b.sha256"
# From here B has A's archive beside it to copy the tiles from, as in the kills.
cp "$outdir/$archive_a" "$outdir/$archive_a.sha256" "$refout/"
aside "$ref/.mcpack-cache/icons"
aside "$ref/.mcpack-cache/launch"
run_ref part
[ "$(sha_of "$refout/$archive_b")" = "$ref_sha" ] || die "not reproducible: B rebuilt with the icon and launch entries made again has other bytes than the cold build"
rm -f "$refout/$archive_b" "$refout/$archive_b.sha256"
run_ref warm
[ "$(sha_of "$refout/$archive_b")" = "$ref_sha" ] || die "not reproducible: B rebuilt from the cache has other bytes than the cold build"
say "reference: $ref_bytes bytes, $ref_tiles tiles, sha256 $ref_sha"

# --- 4. the kill plan -------------------------------------------------------

plan=$(python3 - "$seed" "$kills" "${len[cold]}" "${len[part]}" "${len[warm]}" \
  "${arch_len[cold]}" "${arch_len[part]}" "${arch_len[warm]}" \
  "${commit_len[cold]}" "${commit_len[part]}" "${commit_len[warm]}" <<'PY'
import random, sys
seed, k = int(sys.argv[1]), int(sys.argv[2])
v = [int(x) / 1e6 for x in sys.argv[3:]]
states = ["cold", "part", "warm"]
length = dict(zip(states, v[0:3]))
archive = dict(zip(states, v[3:6]))
commit = dict(zip(states, v[6:9]))
rng = random.Random(seed)
# Cache states in a balanced rotation, shuffled; about a third of the kills
# near the end (alternately while writing and around read-back/rename).
cache_states = [states[i % 3] for i in range(k)]
rng.shuffle(cache_states)
n_end = max(1, round(k / 3)) if k >= 2 else 0
kinds = ["writing" if i % 2 == 0 else "commit" for i in range(n_end)] + ["uniform"] * (k - n_end)
rng.shuffle(kinds)
for i in range(k):
    s, kind = cache_states[i], kinds[i]
    if kind == "uniform":
        t = rng.uniform(0, length[s])
    elif kind == "writing":
        t = rng.uniform(0, archive[s] + 0.1)
    else:
        t = rng.uniform(0, commit[s] + 0.1)
    print(i + 1, s, kind, "%.3f" % t)
PY
)

# --- 5. the kills -----------------------------------------------------------

set_version "$project" "$version_b"
declare -a rows
kills_done=0
killed_count=0
while read -r -u 3 i state kind wait_s; do
  say "kill $i/$kills: cache $state, $kind, after $wait_s s"
  # B not built; the cache as the state says.
  rm -f "$outdir/$archive_b" "$outdir/$archive_b.sha256"
  case "$state" in
    cold) aside "$project/.mcpack-cache"; mkdir -p "$held"; mv "$outdir/$archive_a" "$outdir/$archive_a.sha256" "$held/" ;;
    part) aside "$project/.mcpack-cache/icons"; aside "$project/.mcpack-cache/launch" ;;
    warm) ;;
  esac
  before=()
  for k in $kinds; do if has "$project/.mcpack-cache/$k/[!.]*"; then before[$k]=1; fi; done

  log="kill-$i"
  t0=$(now_us)
  (cd "$project" && exec "$bin" build --json) >"$logs/$log.out" 2>"$logs/$log.err" &
  pid=$!
  running_pid=$pid
  trigger_us=0
  triggered=1
  case "$kind" in
    writing|commit)
      # Wait for the temporary archive to appear (writing) or reach the
      # reference size (commit), then the drawn moment.
      triggered=0
      part="$outdir/.$archive_b$OutputMarker$pid"
      while alive "$pid"; do
        if [ -e "$part" ] && { [ "$kind" = writing ] || [ "$(size_of "$part")" -ge "$ref_bytes" ]; }; then
          triggered=1; break
        fi
        nap 0.02
      done
      trigger_us=$(( $(now_us) - t0 ))
      ;;
  esac
  target_us=$(( trigger_us + $(awk -v s="$wait_s" 'BEGIN { printf "%d", s * 1e6 }') ))
  left_us=$(( target_us - ($(now_us) - t0) ))
  [ "$triggered" = 0 ] || [ "$left_us" -le 0 ] || nap "$(secs "$left_us")"
  kill -KILL "$pid" 2>/dev/null || true
  kill_us=$(( $(now_us) - t0 ))
  rc=0
  { wait "$pid"; } 2>/dev/null || rc=$?
  running_pid=""
  [ "$state" != cold ] || mv "$held/$archive_a" "$held/$archive_a.sha256" "$outdir/"
  kills_done=$((kills_done + 1))

  if [ "$rc" = 137 ]; then
    outcome="killed"
    killed_count=$((killed_count + 1))
    what=$(doing "$project" "$pid")
  else
    outcome="finished (exit $rc)"
    what="build had ended before the kill"
    [ "$triggered" = 1 ] || what="build ended before the trigger"
    [ "$rc" = 0 ] || fail "kill $i: the build exited $rc on its own before the kill; see $logs/$log.err"
  fi

  # What the kill left behind.
  left=()
  while IFS= read -r f; do
    left+=("$f ($(size_of "$outdir/$f") B)")
  done < <(strays)
  for k in $kinds; do
    for f in "$project/.mcpack-cache/$k"/.*"$OutputMarker"*; do
      if [ -e "$f" ]; then
        left+=("cache $k/$(basename "$f" | cut -c1-13)...$OutputMarker${f##*"$OutputMarker"} ($(find "$f" -type f | wc -l) files)")
      fi
    done
  done

  # (a) B's final path: nothing, or the reference archive that verifies.
  b_state="absent"
  if [ -e "$outdir/$archive_b" ]; then
    b_sha=$(sha_of "$outdir/$archive_b")
    vrc=0; "$bin" verify "$outdir/$archive_b" >"$logs/$log.verify" 2>&1 || vrc=$?
    b_state="present, verify $vrc"
    [ "$vrc" = 0 ] || fail "kill $i: (a) $archive_b is at its final path but mcpack verify exits $vrc: $(grep -m 3 -E 'error|invalid' "$logs/$log.verify" | tr '\n' ' ')"
    if [ "$b_sha" = "$ref_sha" ]; then b_state="$b_state, reference sha256"; else
      b_state="$b_state, OTHER sha256"
      fail "kill $i: (a) $archive_b at its final path has sha256 $b_sha, not the reference $ref_sha ($(size_of "$outdir/$archive_b") of $ref_bytes bytes)"
    fi
  fi
  if [ -e "$outdir/$archive_b.sha256" ]; then
    b_state="$b_state; .sha256 present"
    [ "$(cat "$outdir/$archive_b.sha256")" = "$ref_sum" ] || fail "kill $i: (a) $archive_b.sha256 holds '$(head -c 200 "$outdir/$archive_b.sha256")', not '$ref_sum'"
    [ -e "$outdir/$archive_b" ] || fail "kill $i: (a) $archive_b.sha256 is in place without its archive"
  fi
  # (b) A untouched.
  [ "$(sha_of "$outdir/$archive_a")" = "$a_sha" ] || fail "kill $i: (b) $archive_a changed (sha256 $(sha_of "$outdir/$archive_a"), was $a_sha)"
  [ "$(sha_of "$outdir/$archive_a.sha256")" = "$a_sum_sha" ] || fail "kill $i: (b) $archive_a.sha256 changed: '$(cat "$outdir/$archive_a.sha256")'"

  # (c) the next build finishes, cleans up, and makes the reference bytes.
  build "$project" "$log-rebuild"
  re_outcome=$(json_field "$logs/$log-rebuild.out" outcome)
  re="$(secs "$build_us") s, ${re_outcome:-no outcome}"
  if [ "$build_rc" != 0 ]; then
    fail "kill $i: (c) the build after the kill exited $build_rc: $(tail -n 5 "$logs/$log-rebuild.err" "$logs/$log-rebuild.out" | tr '\n' ' ')"
    re="exit $build_rc"
  else
    removed=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1])).get("removed_temporary_files", [])))' "$logs/$log-rebuild.out" 2>/dev/null || echo "?")
    [ "$removed" = 0 ] || re="$re, removed $removed temporary file(s)"
    notes=$(grep -v '^$' "$logs/$log-rebuild.err" | head -n 3 | tr '\n' ' ' || true)
    [ -z "$notes" ] || re="$re; said: $notes"
    leftover=$(strays | tr '\n' ' ')
    if [ -n "$leftover" ]; then
      fail "kill $i: (c) after the next build the output folder still holds ${leftover% }"
      # Judge later kills on their own.
      while IFS= read -r f; do aside "$outdir/$f"; done < <(strays)
    fi
    if [ ! -e "$outdir/$archive_b" ]; then
      fail "kill $i: (c) the build after the kill exited 0 but $archive_b is missing"
    else
      re_sha=$(sha_of "$outdir/$archive_b")
      [ "$re_sha" = "$ref_sha" ] || fail "kill $i: (c) the build after the kill wrote sha256 $re_sha, not the reference $ref_sha (cache poisoned?)"
      [ "$(cat "$outdir/$archive_b.sha256" 2>/dev/null)" = "$ref_sum" ] || fail "kill $i: (c) after the next build $archive_b.sha256 does not hold the reference line"
    fi
    cache_left=$(find "$project/.mcpack-cache" -mindepth 2 -maxdepth 2 -name ".*$OutputMarker*" -printf '%P ' 2>/dev/null)
    [ -z "$cache_left" ] || re="$re; cache temp still there: $cache_left"
  fi

  at="$(secs "$kill_us")"
  [ "$kind" = uniform ] || at="$at ($(secs "$trigger_us") + $(secs $(( kill_us - trigger_us ))))"
  rows+=("$i|$state|$kind|$wait_s|$at|$outcome|$what|$( [ ${#left[@]} -eq 0 ] && echo none || (IFS=';'; echo "${left[*]}") )|$b_state|$re")
done 3<<<"$plan"

# A once more, after every build of B.
[ "$(sha_of "$outdir/$archive_a")" = "$a_sha" ] || fail "end: (b) $archive_a changed"
[ "$(sha_of "$outdir/$archive_a.sha256")" = "$a_sum_sha" ] || fail "end: (b) $archive_a.sha256 changed"

disk_peak=$(du -sh "$crash" | cut -f1)
say "deleting the caches moved aside during the run"
rm -rf "$trash"
disk_kept=$(du -sh "$crash" | cut -f1)
total_us=$(( $(now_us) - started_us ))
# CPU seconds of this script's children (every mcpack run, sha256sum, ...) and of everything else.
times >"$tmp/times"   # in this shell: a subshell would count only its own children
own_cpu=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, /m|s/); s += a[1] * 60 + a[2] } printf "%.0f", s }' "$tmp/times")
other_cpu=$(awk -v b="$(( $(busy_jiffies) - busy_start ))" -v hz="$(getconf CLK_TCK)" -v own="$own_cpu" 'BEGIN { o = b / hz - own; if (o < 0) o = 0; printf "%.0f", o }')

# --- 6. the report ------------------------------------------------------------

echo
echo "# mcpack crash safety, finished $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo
echo "- mcpack $mcpack_version ($mcpack of $(date -u -r "$bin" '+%Y-%m-%d %H:%M UTC'), sha256 $(sha_of "$bin" | cut -c1-16)...); $(nproc) cores; load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end"
echo "- master ${width} x ${height} ($(size_of "$master") bytes); seed $seed; kills $kills"
echo "- A ($version_a): $a_bytes bytes, sha256 $a_sha, built in $(secs "$a_build_us") s"
echo "- B ($version_b) reference: $ref_bytes bytes, $ref_tiles tiles, sha256 $ref_sha"
for s in cold part warm; do
  echo "- reference build, cache $s: $(secs "${len[$s]}") s; ${tl[$s]}"
done
echo "  (seconds since start when first seen: *_tmp an entry's temporary folder, *_done the entry; arch_tmp the temporary archive, arch_full at its final size, arch_final renamed into place, sha_final the .sha256)"
echo
echo "| # | cache | kind | drawn s | killed at s | result | doing when killed | left behind | B's final path after the kill | next build |"
echo "| ---: | --- | --- | ---: | ---: | --- | --- | --- | --- | --- |"
for r in "${rows[@]}"; do echo "| ${r//|/ | } |"; done
echo
echo "(kind: uniform = drawn over a whole reference build from that cache state; writing = after the temporary archive appeared; commit = after it reached its final size. 'killed at' for those: trigger + delay.)"
echo
echo "kills tried: $kills_done; landed while the build ran: $killed_count; total run time $(secs "$total_us") s"
echo "disk under $crash: $disk_peak before deleting what was moved aside, $disk_kept kept"
echo "CPU: this run's processes ${own_cpu} s; other processes meanwhile ${other_cpu} s (of $(( $(nproc) * total_us / 1000000 )) s available)"
if [ ${#failures[@]} -eq 0 ]; then
  echo "failures: none"
  exit 0
fi
echo "failures: ${#failures[@]}"
for f in "${failures[@]}"; do echo "  - $f"; done
echo "logs: $logs"
exit 1
