# The two commands a newcomer needs:  make demo   and   make test
# Both install what is missing first (scripts/install-deps.sh).

SWIFT ?= swift
UNAME := $(shell uname -s)
# libarchive and OpenSSL are keg-only in Homebrew (macOS has its own), so
# their .pc files are not where pkg-config looks: point it at them. (SwiftPM
# also looks in opt/FORMULA/lib/pkgconfig for each .brew provider that
# Package.swift names; this covers pkg-config run any other way.)
# `make env` prints these for a shell that runs swift build itself.
ifeq ($(UNAME),Darwin)
BREW_PREFIX := $(shell brew --prefix 2>/dev/null)
ifneq ($(BREW_PREFIX),)
KEG_PKG_CONFIG_PATH := $(BREW_PREFIX)/opt/libarchive/lib/pkgconfig:$(BREW_PREFIX)/opt/openssl@3/lib/pkgconfig
export PKG_CONFIG_PATH := $(KEG_PKG_CONFIG_PATH)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
endif
# Where pipx links bagit.py (scripts/install-deps.sh --test installs it so).
PIPX_BIN := $(or $(PIPX_BIN_DIR),$(HOME)/.local/bin)
export PATH := $(PIPX_BIN):$(PATH)
endif

RELEASE_BIN := .build/release/mcpack
# On Linux the release binary carries Swift's runtime and Foundation in
# itself: it runs where no Swift is installed, and starts sooner, with no
# Swift libraries for the dynamic loader to find and bind.
ifeq ($(UNAME),Linux)
STATIC_STDLIB := --static-swift-stdlib
endif

# bench, fuzz and crash-safety run on Linux only (they read /proc, time with
# GNU time, ...): elsewhere their script says so and exits 2, before any
# build, so mcpack is built for them on Linux only.
ifeq ($(UNAME),Linux)
LINUX_BUILD := build
endif

.PHONY: all deps build test demo env bench fuzz campaign crash-safety pull-crash-safety assets preview-screenshot measure-screenshot diff-screenshot clean help stage install uninstall dist

all: build

help:
	@echo "make demo    install what is missing, build mcpack, build the example bundle, verify it"
	@echo "make test    install what is missing, run every test"
	@echo "make build   build mcpack (release) into $(RELEASE_BIN)"
	@echo "make env     on a Mac, the exports swift build and swift test need when run by hand: eval \"\$$(make -s env)\""
	@echo "make bench   time mcpack against vips/bagit.py/zip/sha256sum/diff on a 34,000 px master (minutes; Linux)"
	@echo "make fuzz    run each libFuzzer target for FUZZ_SECONDS (default 120) seeded from the example (Linux)"
	@echo "make campaign      damage the example archive at random (seeded); count what verify detects and misses"
	@echo "make crash-safety  SIGKILL mcpack build at random moments on the benchmark master; check archives and cache (~6 min; Linux)"
	@echo "make pull-crash-safety  SIGKILL mcpack pull at random moments of an update of the example, and in its slowed last steps; check the bundle folder (Linux)"
	@echo "make assets  regenerate the example project's images (needs Python with Pillow)"
	@echo "make preview-screenshot  remake docs/preview.png, the README's picture of the example's preview page"
	@echo "make measure-screenshot  remake docs/measure.png, docs/guide/overlays.md's picture of the preview page's Measure mode"
	@echo "make diff-screenshot     remake docs/diff.png, docs/guide/diff.md's picture of the diff page for a retouched master"
	@echo "make install [PREFIX=/usr/local] [DESTDIR=]  install mcpack, its man pages and bash/zsh/fish completions"
	@echo "make stage   build what make install copies, into .build/install/stage (then sudo make install only copies)"
	@echo "make uninstall [PREFIX=/usr/local] [DESTDIR=]  remove exactly those files"
	@echo "make dist    the release tarball for this platform, reproducible, and its .sha256, in dist/"
	@echo "make clean   remove build output and dist/"

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product mcpack $(STATIC_STDLIB)

# MCPACK_BROWSER_TESTS=required: the browser tests fail, rather than skip,
# when Chromium or the test Python is missing (install-deps.sh installs both).
test:
	@scripts/install-deps.sh --test
	$(SWIFT) build --build-tests
	MCPACK_BROWSER_TESTS=required $(SWIFT) test --skip-build

