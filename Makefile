# Quarry: the two quick-start commands are `make demo` and `make test`.
# Both install what a fresh Debian machine with the Swift toolchain lacks, then build.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
QUARRY := .build/release/quarry

.PHONY: demo test deps build release clean bench docs

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

# docs/DIAGNOSTICS.md, generated from the diagnostic catalogues (a test fails when it is stale).
docs: deps
	QUARRY_WRITE_DOCS=1 $(SWIFT) test --filter DiagnosticsDocTests/theDocumentIsWhatTheCataloguesGenerate

# The README's benchmark table: 1,000,000 generated Person objects (Benchmarks/queries for the
# queries), Quarry against SQLite :memory: on the same rows. The data file is made once.
BENCH_ROWS ?= 1000000
BENCH_REPEAT ?= 3
BENCH_DATA := .build/bench/people-$(BENCH_ROWS).json
BENCH := $(QUARRY) bench --data $(BENCH_DATA) --class Person --sqlite --repeat $(BENCH_REPEAT)

bench: release
	@mkdir -p .build/bench
	@test -f $(BENCH_DATA) || $(SWIFT) run -c release --package-path Benchmarks quarry-bench-data \
	    --rows $(BENCH_ROWS) --output $(BENCH_DATA)
	@printf '\n### Full scans (no indexes)\n\n'
	@$(BENCH) - < Benchmarks/queries/scan.sql
	@printf '\n### Indexed lookups\n\n'
	@$(BENCH) --index age --index name --index score --index location - < Benchmarks/queries/indexed.sql
	@printf '\n### Parse REST requests (no indexes)\n\n'
	@$(BENCH) --dialect json - < Benchmarks/queries/requests.json

clean:
	rm -rf .build
