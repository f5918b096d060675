#!/usr/bin/env bash
# Installs what mcpack needs to build and test, and only what is missing:
# the C libraries (libvips, Little CMS, libarchive, OpenSSL, zlib) with
# pkg-config (on macOS also GNU tar, which `make dist` needs), and for the
# tests bagit.py (PyPI's bagit), zstd, man-db, minisign, ssh-keygen
# (openssh-client), nginx, strace (Linux) and a free Adobe RGB compatible
# colour profile; Chromium (Debian's, else Playwright's own), Python 3.12
# and the Python tools in Tests/Python/requirements.txt
# (scripts/test-python.sh). Debian/Ubuntu through apt, macOS through
# Homebrew. The Swift toolchain itself is not installed here.
#
# Runs under macOS's own bash 3.2 too: no mapfile, associative arrays or
# ${var,,}, and no "${array[@]}" that may be empty under set -u.
set -euo pipefail

want_tests=0
[ "${1:-}" = "--test" ] && want_tests=1

say() { printf 'install-deps: %s\n' "$*" >&2; }

if ! command -v swift >/dev/null 2>&1; then
  say "no Swift toolchain on PATH; install Swift 6.1 or later from swift.org (or Xcode 16.3 or later on macOS) first"
  exit 1
fi

case "$(uname -s)" in
Linux)
  missing=()
  command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
  pkgcheck() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"; }
  pkgcheck vips || missing+=(libvips-dev)
  pkgcheck libarchive || missing+=(libarchive-dev)
  pkgcheck libcrypto || missing+=(libssl-dev)
  pkgcheck zlib || missing+=(zlib1g-dev)
  pkgcheck lcms2 || missing+=(liblcms2-dev)
  if [ $want_tests = 1 ]; then
    command -v zstd >/dev/null 2>&1 || missing+=(zstd)
    # The signature tests check mcpack's signatures with, and against, the
    # tools receivers use: minisign and OpenSSH's ssh-keygen.
    command -v minisign >/dev/null 2>&1 || missing+=(minisign)
    command -v ssh-keygen >/dev/null 2>&1 || missing+=(openssh-client)
    # The update tests serve channels with a real web server on loopback
    # (Range requests included). Looked for where Debian puts it, since
    # /usr/sbin is not on every user's PATH.
    command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
    # scripts/pull-crash-safety.sh --slow-last-renames delays an update's
    # last steps with strace's syscall injection (Linux only, as is that
    # script: nothing to install on macOS).
    command -v strace >/dev/null 2>&1 || missing+=(strace)
    # An Adobe RGB (1998) compatible profile, for the colour tests.
    [ -f /usr/share/color/icc/compatibleWithAdobeRGB1998.icc ] || missing+=(icc-profiles-free)
    # man -l, which renders the installed man pages in InstallTests. Asked of
    # dpkg: minimized Ubuntu images have a stand-in /usr/bin/man without it.
    dpkg-query -W -f='${Status}' man-db 2>/dev/null | grep -q 'ok installed' || missing+=(man-db)
    if ! command -v python3 >/dev/null 2>&1; then
      missing+=(python3 python3-pip)
    elif ! command -v bagit.py >/dev/null 2>&1 && ! python3 -m pip --version >/dev/null 2>&1; then
      missing+=(python3-pip)  # a Python without pip, as in the swift images
    fi
    # scripts/test-python.sh makes a venv; Debian and Ubuntu ship that apart.
    if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import ensurepip' 2>/dev/null; then
      missing+=(python3-venv)
    fi
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  # The browser the page tests drive through Playwright: Debian's chromium.
  # Apart, as Ubuntu has no such package (its chromium is a snap, which
  # does not run in a container); there Playwright's own Chromium is used
  # (below).
  if [ $want_tests = 1 ] && ! command -v chromium >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    # Not `grep -q`: it stops reading at the first match, apt-cache dies of
    # SIGPIPE, and pipefail turns the found package into a failure.
    if apt-cache show chromium 2>/dev/null | grep '^Version: [0-9]' >/dev/null; then
      say "installing chromium"
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null \
        || say "could not install chromium with apt"
    fi
  fi
  ;;
Darwin)
  command -v brew >/dev/null 2>&1 || { say "no brew on PATH; install Homebrew (https://brew.sh) first"; exit 1; }
  # Formula names as `brew list` prints them: pkgconf is what Homebrew's
  # pkg-config alias installs (a pkg-config on PATH will do). gnu-tar: `make
  # dist` writes the tarball with GNU tar (as gtar; macOS's tar is bsdtar),
  # and the tests read GNU tar's listing.
  formulae="vips little-cms2 libarchive openssl@3 gnu-tar"
  command -v pkg-config >/dev/null 2>&1 || formulae="pkgconf $formulae"
  if [ $want_tests = 1 ]; then
    # python@3.12: scripts/test-python.sh needs Python 3.12 or later and
    # takes python3.12 first, the version Linux CI runs (Ubuntu 24.04's).
    formulae="$formulae zstd minisign nginx"
    command -v python3.12 >/dev/null 2>&1 || formulae="$formulae python@3.12"
  fi
  installed="$(brew list --formula -1 2>/dev/null || true)"
  wanted=""
  for formula in $formulae; do
    grep -Fqx -- "$formula" <<<"$installed" || wanted="$wanted $formula"
  done
  if [ -n "$wanted" ]; then
    say "brew install$wanted"
    # shellcheck disable=SC2086  # one word per formula
    brew install $wanted
  fi
  ;;
*)
  say "$(uname -s) is neither Linux (apt) nor macOS (Homebrew): install libvips, Little CMS, libarchive, OpenSSL, zlib and pkg-config yourself"
  ;;
esac

if [ $want_tests = 1 ] && ! command -v bagit.py >/dev/null 2>&1; then
  say "installing bagit (bagit.py, the reference BagIt validator) from PyPI"
  if [ "$(uname -s)" = Darwin ]; then
    # Homebrew's Python refuses pip installs outside a virtual environment
    # (PEP 668), and would put scripts off PATH anyway. pipx gives bagit its
    # own environment and links bagit.py into its bin folder (~/.local/bin
    # unless PIPX_BIN_DIR says otherwise), which the Makefile puts on PATH.
    command -v pipx >/dev/null 2>&1 || { say "brew install pipx"; brew install pipx; }
    pipx install bagit
    bin="${PIPX_BIN_DIR:-$HOME/.local/bin}"
    command -v bagit.py >/dev/null 2>&1 || say "bagit.py is in $bin: put that folder on PATH to run swift test outside make"
  else
    python3 -m pip install --quiet --disable-pip-version-check bagit 2>/dev/null \
      || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages bagit
  fi
fi

# The browser and IIIF tests' Python tools, in their own virtual environment
# (.build/test-python, Python 3.12 or later).
if [ $want_tests = 1 ]; then
  py="$(scripts/test-python.sh)"
  # No Chromium of the system's (Ubuntu, or a Mac without Chrome): the one
  # Playwright downloads for its own version, with the libraries it needs.
  if ! "$py" Tests/Browser/browser.py --find >/dev/null 2>&1; then
    say "no system Chromium; installing Playwright's"
    if [ "$(uname -s)" = Linux ]; then
      sudo=""
      [ "$(id -u)" -ne 0 ] && sudo="sudo"
      $sudo "$py" -m playwright install-deps chromium >/dev/null
    fi
    "$py" -m playwright install chromium >/dev/null
  fi
fi
