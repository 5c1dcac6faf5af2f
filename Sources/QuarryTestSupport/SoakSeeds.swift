import Foundation

/// The seeds of a random agreement test: its own, and with `QUARRY_SOAK_SEEDS=N` in the
/// environment (`make soak`), N more after `more`, so that a longer run tries data and queries
/// `make test` never does (docs/ARCHITECTURE.md#tests). The extra seeds are the same on every
/// run, so a disagreement found once is found again.
public enum SoakSeeds {
    public static func seeds(_ own: [UInt64], more first: UInt64) -> [UInt64] {
        own + (first..<first + extra)
    }

    /// How many more seeds each test runs: 0 unless the variable is set.
    public static let extra: UInt64 = {
        guard let text = ProcessInfo.processInfo.environment["QUARRY_SOAK_SEEDS"] else { return 0 }
        guard let n = UInt64(text), n <= 1_000_000 else {
            fatalError("QUARRY_SOAK_SEEDS is '\(text)', not a count of seeds from 0 to 1000000")
        }
        return n
    }()
}
