# Quarry: the two quick-start commands are `make demo` and `make test`.
# Both install what a fresh Debian machine with the Swift toolchain lacks, then build.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
QUARRY := .build/release/quarry

.PHONY: demo test deps build release clean

# libpcre2-dev (regex) and libsqlite3-dev (the SQLite peer in tests and benchmarks),
# found through pkg-config.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 \
	    || ! pkg-config --exists libpcre2-8 \
	    || ! pkg-config --exists sqlite3; then \
	  echo "Installing pkg-config, libpcre2-dev and libsqlite3-dev with apt-get"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pkg-config libpcre2-dev libsqlite3-dev; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product quarry

demo: release
	@sh Samples/demo.sh $(QUARRY)

test: deps
	$(SWIFT) test

clean:
	rm -rf .build
