"""DuckDB as a peer of `quarry bench` (docs/ARCHITECTURE.md#benchmarks).

Two modes, both run by `quarry bench --duckdb PYTHON` as a subprocess:

  peer.py load FILE THREADS SQL
      The whole command a user waits for, from a cold process: read_json of FILE (NDJSON, one
      object a line) into a table `t`, then print the count of `SELECT count(*) FROM t WHERE SQL`.

  peer.py queries THREADS REPEAT   (a JSON request on standard input)
      {"tables": {"Person": "people.ndjson", …}, "queries": ["<where clause>", …]}
      Loads each table, then for each where-clause reports the median time over REPEAT runs of
      `SELECT count(*)` and of writing the matching objectIds, in table order, into a temporary
      table (so no client objects are built), as JSON lines {"count_ms", "ids_ms", "matches"}.

Tables are flattened from Parse REST JSON: a Date becomes a TIMESTAMP, a GeoPoint the columns
`<field>_latitude` and `<field>_longitude`, a Pointer its objectId.
"""

import json
import statistics
import sys
import time

import duckdb


def connect(threads):
    con = duckdb.connect(":memory:")
    con.execute(f"SET threads = {int(threads)}")
    return con


def load(con, name, path):
    columns = con.execute(f"DESCRIBE SELECT * FROM read_json('{path}', format = 'newline_delimited')").fetchall()
    select = []
    for column, kind, *_ in columns:
        quoted = '"' + column.replace('"', '""') + '"'
        if kind.startswith("STRUCT") and "latitude" in kind:
            select.append(f"{quoted}.latitude AS \"{column}_latitude\", {quoted}.longitude AS \"{column}_longitude\"")
        elif kind.startswith("STRUCT") and "iso" in kind:
            select.append(f"CAST(replace(CAST({quoted}.iso AS VARCHAR), 'Z', '') AS TIMESTAMP) AS {quoted}")
        elif kind.startswith("STRUCT") and "objectId" in kind:
            select.append(f"{quoted}.objectId AS {quoted}")
        else:
            select.append(quoted)
    con.execute(
        f"CREATE TABLE \"{name}\" AS SELECT {', '.join(select)} "
        f"FROM read_json('{path}', format = 'newline_delimited')"
    )


def median_ms(repeat, body):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = body()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), result


def queries(threads, repeat):
    request = json.load(sys.stdin)
    con = connect(threads)
    for name, path in request["tables"].items():
        load(con, name, path)
    table = request["class"]
    for where in request["queries"]:
        count_sql = f'SELECT count(*) FROM "{table}" WHERE {where}'

        def ids():
            con.execute("CREATE OR REPLACE TEMP TABLE ids AS SELECT objectId FROM "
                        f'"{table}" WHERE {where}')

        try:
            count_ms, matches = median_ms(repeat, lambda: con.execute(count_sql).fetchone()[0])
            ids_ms, _ = median_ms(repeat, ids)
            print(json.dumps({"count_ms": count_ms, "ids_ms": ids_ms, "matches": matches}), flush=True)
        except duckdb.Error as error:
            print(json.dumps({"error": str(error).splitlines()[0]}), flush=True)


def main():
    mode = sys.argv[1]
    if mode == "load":
        path, threads, where = sys.argv[2], sys.argv[3], sys.argv[4]
        con = connect(threads)
        con.execute(f"CREATE TABLE t AS SELECT * FROM read_json('{path}', format = 'newline_delimited')")
        print(con.execute(f"SELECT count(*) FROM t WHERE {where}").fetchone()[0])
    elif mode == "queries":
        queries(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
