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

    /// Times the query on all threads (the report remarks on a number of matches that differs
    /// from one thread's).
    func measure(_ query: Query, _ repeatCount: Int, _ result: inout BenchResult) throws(Diagnostic) {
        let (seconds, matches) = try Measurement.median(runs: repeatCount) { () throws(Diagnostic) -> Int in
            switch try engine.runLazily(query, parallelism: parallelism) {
            case .count(let n): return n
            case .rows(let rows): return BenchExecutor.readIds(rows)
            }
        }
        result.parallelExecMillis = seconds * 1e3
        result.parallelMatches = matches
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
