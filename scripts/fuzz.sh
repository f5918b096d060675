#!/usr/bin/env bash
# make fuzz: runs each libFuzzer target of Fuzz/ for FUZZ_SECONDS, seeded
# from the example project, and prints what it found.
#
#   FUZZ_SECONDS   seconds per target (default 120; 6 targets)
#   FUZZ_TARGETS   which targets (default: all of them)
#
# Targets: bundle-toml and clauses-toml (the TOML loaders, with the checks
# behind them), manifest and bag-info (a small real bag with that tag file
# replaced by the input, through every BagIt and content rule), archive
# (arbitrary bytes as an archive, through verify and through diff's reader),
# png-check (the PNG chunk walk every image input goes through first).
#
# Everything it makes stays in .build-fuzz/ (ignored by git):
#   corpus/     the seeds, made fresh from the example project each run
#   work/T/     what libFuzzer added to target T's corpus (kept between runs)
#   findings/   inputs that crashed, hung or tripped AddressSanitizer
#   runs.tsv    one line per target run: date, target, seconds, executions,
#               findings (scripts/fuzz.sh --total sums it for the docs)
# Fuzz/regressions/T/ holds inputs that once found a bug; they are replayed
# first here, and by the test suite (FuzzRegressionTests) in make test.
#
# Leak checking is off: LeakSanitizer misreads Swift values whose pointers
# carry enum tag bits as leaks, and TOMLKit 0.6.0 never frees parsed tables.
# Leaks in mcpack's own C calls are found with FUZZ_LEAKS=1 and reading the
# stacks (that is how the OpenSSL context leak was found).
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-fuzz
runs="$scratch/runs.tsv"

if [ "${1:-}" = "--total" ]; then
  [ -f "$runs" ] || { echo "no fuzz runs recorded in $runs"; exit 0; }
  awk -F'\t' '{ s[$2] += $3; e[$2] += $4; f[$2] += $5; S += $3; E += $4; F += $5 }
    END { for (t in s) printf "%-14s %8.2f h %14d executions %4d findings\n", t, s[t] / 3600, e[t], f[t];
          printf "%-14s %8.2f h %14d executions %4d findings\n", "total", S / 3600, E, F }' "$runs"
  exit 0
fi

# Linux only: -sanitize=fuzzer needs libFuzzer, which swift.org's Linux
# toolchains ship and Xcode's does not. (--total, above, runs anywhere.)
if [ "$(uname -s)" != Linux ]; then
  echo "fuzz.sh: needs Linux (libFuzzer, which swift.org's Linux toolchains ship and Xcode's does not); on a Mac run it in a Linux container or VM" >&2
  exit 2
fi

seconds="${FUZZ_SECONDS:-120}"
targets="${FUZZ_TARGETS:-bundle-toml clauses-toml manifest bag-info archive png-check}"
leaks="${FUZZ_LEAKS:-0}"

say() { printf '\n== %s\n' "$*"; }

say "building the fuzz targets (AddressSanitizer + libFuzzer, in $scratch/)"
MCPACK_FUZZ=1 swift build --scratch-path "$scratch" --product mcpack-fuzz \
  -Xswiftc -sanitize=fuzzer,address \
  -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address \
  2>&1 | grep -v -e "Cannot export local symbol" -e "prohibited flag" || true
fuzzer="$scratch/debug/mcpack-fuzz"
[ -x "$fuzzer" ] || { echo "fuzz build failed" >&2; exit 2; }

say "building the example bundle for the seeds"
example="$scratch/example"
rm -rf "$example" "$scratch/corpus"
mkdir -p "$example"
cp -R bundle.toml assets "$example/"
[ -d MagnaCarta ] && cp -R MagnaCarta "$example/"
(cd "$example" && ../../.build/release/mcpack build >/dev/null)
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=$leaks"
export MCPACK_FUZZ_PROJECT="$example" MCPACK_FUZZ_BASE="$scratch/corpus/base.zip"
"$fuzzer" seed "$scratch/corpus" "$example"/dist/*.zip "$example"

mkdir -p "$scratch/findings"
status=0
printf '\n%-14s %8s %12s %8s %8s %9s\n' target seconds executions exec/s coverage findings
for target in $targets; do
  work="$scratch/work/$target"
  log="$scratch/$target.log"
  mkdir -p "$work"
  before=$(find "$scratch/findings" -name "$target-*" | wc -l)
  corpora=("$work" "$scratch/corpus/$target")
  [ -d "Fuzz/regressions/$target" ] && corpora+=("Fuzz/regressions/$target")
  # -fork=1 keeps going after a finding, so one bug does not hide the next.
  "$fuzzer" "$target" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=262144 \
    -detect_leaks="$leaks" -artifact_prefix="$scratch/findings/$target-" \
    "${corpora[@]}" >"$log" 2>&1 || true
  after=$(find "$scratch/findings" -name "$target-*" | wc -l)
  found=$((after - before))
  execs=$(grep -o '#[0-9]*' "$log" | tail -1 | tr -d '#')
  rate=$(grep -o 'exec/s: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  printf '%-14s %8s %12s %8s %8s %9s\n' "$target" "$seconds" "${execs:-0}" "${rate:-0}" "${cov:-0}" "$found"
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$seconds" "${execs:-0}" "$found" >>"$runs"
  [ "$found" -eq 0 ] || status=1
done

if [ "$status" -ne 0 ]; then
  say "findings (replay one with: MCPACK_FUZZ_PROJECT=$example MCPACK_FUZZ_BASE=$MCPACK_FUZZ_BASE $fuzzer TARGET FILE)"
  ls -1 "$scratch/findings"
fi
say "fuzzing recorded so far (scripts/fuzz.sh --total)"
bash "$0" --total
exit "$status"
