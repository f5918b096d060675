#!/usr/bin/env bash
# What `make install`, `make uninstall` and `make dist` do, given a built
# mcpack; the tests call it with theirs (Tests/MCPackTests/Install).
#
#   scripts/install.sh stage BIN STAGE         lay out under STAGE what an install holds:
#                                              bin/mcpack, the man pages, the completions
#   scripts/install.sh install STAGE DEST      copy the staged files into DEST ($DESTDIR$PREFIX)
#   scripts/install.sh uninstall STAGE DEST [TOP]
#                                              remove from DEST exactly the staged files; with
#                                              TOP (a DESTDIR), also the folders left empty, up to TOP
#   scripts/install.sh dist STAGE TARBALL      STAGE as a reproducible .tar.gz, and TARBALL.sha256
#
# The man pages (mcpack.1 and one per subcommand) come from the same
# ArgumentParser definitions as --help: swift-argument-parser's
# generate-manual (the tool behind its GenerateManual plugin, from the
# pinned checkout in .build/checkouts) reads `mcpack --experimental-dump-help`.
# It is built once into .build/generate-manual, with its own scratch path, so
# this never takes the lock of .build that `swift build` and `swift test` hold.
# MCPACK_GENERATE_MANUAL names another generate-manual binary to use.
#
# Dates: the man pages' date and the tarball's mtimes are SOURCE_DATE_EPOCH,
# else the last commit's date, so the same source gives the same bytes.
#
# On a Mac (under its own bash 3.2 too): the copies through tar are macOS's
# bsdtar, which COPYFILE_DISABLE keeps from carrying extended attributes
# (as ._ files); the tarball itself is written by GNU tar (gtar, Homebrew's
# gnu-tar, which scripts/install-deps.sh installs there).
set -euo pipefail
export COPYFILE_DISABLE=1

root="$(cd "$(dirname "$0")/.." && pwd)"
say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

