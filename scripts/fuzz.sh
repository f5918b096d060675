#!/usr/bin/env bash
# make fuzz: runs each libFuzzer target of Fuzz/ for FUZZ_SECONDS, seeded
# from the example project, and prints what it found.
#
#   FUZZ_SECONDS   seconds per target (default 120; 15 targets)
#   FUZZ_TARGETS   which targets (default: all of them)
#   FUZZ_SEEDED    set: the seeds and keys a run still going made are used
#                  as they are (not made again under it), so a second run of
#                  other targets can take another core
#
# Targets: bundle-toml and clauses-toml (the TOML loaders, with the checks
# behind them), manifest and bag-info (a small real bag with that tag file
# replaced by the input, through every BagIt and content rule), archive
# (arbitrary bytes as an archive, through verify and through diff's reader),
# png-check (the PNG chunk walk every image input goes through first);
# what a receiver checks a signature with: minisign-signature and
# minisign-key (.minisig, public and secret keys), sshsig (an SSH signature
# file, through verify's whole check) and sshsig-blob (its blob, armoured by
# the target), ssh-key (public key and certificate blobs, and the same bytes
# as a signature blob for each key type), ssh-private-key (what sign --key
# reads), allowed-signers (and the same text as --revoked-keys); and
# bagit-profile (verify --profile, held against the small bag) and
# icon-json (an Icon Composer document's icon.json through its rule).
#
# The signature targets' seeds are signatures of a fixed text made with
# keys ssh-keygen makes here (every type it signs with, a certificate, a
# passphrase-protected key) and a fixed minisign key, plus OpenSSH's FIDO
# test vectors (Tests/SSHSigVectors); the targets trust those keys, so a
# mutated good signature gets past the parsing to the checks.
#
# Everything it makes stays in .build-fuzz/ (ignored by git):
#   corpus/     the seeds, made fresh from the example project each run
#   keys/       the run's OpenSSH keys (ssh-keygen) and allowed_signers
#   work/T/     what libFuzzer added to target T's corpus (kept between runs)
#   findings/   inputs that crashed, hung or tripped AddressSanitizer
# Fuzz/runs.tsv, which is committed, gets one line per target run: date,
# target, seconds, executions, findings, host. An issue's hour of fuzzing is
# summed over many runs and sessions (scripts/fuzz.sh --total), so the record
# lives with the code rather than in a build folder a new checkout lacks.
# Lines starting with # are notes.
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
runs=Fuzz/runs.tsv

if [ "${1:-}" = "--total" ]; then
  [ -f "$runs" ] || { echo "no fuzz runs recorded in $runs"; exit 0; }
  awk -F'\t' '/^#/ { next } { s[$2] += $3; e[$2] += $4; f[$2] += $5; S += $3; E += $4; F += $5 }
    END { for (t in s) printf "%-18s %8.2f h %14d executions %4d findings\n", t, s[t] / 3600, e[t], f[t] | "sort"; close("sort");
          printf "%-18s %8.2f h %14d executions %4d findings\n", "total", S / 3600, E, F }' "$runs"
  exit 0
fi

# Linux only: -sanitize=fuzzer needs libFuzzer, which swift.org's Linux
# toolchains ship and Xcode's does not. (--total, above, runs anywhere.)
if [ "$(uname -s)" != Linux ]; then
  echo "fuzz.sh: needs Linux (libFuzzer, which swift.org's Linux toolchains ship and Xcode's does not); on a Mac run it in a Linux container or VM" >&2
  exit 2
fi

seconds="${FUZZ_SECONDS:-120}"
targets="${FUZZ_TARGETS:-bundle-toml clauses-toml manifest bag-info archive png-check minisign-signature minisign-key sshsig sshsig-blob ssh-key ssh-private-key allowed-signers bagit-profile icon-json channel}"
leaks="${FUZZ_LEAKS:-0}"

say() { printf '\n== %s\n' "$*"; }

