import CMalloc
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
    /// Seconds one call of `body` takes: the median of five rounds, each the average over
    /// enough calls to fill a fifth of `budget` seconds (at least a fifth of `minimumCalls`).
    /// For operations of a few microseconds, which one clock reading cannot resolve; the
    /// median keeps a one-off stall of the machine (tens of milliseconds, seen now and then
    /// after SQLite's load) out of the figure.
    static func averageSeconds(
        budget: Double = 0.02, minimumCalls: Int = 20,
        _ body: () throws -> Void
    ) rethrows -> Double {
        var rounds: [Double] = []
        for _ in 0..<5 {
            rounds.append(try roundAverage(budget: budget / 5, minimumCalls: max(1, minimumCalls / 5), body))
        }
        return rounds.sorted()[2]
    }

    /// `averageSeconds` of `body` alone, with `setup` run before each call outside the clock
    /// (each call timed by itself: two clock readings, tens of nanoseconds, add to it).
    static func averageSeconds(
        budget: Double = 0.02, minimumCalls: Int = 20, setup: () -> Void, _ body: () throws -> Void
    ) rethrows -> Double {
        var rounds: [Double] = []
        for _ in 0..<5 {
            var calls = 0
            var timed = Duration.zero
            let start = ContinuousClock.now
            repeat {
                setup()
                let before = ContinuousClock.now
                try body()
                timed += ContinuousClock.now - before
                calls += 1
            } while calls < max(1, minimumCalls / 5) || seconds(ContinuousClock.now - start) < budget / 5
            rounds.append(seconds(timed) / Double(calls))
        }
        return rounds.sorted()[2]
    }

    private static func roundAverage(
        budget: Double, minimumCalls: Int, _ body: () throws -> Void
    ) rethrows -> Double {
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
        var last = try timed(body, into: &times)
        for _ in 1..<max(1, runs) { last = try timed(body, into: &times) }
        return (middle(times), last)
    }

    /// `median` of two bodies whose runs alternate (`a`, `b`, `a`, `b`, …): each one's median
    /// and last result. A failure of either ends the measurement.
    static func medians<A, B, E: Error>(
        runs: Int, _ a: () throws(E) -> A, _ b: () throws(E) -> B
    ) throws(E) -> (a: (seconds: Double, result: A), b: (seconds: Double, result: B)) {
        var timesA: [Double] = [], timesB: [Double] = []
        var lastA = try timed(a, into: &timesA)
        var lastB = try timed(b, into: &timesB)
        for _ in 1..<max(1, runs) {
            lastA = try timed(a, into: &timesA)
            lastB = try timed(b, into: &timesB)
        }
        return ((middle(timesA), lastA), (middle(timesB), lastB))
    }

    /// One call of `body`, its seconds appended to `times`.
    private static func timed<T, E: Error>(_ body: () throws(E) -> T, into times: inout [Double]) throws(E) -> T {
        let start = ContinuousClock.now
        let result = try body()
        times.append(seconds(ContinuousClock.now - start))
        return result
    }

    private static func middle(_ times: [Double]) -> Double {
        let times = times.sorted()
        let mid = times.count / 2
        return times.count % 2 == 1 ? times[mid] : (times[mid - 1] + times[mid]) / 2
    }

    static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }

    /// Heap bytes in use: glibc's `mallinfo2()`, bytes in allocated chunks (`uordblks`, every
    /// arena) plus those in mmapped chunks (`hblkhd`). Comparable with `sqlite3_memory_used`:
    /// what is allocated and not freed, without the allocator's free lists or untouched pages.
    /// Nil where the C library has no `mallinfo2`.
    static func heapBytesInUse() -> Int? {
        #if canImport(Glibc)
            let info = mallinfo2()
            return Int(info.uordblks + info.hblkhd)
        #else
            return nil
        #endif
    }

    /// The heap bytes `build` leaves allocated (in use after minus in use before), with what it
    /// built; nil bytes where the C library cannot tell. Whatever is alive before stays alive
    /// in both readings, so the difference is what the result holds (and anything else it
    /// allocated and did not free).
    static func heapGrowth<T, E: Error>(_ build: () throws(E) -> T) throws(E) -> (bytes: Int?, result: T) {
        let before = heapBytesInUse()
        let result = try build()
        let after = heapBytesInUse()
        return (before.flatMap { b in after.map { $0 - b } }, result)
    }
}
