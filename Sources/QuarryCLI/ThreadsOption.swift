import ArgumentParser
import Quarry

/// `--threads N`: threads a full scan may use (docs/ARCHITECTURE.md#parallel-scans).
struct ThreadsOption: ParsableArguments {
    @Option(
        name: .customLong("threads"),
        help: ArgumentHelp(
            "Threads a full scan may use (default: one per processor; 1 scans on one thread).", valueName: "n"))
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--threads must be 1 or more (got \(count)).") }
    }

    var parallelism: ScanParallelism { count.map { ScanParallelism(threads: $0) } ?? .automatic }
}
