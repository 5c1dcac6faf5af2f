import ArgumentParser
import Quarry

/// `--threads N`: threads a full scan (docs/ARCHITECTURE.md#parallel-scans), or the decoding of
/// a store's large answer (docs/STORAGE.md#reading-rows), may use.
struct ThreadsOption: ParsableArguments {
    @Option(
        name: .customLong("threads"),
        help: ArgumentHelp(
            "Threads a full scan, or decoding a store's large answer, may use (default: one per processor; 1: one thread).",
            valueName: "n"))
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--threads must be 1 or more (got \(count)).") }
    }

    var parallelism: ScanParallelism { count.map { ScanParallelism(threads: $0) } ?? .automatic }
}