demo: build
	$(RELEASE_BIN) build
	$(RELEASE_BIN) verify dist/magna-carta-1.0.0.zip
	$(RELEASE_BIN) drift
	$(RELEASE_BIN) verify
	cd dist && if command -v sha256sum >/dev/null; then sha256sum -c *.sha256; else shasum -a 256 -c *.sha256; fi

# What `swift build` and `swift test` need on a Mac when run by hand, not
# through make: eval "$(make -s env)" in that shell. Linux needs nothing.
env:
ifeq ($(UNAME),Darwin)
	@[ -n "$(BREW_PREFIX)" ] || { echo 'make env: no brew on PATH; install Homebrew (https://brew.sh), then make deps' >&2; exit 1; }
	@echo '# mcpack: Homebrew'"'"'s keg-only libarchive and OpenSSL for pkg-config; pipx'"'"'s bin (bagit.py) for swift test'
	@echo 'export PKG_CONFIG_PATH="$(PKG_CONFIG_PATH)"'
	@echo 'export PATH="$(PIPX_BIN):$$PATH"'
else
	@echo '# mcpack: nothing to set on $(UNAME); pkg-config finds the system packages'
endif

bench: $(LINUX_BUILD)
	bash scripts/bench.sh

fuzz: $(LINUX_BUILD)
	bash scripts/fuzz.sh

campaign: build
	python3 scripts/campaign.py

crash-safety: $(LINUX_BUILD)
	bash scripts/crash-safety.sh

# Twice: at random moments, then with the update's last steps slowed under
# strace, so kills land in the milliseconds between the version moved into
# place and the state written, too.
pull-crash-safety: $(LINUX_BUILD)
	@scripts/install-deps.sh --test
	bash scripts/pull-crash-safety.sh
	bash scripts/pull-crash-safety.sh --slow-last-renames

assets:
	python3 scripts/make-example-assets.py

preview-screenshot: build
	@scripts/install-deps.sh --test
	scripts/preview-screenshot.sh

measure-screenshot: build
	@scripts/install-deps.sh --test
	scripts/preview-screenshot.sh measure

diff-screenshot: build
	@scripts/install-deps.sh --test
	scripts/diff-screenshot.sh

# Installing (scripts/install.sh): the release binary, man pages generated
# from its ArgumentParser definitions, and completions, laid out in STAGE as
# under PREFIX. The stage is remade only when the binary is, the binary only
# when a source is newer: after `make stage`, `sudo make install` only copies.
PREFIX ?= /usr/local
STAGE := .build/install/stage
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/MCPackInputs/Support/Version.swift)
PLATFORM := $(shell echo $(UNAME) | tr A-Z a-z)-$(shell uname -m)

$(RELEASE_BIN): Package.swift $(shell find Sources Templates Plugins -type f)
	$(MAKE) build
	@touch $@

$(STAGE)/bin/mcpack: $(RELEASE_BIN) scripts/install.sh
	scripts/install.sh stage $(RELEASE_BIN) $(STAGE)

stage: $(STAGE)/bin/mcpack

install: stage
	scripts/install.sh install $(STAGE) "$(DESTDIR)$(PREFIX)"

# What the stage lists, so a stage is needed (made if missing, not remade).
uninstall: | $(STAGE)/bin/mcpack
	scripts/install.sh uninstall $(STAGE) "$(DESTDIR)$(PREFIX)" $(if $(DESTDIR),"$(DESTDIR)")

# Staged afresh, so the man pages carry this SOURCE_DATE_EPOCH (default: the
# last commit's date), as the tarball's entries do.
# install-deps.sh first: on a Mac the tarball needs GNU tar (gnu-tar, one of
# the build dependencies there), which a binary built before it may predate.
dist: $(RELEASE_BIN)
	@scripts/install-deps.sh
	scripts/install.sh stage $(RELEASE_BIN) $(STAGE)
	scripts/install.sh dist $(STAGE) dist/mcpack-$(VERSION)-$(PLATFORM).tar.gz

clean:
	rm -rf .build .build-fuzz dist
