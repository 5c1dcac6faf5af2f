# Quarry: the two quick-start commands are `make demo` and `make test`.
# Both install what a fresh Debian machine with the Swift toolchain lacks, then build.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
QUARRY := .build/release/quarry

.PHONY: demo test deps build release clean bench bench-store bench-postgres bench-server bench-concurrency docs docs-html fuzz soak lint format clients examples

# libpcre2-dev (regex) and libsqlite3-dev (the SQLite peer in tests and benchmarks),
# found through pkg-config; postgresql for the PostgreSQL store's tests.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 \
	    || ! pkg-config --exists libpcre2-8 \
	    || ! pkg-config --exists sqlite3; then \
	  echo "Installing pkg-config, libpcre2-dev and libsqlite3-dev with apt-get"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pkg-config libpcre2-dev libsqlite3-dev; \
	fi
	@# PostgreSQL (server and contrib) for QuarryPostgresTests, which start a server of their own.
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  echo "Installing postgresql and postgresql-contrib with apt-get"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql postgresql-contrib; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product quarry

demo: release
	@sh Samples/demo.sh $(QUARRY)

test: deps
	$(SWIFT) test
	$(MAKE) examples
	$(MAKE) clients

# The random agreement tests (every backend, the plan cache, parallel scans and writes against
# the reference evaluator) over SOAK_SEEDS more seeds each than `make test` runs
# (docs/ARCHITECTURE.md#tests): a longer search for a disagreement, not a gate.
SOAK_SEEDS ?= 200
SOAK_TESTS := AgreementTests|PushdownReachTests/randomQueries|rebindingWith|ParallelScanTests/randomQueriesAgree|MutationTests/changesInterleaved
soak: deps
	QUARRY_SOAK_SEEDS=$(SOAK_SEEDS) $(SWIFT) test --parallel --filter '$(SOAK_TESTS)'

# Examples/: a package depending on this one, as a backend would (Swift 6 mode, warnings are
# errors), built and run (docs/API.md).
examples: deps
	$(SWIFT) run --package-path Examples Backend

# Real client SDKs against a live `quarry serve` on loopback (Tests/Clients): LeanCloud's Python
# SDK and qs-parse-rest, installed from PyPI into a virtual environment under .build/.
CLIENTS_VENV := .build/clients-venv
clients: deps
	$(SWIFT) build --product quarry
	@test -x $(CLIENTS_VENV)/bin/python || python3 -m venv $(CLIENTS_VENV)
	@$(CLIENTS_VENV)/bin/python -c 'import leancloud, parse_rest' 2>/dev/null \
	    || $(CLIENTS_VENV)/bin/pip install -q leancloud==3.0.2 qs-parse-rest==0.2.20240920
	bash Tests/Clients/run.sh "$$($(SWIFT) build --show-bin-path)/quarry" $(CLIENTS_VENV)

# docs/DIAGNOSTICS.md, generated from the diagnostic catalogues (a test fails when it is stale).
docs: deps
	QUARRY_WRITE_DOCS=1 $(SWIFT) test --filter DiagnosticsDocTests/theDocumentIsWhatTheCataloguesGenerate

# The DocC catalogue of the Quarry product (Sources/Quarry/Quarry.docc) built with
# swift-docc-plugin; the archive lands in .build/plugins/Swift-DocC/outputs/Quarry.doccarchive.
docs-html: deps
	$(SWIFT) package generate-documentation --target Quarry

# The README's benchmark table: 1,000,000 generated Person objects (Benchmarks/queries for the
# queries), Quarry against SQLite :memory: on the same rows, and the scans and loading against
# DuckDB (its Python package from PyPI, in a virtual environment under .build/, reading the same
# rows as NDJSON). The data files are made once.
BENCH_ROWS ?= 1000000
BENCH_REPEAT ?= 3
BENCH_DATA := .build/bench/people-$(BENCH_ROWS).json
BENCH_NDJSON := .build/bench/people-$(BENCH_ROWS).ndjson
BENCH_CITIES := .build/bench/cities-$(BENCH_ROWS).ndjson
BENCH_VENV := .build/bench-venv
BENCH := $(QUARRY) bench --data $(BENCH_DATA) --class Person --sqlite --repeat $(BENCH_REPEAT)
BENCH_DUCKDB := --duckdb $(BENCH_VENV)/bin/python --duckdb-queries Benchmarks/queries/duckdb/scan.sql \
	--duckdb-table Person=$(BENCH_NDJSON) --duckdb-table City=$(BENCH_CITIES)
BENCH_GENERATE := $(SWIFT) run -c release --package-path Benchmarks quarry-bench-data --rows $(BENCH_ROWS)

