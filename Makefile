# The two commands a newcomer needs:  make demo   and   make test
# Both install what is missing first (scripts/install-deps.sh).

SWIFT ?= swift
# libarchive and OpenSSL are keg-only in Homebrew; let pkg-config find them.
ifeq ($(shell uname -s),Darwin)
export PKG_CONFIG_PATH := $(shell brew --prefix libarchive 2>/dev/null)/lib/pkgconfig:$(shell brew --prefix openssl@3 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
# Where pipx links bagit.py (scripts/install-deps.sh --test installs it so).
export PATH := $(or $(PIPX_BIN_DIR),$(HOME)/.local/bin):$(PATH)
endif

RELEASE_BIN := .build/release/mcpack
# On Linux the release binary carries Swift's runtime and Foundation in
# itself: it runs where no Swift is installed, and starts sooner, with no
# Swift libraries for the dynamic loader to find and bind.
ifeq ($(shell uname -s),Linux)
STATIC_STDLIB := --static-swift-stdlib
endif

.PHONY: all deps build test demo bench fuzz campaign crash-safety assets preview-screenshot measure-screenshot diff-screenshot clean help stage install uninstall dist

all: build

help:
	@echo "make demo    install what is missing, build mcpack, build the example bundle, verify it"
	@echo "make test    install what is missing, run every test"
	@echo "make build   build mcpack (release) into $(RELEASE_BIN)"
	@echo "make bench   time mcpack against vips/bagit.py/zip/sha256sum/diff on a 34,000 px master (minutes)"
	@echo "make fuzz    run each libFuzzer target for FUZZ_SECONDS (default 120) seeded from the example (Linux)"
	@echo "make campaign      damage the example archive at random (seeded); count what verify detects and misses"
	@echo "make crash-safety  SIGKILL mcpack build at random moments on the benchmark master; check archives and cache (~6 min)"
	@echo "make assets  regenerate the example project's images (needs Python with Pillow)"
	@echo "make preview-screenshot  remake docs/preview.png, the README's picture of the example's preview page"
	@echo "make measure-screenshot  remake docs/measure.png, the README's picture of the preview page's Measure mode"
	@echo "make diff-screenshot     remake docs/diff.png, the README's picture of the diff page for a retouched master"
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

bench: build
	bash scripts/bench.sh

fuzz: build
	bash scripts/fuzz.sh

campaign: build
	python3 scripts/campaign.py

crash-safety: build
	bash scripts/crash-safety.sh

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
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/MCPackKit/Support/Version.swift)
PLATFORM := $(shell uname -s | tr A-Z a-z)-$(shell uname -m)

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
dist: $(RELEASE_BIN)
	scripts/install.sh stage $(RELEASE_BIN) $(STAGE)
	scripts/install.sh dist $(STAGE) dist/mcpack-$(VERSION)-$(PLATFORM).tar.gz

clean:
	rm -rf .build .build-fuzz dist
