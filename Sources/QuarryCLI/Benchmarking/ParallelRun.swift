@_spi(Benchmarking) import QuarryEngine
import Quarry

/// The engine's timed run with every thread its scans may use (docs/ARCHITECTURE.md#parallel-scans),
/// beside the one-thread run `bench` times first: the same query, the same reads of objectIds.
public struct ParallelRun {
    let engine: Engine
    public let parallelism: ScanParallelism

    init(_ engine: Engine, _ parallelism: ScanParallelism) {
        self.engine = engine
        self.parallelism = parallelism
    }

    /// Runs the query once on all threads, reading its objectIds; the number of matches (the
    /// report remarks on one that differs from one thread's).
    func run(_ query: Query) throws(Diagnostic) -> Int {
        switch try engine.runLazily(query, parallelism: parallelism) {
        case .count(let n): return n
        case .rows(let rows): return BenchExecutor.readIds(rows)
        }
    }
}

extension BenchReport {
    /// The all-threads time and its speedup over one thread.
    func parallelCells(_ r: BenchResult) -> [String] {
        guard let ms = r.parallelExecMillis else { return ["—", "—"] }
        let t =
            ms >= 100 ? String(format: "%.0f", ms) : ms >= 1 ? String(format: "%.1f", ms) : String(format: "%.3f", ms)
        return [t, ms > 0 ? String(format: "%.2f×", r.execMillis / ms) : "—"]
    }
}
