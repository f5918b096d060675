#!/usr/bin/env bash
# Crash safety of `mcpack pull`: kills real updates with SIGKILL at random
# moments and checks that the bundle folder always holds the old version or
# the new one, verifying, and that the next pull completes. Linux only (it
# serves the channel with Debian's nginx and reads /proc; --slow-last-renames
# runs the pulls under strace).
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: scripts/pull-crash-safety.sh [--kills N] [--seed S]
                                    [--slow-last-renames [--delay MS]] [-h | --help]

  1. Copies the example project (bundle.toml, assets/) to
     bench/cache/pull-crash/, builds 1.0.0, then 2.0.0 with the document's
     JPEG quality changed (so every tile changes and an update fetches
     most of the bundle), and publishes both to a channel served by nginx
     on loopback.
  2. Installs 1.0.0 into kiosk/ (from a channel holding 1.0.0 alone) and
     keeps that state as the starting point; times a full update to 2.0.0.
  3. N times (default 30): restores the 1.0.0 state, starts
     `mcpack pull`, and kills it with SIGKILL at a moment drawn uniformly
     over the timed update (seeded). Then checks that
       (a) kiosk/ is 1.0.0 or 2.0.0, and `mcpack verify kiosk` exits 0;
       (b) the next `mcpack pull` exits 0, kiosk/ is 2.0.0 and verifies,
           and no staging folder or download is left behind.
     Each kill is named by the phase it landed in, read from what the
     pull had made: checking (nothing yet), fetching (a download under
     way), assembling (a staging folder), moved (the new version in place,
     the link not yet switched), switched (the link at 2.0.0); moments are
     drawn over 1.2 times a full update, so some land after it ended
     ("finished", which do not count as landing).
  4. Exits 1 on any failure, 2 when it could not run.

  --slow-last-renames  Makes kills land in the last steps too, which last
     milliseconds: every pull (the timed one and the killed ones) runs
     under strace, which holds each of four system calls of the update's
     end for MS milliseconds (--delay, default 400) before it runs,
     picked by path (-P): the fsync of the staging folder and its rename
     into versions/ (both "assembling": the staging folder is still
     there), the rename of the new link over kiosk ("moved": the new
     version in versions/, the link at 1.0.0), and the fsync of kiosk's
     folder that follows it ("switched": the link at 2.0.0, state.json
     not yet written). mcpack itself is unchanged. The kill moments are
     drawn over the full update timed under the same strace set-up, and
     the kill reaches the mcpack process, strace's child, not strace (a
     tracer killed first can leave its tracee running). Needs strace
     (scripts/install-deps.sh --test installs it) and ptrace allowed (a
     container without CAP_SYS_PTRACE may refuse it). Not strace's when=
     counter (delay from the Nth rename on): strace counts calls per
     thread, and the pull's renames (549 in this update) fall on its
     threads differently from run to run.
USAGE
}

kills=30
seed=1
slow=0
slow_ms=400
while [ $# -gt 0 ]; do
  case "$1" in
    --kills) kills="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --slow-last-renames) slow=1; shift ;;
    --delay) slow_ms="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown argument: $1" >&2; usage >&2; exit 2 ;;
  esac
done
[ "$(uname -s)" = Linux ] || { echo "pull-crash-safety runs on Linux only" >&2; exit 2; }
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || { echo "nginx is missing: scripts/install-deps.sh --test installs it" >&2; exit 2; }
command -v minisign >/dev/null || { echo "minisign is missing: scripts/install-deps.sh --test installs it" >&2; exit 2; }
case "$slow_ms" in ''|*[!0-9]*) echo "--delay takes a whole number of milliseconds" >&2; exit 2 ;; esac
if [ "$slow" = 1 ]; then
  command -v strace >/dev/null || { echo "strace is missing: scripts/install-deps.sh --test installs it" >&2; exit 2; }
  strace -f --seccomp-bpf -qq -o /dev/null true 2>/dev/null \
    || { echo "strace cannot trace here (ptrace not allowed?): --slow-last-renames needs it" >&2; exit 2; }
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
mcpack="$repo/.build/release/mcpack"
[ -x "$mcpack" ] || { echo "$mcpack is missing: make build" >&2; exit 2; }
work="$repo/bench/cache/pull-crash"
rm -rf "$work"
mkdir -p "$work/project" "$work/nginx/temp"
cp -R "$repo/bundle.toml" "$repo/assets" "$work/project/"
cd "$work/project"

echo "building 1.0.0 and 2.0.0 of the example"
"$mcpack" build >/dev/null
sed -i 's/^version = "1.0.0"/version = "2.0.0"/; s/^quality = 85/quality = 80/' bundle.toml
"$mcpack" build >/dev/null
minisign -G -W -p k.pub -s k.key >/dev/null
"$mcpack" publish dist/magna-carta-1.0.0.zip --channel channel-v1 --sign-key k.key >/dev/null
cp -R channel-v1 channel
"$mcpack" publish dist/magna-carta-2.0.0.zip --channel channel --sign-key k.key >/dev/null

port=$((20000 + RANDOM % 30000))
cat > "$work/nginx/nginx.conf" <<CONF
daemon off; master_process off; worker_processes 1;
pid $work/nginx/nginx.pid; error_log $work/nginx/error.log;
events { worker_connections 64; }
http { access_log off; client_body_temp_path $work/nginx/temp; proxy_temp_path $work/nginx/temp;
  fastcgi_temp_path $work/nginx/temp; uwsgi_temp_path $work/nginx/temp; scgi_temp_path $work/nginx/temp;
  server { listen 127.0.0.1:$port; root $work/project; } }