# The files an install holds, relative to the prefix, for the man pages in
# the stage: used by install, uninstall and dist alike.
staged_files() {
  (cd "$1" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
}

source_date_epoch() {
  if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
    printf '%s\n' "$SOURCE_DATE_EPOCH"
  elif git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$root" log -1 --format=%ct
  else
    die "set SOURCE_DATE_EPOCH (not a git checkout, so no commit date to use)"
  fi
}

generate_manual_tool() {
  if [ -n "${MCPACK_GENERATE_MANUAL:-}" ]; then
    printf '%s\n' "$MCPACK_GENERATE_MANUAL"
    return
  fi
  local checkout="$root/.build/checkouts/swift-argument-parser"
  local work="$root/.build/generate-manual"
  [ -f "$checkout/Package.swift" ] || die "no $checkout: build mcpack first (swift build), which checks out swift-argument-parser"
  # A copy of the checkout, so building it writes nothing into SwiftPM's.
  local stamp
  stamp="$(git -C "$checkout" rev-parse HEAD 2>/dev/null || cksum <"$checkout/Package.swift")"
  if [ "$(cat "$work/stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$work/src"
    mkdir -p "$work/src"
    tar -C "$checkout" --exclude=./.git --exclude=./.build -cf - . | tar -C "$work/src" -xf -
    printf '%s\n' "$stamp" >"$work/stamp"
  fi
  [ -x "$work/scratch/debug/generate-manual" ] || say "building generate-manual from $checkout (once, into $work)"
  if ! swift build --package-path "$work/src" --scratch-path "$work/scratch" --product generate-manual >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    die "cannot build generate-manual (log above, and in $work/build.log)"
  fi
  printf '%s\n' "$work/scratch/debug/generate-manual"
}

stage() {
  local bin="$1" stage="$2"
  [ -x "$bin" ] || die "no mcpack at $bin"
  local tool epoch day
  tool="$(generate_manual_tool)"
  epoch="$(source_date_epoch)"
  day="$(date -u -d "@$epoch" +%Y-%m-%d 2>/dev/null || date -u -r "$epoch" +%Y-%m-%d)"
  local final="$stage"
  stage="$final.tmp"
  rm -rf "$stage"
  mkdir -p "$stage/bin" "$stage/share/man/man1" "$stage/share/bash-completion/completions" \
    "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d"
  cp "$bin" "$stage/bin/mcpack"
  chmod 755 "$stage/bin/mcpack"
  # Generated from the staged copy, so the pages name `mcpack` whatever the
  # built binary's path.
  "$tool" "$stage/bin/mcpack" --multi-page --date "$day" --output-directory "$stage/share/man/man1" \
    || die "generate-manual failed"
  # Two fixes of layout, not of words, so that man and mandoc render the
  # pages without a warning: a discussion's paragraphs are split by an empty
  # line, where mdoc wants .Pp; and mdoc wants each sentence of a text line
  # on a line of its own.
  local page
  for page in "$stage"/share/man/man1/*.1; do
    perl -pe 'if (/^$/) { $_ = ".Pp\n" } elsif (!/^[.\x27]/) { s/([.!?]) +(?=[A-Z])/$1\n/g }' "$page" >"$page.tmp"
    mv "$page.tmp" "$page"
  done
  "$stage/bin/mcpack" --generate-completion-script bash >"$stage/share/bash-completion/completions/mcpack"
  "$stage/bin/mcpack" --generate-completion-script zsh >"$stage/share/zsh/site-functions/_mcpack"
  "$stage/bin/mcpack" --generate-completion-script fish >"$stage/share/fish/vendor_completions.d/mcpack.fish"
  find "$stage" -type d -exec chmod 755 {} +
  find "$stage/share" -type f -exec chmod 644 {} +
  rm -rf "$final"
  mv "$stage" "$final"
}

install_files() {
  local stage="$1" dest="$2" file mode
  [ -d "$stage/bin" ] || die "nothing staged in $stage"
  staged_files "$stage" | while IFS= read -r file; do
    mode=644
    [ "${file%%/*}" = bin ] && mode=755
    mkdir -p "$dest/$(dirname "$file")"
    # Through a temporary name: a running mcpack is never overwritten in place.
    cp "$stage/$file" "$dest/$file.tmp.$$"
    chmod "$mode" "$dest/$file.tmp.$$"
    mv -f "$dest/$file.tmp.$$" "$dest/$file"
    printf 'installed %s\n' "$dest/$file"
  done
}

uninstall_files() {
  local stage="$1" dest="$2" top="${3:-}" file dir
  [ -d "$stage/bin" ] || die "nothing staged in $stage (run make stage first): it lists what to remove"
  staged_files "$stage" | while IFS= read -r file; do
    if [ -e "$dest/$file" ] || [ -L "$dest/$file" ]; then
      rm -f "$dest/$file"
      printf 'removed %s\n' "$dest/$file"
    fi
  done
  # Into a DESTDIR (a staging root), the folders the install made go too;
  # into the live system, shared folders such as share/man/man1 stay.
  if [ -n "$top" ]; then
    top="$(cd "$top" && pwd)"
    staged_files "$stage" | while IFS= read -r file; do
      dir="$(dirname "$dest/$file")"
      while [ -d "$dir" ] && [ "$(cd "$dir" && pwd)" != "$top" ] && [ -z "$(ls -A "$dir")" ]; do
        rmdir "$dir"
        dir="$(dirname "$dir")"
      done
    done
  fi
}

# A tarball that depends only on the staged bytes: entries in byte order
# under one top folder, every mtime the source date, owner 0:0, fixed modes,
# no PAX times, and gzip without a name or time stamp.
dist() {
  local stage="$1" tarball="$2" epoch top tmp
  [ -d "$stage/bin" ] || die "nothing staged in $stage"
  epoch="$(source_date_epoch)"
  top="$(basename "$tarball" .tar.gz)"
  tmp="$(mktemp -d)"
  mkdir -p "$tmp/$top"
  (cd "$stage" && tar -cf - .) | tar -C "$tmp/$top" -xf -
  find "$tmp/$top" -type d -exec chmod 755 {} +
  find "$tmp/$top" -type f -exec chmod 644 {} +
  chmod 755 "$tmp/$top/bin/mcpack"
  local gnutar=tar
  command -v gtar >/dev/null 2>&1 && gnutar=gtar
  "$gnutar" --version 2>/dev/null | grep 'GNU tar' >/dev/null || die "dist needs GNU tar (brew install gnu-tar on macOS; scripts/install-deps.sh does)"
  mkdir -p "$(dirname "$tarball")"
  (cd "$tmp" && find "$top" -print0 | LC_ALL=C sort -z |
    "$gnutar" --null --no-recursion -T - --format=gnu --numeric-owner --owner=0 --group=0 \
      --mtime="@$epoch" -cf -) | gzip -n -9 >"$tarball.tmp"
  mv -f "$tarball.tmp" "$tarball"
  rm -rf "$tmp"
  (cd "$(dirname "$tarball")" &&
    if command -v sha256sum >/dev/null; then sha256sum "$(basename "$tarball")"; else shasum -a 256 "$(basename "$tarball")"; fi
  ) >"$tarball.sha256"
  printf '%s\n' "$tarball" "$tarball.sha256"
}

command="${1:-}"
shift || true
case "$command" in
stage) [ $# -eq 2 ] || die "usage: $0 stage BIN STAGE"; stage "$@" ;;
install) [ $# -eq 2 ] || die "usage: $0 install STAGE DEST"; install_files "$@" ;;
uninstall) [ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 uninstall STAGE DEST [TOP]"; uninstall_files "$@" ;;
dist) [ $# -eq 2 ] || die "usage: $0 dist STAGE TARBALL"; dist "$@" ;;
*) die "usage: $0 stage|install|uninstall|dist ... (see the top of this script)" ;;
esac