bench: release
	@mkdir -p .build/bench
	@test -x $(BENCH_VENV)/bin/python || python3 -m venv $(BENCH_VENV)
	@$(BENCH_VENV)/bin/python -c 'import duckdb' 2>/dev/null || $(BENCH_VENV)/bin/pip install -q duckdb==2.0.0
	@test -f $(BENCH_DATA) || $(BENCH_GENERATE) --output $(BENCH_DATA)
	@test -f $(BENCH_NDJSON) || $(BENCH_GENERATE) --class Person --output $(BENCH_NDJSON)
	@test -f $(BENCH_CITIES) || $(BENCH_GENERATE) --class City --output $(BENCH_CITIES)
	@printf '\n### Full scans (no indexes)\n\n'
	@$(BENCH) $(BENCH_DUCKDB) - < Benchmarks/queries/scan.sql
	@printf '\n### Indexed lookups\n\n'
	@$(BENCH) --index age --index name --index score --index location - < Benchmarks/queries/indexed.sql
	@printf '\n### Parse REST requests (no indexes)\n\n'
	@$(BENCH) --dialect json - < Benchmarks/queries/requests.json

# The store benchmark (docs/STORAGE.md#benchmarks): the same 1,000,000 rows imported into each
# store (Quarry's import against the database's own bulk load), then Benchmarks/queries on the
# in-memory engine, on the store and hand-written in the database's SQL (Benchmarks/queries/sqlite).
BENCH_STORE_DATABASES ?= sqlite
bench-store: deps
	@mkdir -p .build/bench
	@test -f $(BENCH_DATA) || $(SWIFT) run -c release --package-path Benchmarks quarry-bench-data \
	    --rows $(BENCH_ROWS) --output $(BENCH_DATA)
	$(SWIFT) run -c release --package-path Benchmarks quarry-bench-store --data $(BENCH_DATA) \
	    --work .build/bench/store --repeat $(BENCH_REPEAT) $(addprefix --database ,$(BENCH_STORE_DATABASES))

# Concurrent reads and writes on the in-memory engine (docs/ARCHITECTURE.md#concurrency): read
# throughput with 1 task and with one task per core (the ratio), then µs per insert, replace and
# delete at BENCH_ROWS objects, alone and beside a reader.
bench-concurrency: deps
	$(SWIFT) run -c release --package-path Benchmarks quarry-concurrency-bench $(BENCH_ROWS)

# The PostgreSQL store (docs/STORAGE.md#postgresql-benchmarks): a server of its own in a temporary
# folder, Quarry's import against COPY, the store against the same queries hand-written in SQL.
bench-postgres: deps
	@bash Benchmarks/postgres/run.sh $(BENCH_ROWS) $(BENCH_REPEAT)

# The server load test (docs/SERVER.md#load-test): wrk on 127.0.0.1 against `quarry serve` over
# the same 1,000,000 Person objects, in memory and in SQLite stores (imported once into
# .build/bench), without and with indexes; each query for BENCH_SERVER_SECONDS.
BENCH_SERVER_SECONDS ?= 10
BENCH_SERVER_CONNECTIONS ?= 16
BENCH_SERVER_STORES := .build/bench/server-$(BENCH_ROWS)

bench-server: release
	@command -v wrk >/dev/null 2>&1 || { echo "Installing wrk with apt-get"; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
	@mkdir -p $(BENCH_SERVER_STORES)
	@test -f $(BENCH_DATA) || $(SWIFT) run -c release --package-path Benchmarks quarry-bench-data \
	    --rows $(BENCH_ROWS) --output $(BENCH_DATA)
	@bash Benchmarks/server/run.sh $(QUARRY) $(BENCH_DATA) $(BENCH_SERVER_STORES) \
	    $(BENCH_SERVER_SECONDS) $(BENCH_SERVER_CONNECTIONS)

# libFuzzer harnesses (the Fuzz package: each front-end, the data-file reader, the whole
# compile+run path), built with -sanitize=fuzzer,address and each run for FUZZ_SECONDS from its
# seed corpus (Fuzz/corpus). A crash stops the target and leaves the input in .build/fuzz/;
# it then belongs in the test suite.
FUZZ_SECONDS ?= 60
FUZZERS := sql predicate json datafile run

fuzz: deps
	@mkdir -p .build/fuzz
	@for f in $(FUZZERS); do \
	  echo "building fuzz-$$f"; \
	  $(SWIFT) build --package-path Fuzz --product fuzz-$$f -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
	    > .build/fuzz/build-$$f.log 2>&1 || { grep -E 'error' .build/fuzz/build-$$f.log; exit 1; }; \
	done
	@for f in $(FUZZERS); do \
	  mkdir -p .build/fuzz/$$f; \
	  printf 'fuzz-%s, %s s: ' $$f $(FUZZ_SECONDS); \
	  if ASAN_OPTIONS=detect_leaks=0 Fuzz/.build/debug/fuzz-$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
	      -artifact_prefix=.build/fuzz/$$f- .build/fuzz/$$f Fuzz/corpus/$$f > .build/fuzz/$$f.log 2>&1; \
	  then grep -E '^Done [0-9]+ runs' .build/fuzz/$$f.log || echo done; \
	  else echo FAILED; tail -40 .build/fuzz/$$f.log; exit 1; fi; \
	done

# The code follows .swift-format (swift-format ships with the toolchain); CI runs `make lint`.
FORMATTED := Sources Tests Benchmarks/Sources Benchmarks/Benchmarks Fuzz/Sources Examples/Sources Package.swift
lint:
	$(SWIFT) format lint --strict --recursive --configuration .swift-format $(FORMATTED)

format:
	$(SWIFT) format format --in-place --recursive --configuration .swift-format $(FORMATTED)

clean:
	rm -rf .build Fuzz/.build
