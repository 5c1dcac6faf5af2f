import Foundation
import QuarryCore

/// How many threads a full scan may use and how many rows each morsel holds
/// (docs/ARCHITECTURE.md#parallel-scans). A scan over fewer than two morsels' rows, or one
/// whose predicate must see its rows in order, runs on the calling thread alone.
public struct ScanParallelism: Sendable, Hashable {
    /// Threads a scan may use, the calling thread included (1: sequential).
    public let threads: Int
    /// Rows per morsel, the unit of work a thread takes at a time.
    public let morselRows: Int

    /// - Parameters:
    ///   - threads: clamped to 1…64.
    ///   - morselRows: at least 1 (small morsels are for tests: they split tiny data).
    public init(threads: Int, morselRows: Int = ScanParallelism.defaultMorselRows) {
        self.threads = Swift.min(64, Swift.max(1, threads))
        self.morselRows = Swift.max(1, morselRows)
    }

    /// Eight batches: large enough that taking one costs nothing next to scanning it, small
    /// enough that 1M rows make 30 morsels and the threads finish together.
    public static let defaultMorselRows = 8 * Batch.capacity

    /// One thread per active processor.
    public static var automatic: ScanParallelism {
        ScanParallelism(threads: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The calling thread only.
    public static let sequential = ScanParallelism(threads: 1)
}

extension Filter {
    /// Whether rows may be tested out of order on several threads with the same answers and
    /// errors: no `random()` (each row draws the next number). Regular expressions may: their
    /// threads share the regex budget's count (`MorselScan`).
    var testsRowsIndependently: Bool {
        !IRNode.filter(self).contains(innerQueries: false) { node, _ in
            switch node {
            case .expr(.function(.random, _)), .expr(.function(.randomn, _)): return true
            default: return false
            }
        }
    }
}
