#!/usr/bin/env bash
# Writes the libFuzzer seed corpus under Fuzz/corpus/ from the grammar examples, the benchmark
# queries, the issue reproducers and the sample data. Run from the repository root; the
# corpus is committed, so this only needs running when those sources change.
set -euo pipefail
out=Fuzz/corpus
rm -rf "$out"
mkdir -p "$out"/{sql,predicate,json,datafile,run}

# One seed file per line of stdin, named by its hash; with a prefix byte for fuzz-run.
seed() {
    local dir=$1 prefix=${2:-}
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        local file
        file="$out/$dir/$(printf '%s%s' "$prefix" "$line" | sha1sum | cut -c1-16)"
        printf '%s%s' "$prefix" "$line" > "$file"
    done
}

# Grammar examples: `/* valid: TEXT */` and `/* invalid CODE…: TEXT */`.
examples() { sed -E -n 's@^/\* (valid|invalid [^ ]+): (.*) \*/$@\2@p' "$1"; }

sql() { examples Grammar/where.ebnf; grep -v '^#' Benchmarks/queries/*.sql; cat Fuzz/reproducers/sql.txt; }
predicate() { examples Grammar/predicate.ebnf; cat Fuzz/reproducers/predicate.txt; }
json() { grep -v '^#' Benchmarks/queries/requests.json; cat Fuzz/reproducers/json.txt; }

sql | seed sql
predicate | seed predicate
json | seed json
# fuzz-run reads the dialect from the first byte: 0 sql, 1 predicate, 2 json.
sql | seed run $'\x00'
predicate | seed run $'\x01'
json | seed run $'\x02'

for f in Samples/sample.json Fuzz/reproducers/data/*; do
    cp "$f" "$out/datafile/$(sha1sum < "$f" | cut -c1-16)"
done
