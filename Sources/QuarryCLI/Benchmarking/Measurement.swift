import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock measurements for `quarry bench`.
enum Measurement {
    /// Seconds one call of `body` takes, on average over enough calls to fill `budget`
    /// seconds (at least `minimumCalls`): for operations of a few microseconds, which one
    /// clock reading cannot resolve.
    static func averageSeconds(budget: Double = 0.02, minimumCalls: Int = 20,
                               _ body: () throws -> Void) rethrows -> Double {
        var calls = 0
        let start = ContinuousClock.now
        var elapsed = 0.0
        repeat {
            try body()
            calls += 1
            if calls % 8 == 0 || calls < minimumCalls { elapsed = seconds(ContinuousClock.now - start) }
        } while calls < minimumCalls || elapsed < budget
        return seconds(ContinuousClock.now - start) / Double(calls)
    }

    /// The median of `runs` timed calls, in seconds, and the last call's result. The first
    /// call is timed too: a failure there ends the measurement before any other run.
    static func median<T, E: Error>(runs: Int, _ body: () throws(E) -> T) throws(E) -> (seconds: Double, result: T) {
        var times: [Double] = []
        var start = ContinuousClock.now
        var last = try body()
        times.append(seconds(ContinuousClock.now - start))
        for _ in 1..<max(1, runs) {
            start = ContinuousClock.now
            last = try body()
            times.append(seconds(ContinuousClock.now - start))
        }
        times.sort()
        let mid = times.count / 2
        let median = times.count % 2 == 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2
        return (median, last)
    }

    static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }

    /// The process's resident memory in bytes, from `/proc/self/statm`; nil where that file
    /// does not exist.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
