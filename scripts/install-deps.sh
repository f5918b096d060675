#!/usr/bin/env bash
# Installs what mcpack needs to build and test, and only what is missing:
# the C libraries (libvips, Little CMS, libarchive, OpenSSL, zlib) with
# pkg-config, and for the tests bagit.py (PyPI's bagit), zstd, man-db,
# minisign, ssh-keygen (openssh-client) and a free Adobe RGB compatible
# colour profile; Chromium (Debian's, else
# Playwright's own) and the Python tools in Tests/Python/requirements.txt
# (scripts/test-python.sh). Debian/Ubuntu through apt,
# macOS through Homebrew. The Swift toolchain itself is not installed here.
set -euo pipefail

want_tests=0
[ "${1:-}" = "--test" ] && want_tests=1

say() { printf 'install-deps: %s\n' "$*" >&2; }

if ! command -v swift >/dev/null 2>&1; then
  say "no Swift toolchain on PATH; install Swift 6 from swift.org (or Xcode on macOS) first"
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
  for formula in pkg-config vips little-cms2 libarchive openssl@3; do
    brew list --versions "$formula" >/dev/null 2>&1 || { say "brew install $formula"; brew install "$formula"; }
  done
  if [ $want_tests = 1 ]; then
    # gnu-tar: the tests read GNU tar's listing (as gtar; macOS's tar is bsdtar).
    for formula in zstd gnu-tar minisign; do
      brew list --versions "$formula" >/dev/null 2>&1 || { say "brew install $formula"; brew install "$formula"; }
    done
  fi
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
