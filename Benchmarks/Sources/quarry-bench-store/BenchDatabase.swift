import Quarry

/// A database the store benchmark measures (docs/STORAGE.md#benchmarks): Quarry's backend
/// on it, the same queries hand-written in the database's own SQL on the same data, and the
/// database's own bulk load. `StoreBench` runs every database the same way; a backend plugs
/// in by implementing this and listing itself in `main.swift`.
protocol BenchDatabase: AnyObject {
    /// Names the folder of hand-written SQL, `Benchmarks/queries/<name>/`, and `--database`.
    var name: String { get }

    /// Imports the data file through Quarry's import path (what `quarry import` runs) into a
    /// fresh store; returns the objects imported.
    func importData(_ file: String) throws -> Int

    /// Quarry's backend on the imported store.
    func backend() throws -> any QueryBackend

    /// Loads the rows the import wrote into a fresh table with the database's own bulk load
    /// (one prepared INSERT in one transaction, or COPY), with the store's durability
    /// settings; returns the rows loaded and the seconds taken.
    func bulkLoad() throws -> (rows: Int, seconds: Double)

    /// Runs one hand-written statement and reads every column of every row into Swift
    /// values, as an application would; returns the rows read (a count query's count).
    func runHandWritten(_ sql: String) throws -> Int
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
