import Quarry
import QuarrySQLite

extension BenchExecutor {
    /// The SQLite store (`--store`): each query pushed down with its residual, read in one
    /// transaction; no planning step of Quarry's own (SQLite plans).
    static func store(_ store: any CLIStore) -> BenchExecutor {
        BenchExecutor(
            name:
                "\(store.backend.backendName == "sqlite" ? "SQLite" : "PostgreSQL") store (pushdown, residual in Quarry)",
            execute: { query throws(Diagnostic) in
                try store.query(query)
            },
            timedRun: { query throws(Diagnostic) in
                switch try store.query(query) {
                case .count(let n): return n
                case .records(let records): return readIds(records.count) { records[$0].objectId }
                }
            })
    }
}

extension BenchCommand {
    /// `bench --store`: the queries timed on the store, indexes declared there.
    func benchStore(_ source: StoreSource, _ texts: [String], _ console: Console) throws(Failure) {
        if sqlite {
            throw .usage("--sqlite loads --data into SQLite :memory:; with --store the queries run on SQLite already")
        }
        try source.declare(indexes.specs)
        let rows: Int
        do throws(Diagnostic) {
            rows = try source.store.classes().first { $0.name == source.className }?.objectCount ?? 0
        } catch {
            throw .query(error, source: "")
        }
        let options = CompileOptions(schema: source.schema, profile: .exact)
        let dialect = self.dialect, className = source.className
        let runner = BenchRunner(executor: .store(source.store), repeatCount: repeatCount, peer: nil) {
            text throws(Diagnostic) in
            try dialect.compile(text, className: className, options: options)
        }
        let (results, failures) = run(texts, with: runner, console)
        var report = BenchReport(
            results: results, rows: rows, className: className,
            executor: BenchExecutor.store(source.store).name, indexes: indexes.specs,
            quarryBytesPerRow: nil, sqliteBytesPerRow: nil,
            notes: ["the store: \(source.store.location)"])
        report.failures = failures
        console.output.write(json ? report.json() : report.markdown())
        if !failures.isEmpty { throw .reported(.queryFailed) }
    }
}
