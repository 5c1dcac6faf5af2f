import Foundation

/// The seeds of a random agreement test: its own, and with `QUARRY_SOAK_SEEDS=N` in the
/// environment (`make soak`), N more after `more`, so that a longer run tries data and queries
/// `make test` never does (docs/ARCHITECTURE.md#tests). The extra seeds are the same on every
/// run, so a disagreement found once is found again.
public enum SoakSeeds {
    public static func seeds(_ own: [UInt64], more first: UInt64) -> [UInt64] {
        own + (first..<first + extra)
    }

    /// How many more seeds each test runs: 0 unless the variable is set. A value that is not a
    /// count stops the run, naming it (Swift Testing reads arguments before any test can fail).
    public static let extra: UInt64 = {
        switch count(ProcessInfo.processInfo.environment["QUARRY_SOAK_SEEDS"]) {
        case .success(let n): return n
        case .failure(let problem): fatalError(problem.message)
        }
    }()

    public struct Problem: Error, Equatable {
        public let message: String
    }

    /// The variable's count: 0 when unset, else a number from 0 to 1,000,000.
    public static func count(_ text: String?) -> Result<UInt64, Problem> {
        guard let text else { return .success(0) }
        guard let n = UInt64(text), n <= 1_000_000 else {
            return .failure(Problem(message: "QUARRY_SOAK_SEEDS is '\(text)', not a count of seeds from 0 to 1000000"))
        }
        return .success(n)
    }
}