say "building the fuzz targets (AddressSanitizer + libFuzzer, in $scratch/)"
# Every target, the dependencies' too, is compiled with AddressSanitizer and
# the coverage -sanitize=fuzzer compiles in (edges, indirect calls,
# comparisons, inline 8-bit counters, the PC table), but only mcpack-fuzz
# links libFuzzer (Package.swift, under MCPACK_FUZZ). -Xswiftc flags also
# reach the tool SwiftPM builds for the EmbedTemplates plugin: given
# -sanitize=fuzzer, that tool linked libFuzzer's main, which calls the
# LLVMFuzzerTestOneInput no tool defines, and ld.gold crashed reporting it
# ("internal error in format_file_lineno"). Compiled so, the tool links
# AddressSanitizer alone and runs in the build; its leak check is off, as
# the targets' is (below).
ASAN_OPTIONS=detect_leaks=0 MCPACK_FUZZ=1 swift build --scratch-path "$scratch" --product mcpack-fuzz \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,indirect-calls,trace-cmp,inline-8bit-counters,pc-table \
  -Xcc -fsanitize=fuzzer-no-link,address -Xcxx -fsanitize=fuzzer-no-link,address \
  2>&1 | grep -v -e "Cannot export local symbol" -e "prohibited flag" || true
fuzzer="$scratch/debug/mcpack-fuzz"
[ -x "$fuzzer" ] || { echo "fuzz build failed" >&2; exit 2; }

if [ -n "${FUZZ_SEEDED:-}" ]; then
  example="$scratch/example" keys="$scratch/keys"
  [ -d "$scratch/corpus" ] && [ -d "$keys" ] || { echo "FUZZ_SEEDED: no seeds in $scratch/corpus yet; run once without it" >&2; exit 2; }
else
  say "building the example bundle for the seeds"
  example="$scratch/example"
  rm -rf "$example" "$scratch/corpus"
  mkdir -p "$example"
  cp -R bundle.toml assets "$example/"
  [ -d MagnaCarta ] && cp -R MagnaCarta "$example/"
  (cd "$example" && ../../.build/release/mcpack build >/dev/null)

  say "making the signature targets' keys (ssh-keygen, in $scratch/keys/)"
  keys="$scratch/keys"
  rm -rf "$keys"
  mkdir -p "$keys"
  if command -v ssh-keygen >/dev/null; then
    for spec in ed25519:ed25519: rsa:rsa:2048 ecdsa:ecdsa-256:256 ecdsa:ecdsa-384:384 ecdsa:ecdsa-521:521; do
      IFS=: read -r type name bits <<<"$spec"
      ssh-keygen -q -t "$type" ${bits:+-b "$bits"} -N '' -C "$name@mcpack-fuzz" -f "$keys/$name"
    done
    ssh-keygen -q -t ed25519 -N '' -C ca@mcpack-fuzz -f "$keys/ca"
    ssh-keygen -q -s "$keys/ca" -I fuzz-certificate -n builds@example.org -V 20200101:20991231 "$keys/ed25519.pub"
    ssh-keygen -q -t ed25519 -N 'fuzz passphrase' -C encrypted@mcpack-fuzz -f "$keys/encrypted"
  else
    echo "no ssh-keygen (openssh-client): the OpenSSH targets start from OpenSSH's FIDO vectors only"
  fi
fi

export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=$leaks"
export MCPACK_FUZZ_PROJECT="$example" MCPACK_FUZZ_BASE="$scratch/corpus/base.zip" MCPACK_FUZZ_KEYS="$keys"
[ -n "${FUZZ_SEEDED:-}" ] || "$fuzzer" seed "$scratch/corpus" "$example"/dist/*.zip "$example" "$keys"

mkdir -p "$scratch/findings"
status=0
printf '\n%-18s %8s %12s %8s %8s %9s\n' target seconds executions exec/s coverage findings
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
  printf '%-18s %8s %12s %8s %8s %9s\n' "$target" "$seconds" "${execs:-0}" "${rate:-0}" "${cov:-0}" "$found"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$seconds" "${execs:-0}" "$found" "$(uname -n)" >>"$runs"
  [ "$found" -eq 0 ] || status=1
done

if [ "$status" -ne 0 ]; then
  say "findings (replay one with: MCPACK_FUZZ_PROJECT=$example MCPACK_FUZZ_BASE=$MCPACK_FUZZ_BASE $fuzzer TARGET FILE)"
  ls -1 "$scratch/findings"
fi
say "fuzzing recorded so far (scripts/fuzz.sh --total)"
bash "$0" --total
exit "$status"