CONF
"$nginx" -p "$work/nginx" -c "$work/nginx/nginx.conf" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 0.5

pull() { "$mcpack" pull "http://127.0.0.1:$port/$1/" --into kiosk --public-key k.pub "${@:2}"; }
version() { sed -n 's/.*"version" : "\([^"]*\)".*/\1/p' kiosk/data/bundle.json | head -1; }

pull channel-v1 >/dev/null
[ "$(version)" = 1.0.0 ] || { echo "could not install 1.0.0" >&2; exit 2; }
rm -rf start && mkdir start && cp -a kiosk kiosk.mcpack start/

restore() { rm -rf kiosk kiosk.mcpack && cp -a start/kiosk start/kiosk.mcpack .; }

# --slow-last-renames: the pulls to time and kill run under strace, which
# delays the update's last steps. Paths as mcpack passes them (absolute,
# from the physical working folder), since -P compares the strings; -P
# also matches a call on a descriptor of that folder (the fsyncs).
# --seccomp-bpf stops the pull only at these calls, not at every one.
traced=()
if [ "$slow" = 1 ]; then
  here=$(pwd -P)
  calls=rename,renameat,renameat2,fsync,fdatasync
  traced=(strace -f --seccomp-bpf -qq -o /dev/null -e trace="$calls"
    -P "$here/kiosk.mcpack/versions/.staging-magna-carta-2.0.0"
    -P "$here/.kiosk.mcpack-switch"
    -P "$here"
    -e inject="$calls:delay_enter=$((slow_ms * 1000))")
fi

restore
begin=$(date +%s.%N)
"${traced[@]}" "$mcpack" pull "http://127.0.0.1:$port/channel/" --into kiosk --public-key k.pub >/dev/null
full=$(echo "$(date +%s.%N) - $begin" | bc)
[ "$(version)" = 2.0.0 ] || { echo "could not update to 2.0.0" >&2; exit 2; }
if [ "$slow" = 1 ]; then
  echo "a full update under strace, its last steps delayed ${slow_ms} ms each, takes ${full}s; $kills kills over it (seed $seed)"
else
  echo "a full update takes ${full}s; $kills kills over it (seed $seed)"
fi

# What a finished pull must not leave: staging folders and downloads.
leftovers() {
  local found
  found=$(compgen -G "kiosk.mcpack/versions/.staging-*" | tr '\n' ' ' || true)
  if [ -e kiosk.mcpack/downloads ]; then
    found="${found}kiosk.mcpack/downloads ($(find kiosk.mcpack/downloads -type f | wc -l) files)"
  fi
  echo "$found"
}

RANDOM=$seed
failures=0
declare -A phases
for kill in $(seq 1 "$kills"); do
  restore
  # The draw in bash: bc's % at a nonzero scale is always 0.
  draw=$((RANDOM % 1000))
  # Over a fifth more than a full update, so some kills land after the
  # switch, while the pull cleans up.
  delay=$(echo "scale=3; $full * 1.2 * $draw / 1000" | bc)
  # The binary itself in the background, not a shell function: the kill
  # must reach mcpack, not a subshell waiting for it.
  "${traced[@]}" "$mcpack" pull "http://127.0.0.1:$port/channel/" --into kiosk --public-key k.pub >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  target=$pid
  if [ "$slow" = 1 ]; then
    # Under strace, mcpack is strace's child: found once strace has
    # started it (a draw near 0 can come first), gone once it ended.
    target=$(pgrep -P "$pid" || true)
    while [ -z "$target" ] && kill -0 "$pid" 2>/dev/null; do
      sleep 0.01
      target=$(pgrep -P "$pid" || true)
    done
  fi
  phase="finished"
  if [ -n "$target" ] && kill -0 "$target" 2>/dev/null; then
    if [ "$(version)" = 2.0.0 ]; then phase="switched"
    elif compgen -G "kiosk.mcpack/downloads/*.part" >/dev/null; then phase="fetching"
    elif compgen -G "kiosk.mcpack/versions/.staging-*" >/dev/null; then phase="assembling"
    elif [ -d kiosk.mcpack/versions/magna-carta-2.0.0 ]; then phase="moved"
    else phase="checking"; fi
    kill -9 "$target" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
  phases[$phase]=$(( ${phases[$phase]:-0} + 1 ))
  found=$(version)
  problem=""
  if [ "$found" != 1.0.0 ] && [ "$found" != 2.0.0 ]; then problem="kiosk holds '$found'"
  elif ! "$mcpack" verify kiosk >/dev/null 2>&1; then problem="kiosk ($found) does not verify"
  elif ! pull channel >/dev/null 2>&1; then problem="the next pull failed"
  elif [ "$(version)" != 2.0.0 ] || ! "$mcpack" verify kiosk >/dev/null 2>&1; then problem="after the next pull kiosk is not 2.0.0, verifying"
  elif left=$(leftovers) && [ -n "$left" ]; then problem="leftovers after the next pull: $left"
  fi
  printf 'kill %2d at %6.3fs (%s): %s\n' "$kill" "$delay" "$phase" "${problem:-ok, held $found}"
  [ -z "$problem" ] || failures=$((failures + 1))
done
echo -n "phases:"; for phase in "${!phases[@]}"; do echo -n " $phase ${phases[$phase]}"; done; echo
[ "$failures" -eq 0 ] && echo "all $kills kills: kiosk held 1.0.0 or 2.0.0, verifying, and the next pull completed" || { echo "$failures failures"; exit 1; }
