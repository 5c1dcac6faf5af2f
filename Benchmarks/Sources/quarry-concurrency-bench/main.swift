// Concurrent reads and writes on the in-memory engine (docs/ARCHITECTURE.md#concurrency):
//
//     swift run -c release quarry-concurrency-bench [rows]
//
// 1. Read throughput: the standard scan queries (Benchmarks/queries/scan.sql, as counts and as
//    the first 100 objects) run back to back by 1 task, then by as many tasks as there are
//    cores; the ratio is the second's queries per second over the first's. Each reader scans on
//    its own thread (ScanParallelism.sequential): with morsel-parallel scans one reader would
//    already use every core, and the ratio would measure nothing. The same queries are then run
//    by 1 task with morsel-parallel scans, for comparison.
// 2. Writes at `rows` objects: µs per insert, replace and delete, alone and while a reader
//    task runs scans without pause.
import Foundation
import Quarry
import QuarryTestSupport

let rows = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let cores = ProcessInfo.processInfo.activeProcessorCount
print("generating \(rows) objects…")
let data = SyntheticData(rows: rows)
let database = data.database()
let engine = Engine(database: database, parallelism: .sequential)

let clauses = [
    "age > 50", "age > 50 AND name LIKE 'J%'", "name IN ('Joe1', 'Bob2', 'Ann3') OR score < 1.5",
    "age BETWEEN 10 AND 20 AND NOT (score > 50) AND created > '2023-01-01T00:00:00.000Z'",
    "name LIKE '%an%'", "tags = 'a1'", "city.population > 5000000",
]
let queries: [Query] = clauses.flatMap { clause -> [Query] in
    var find = try! Dialect.sql.compile(clause, className: SyntheticData.personClass)
    find.limit = 100
    var count = find
    count.count = true
    return [count, find]
}

/// Queries per second with `tasks` tasks each running every query `rounds` times on `engine`.
func throughput(tasks: Int, rounds: Int, on engine: Engine = engine) async -> Double {
    let start = ContinuousClock.now
    await withTaskGroup(of: Void.self) { group in
        for t in 0..<tasks {
            group.addTask {
                for r in 0..<rounds {
                    for q in queries.indices { _ = try! engine.run(queries[(q + t + r) % queries.count]) }
                }
            }
        }
    }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    return Double(tasks * rounds * queries.count) / seconds
}

_ = await throughput(tasks: 1, rounds: 1)  // plans cached, pages touched
let rounds = max(1, 3_000_000 / rows)
var ratios: [Double] = []
for trial in 1...3 {
    let one = await throughput(tasks: 1, rounds: rounds * 2)
    let all = await throughput(tasks: cores, rounds: rounds * 2)
    ratios.append(all / one)
    print(
        String(
            format: "trial %d: 1 task %.1f queries/s, %d tasks %.1f queries/s: %.2f×", trial, one, cores, all,
            all / one))
}
print(
    String(
        format: "read throughput on %d cores over 1: best %.2f×, median %.2f×", cores, ratios.max()!,
        ratios.sorted()[1]))
let parallelEngine = Engine(database: database)
_ = await throughput(tasks: 1, rounds: 1, on: parallelEngine)
let morsels = await throughput(tasks: 1, rounds: rounds * 2, on: parallelEngine)
print(String(format: "1 task with scans on %d threads: %.1f queries/s", cores, morsels))

/// µs per change over `n` changes made by `make`.
func microseconds(_ n: Int, _ make: (Int) -> Void) -> Double {
    let start = ContinuousClock.now
    for i in 0..<n { make(i) }
    return (ContinuousClock.now - start) / .microseconds(1) / Double(n)
}

func writes(_ label: String, base: Int) {
    let n = 2000
    let person = SyntheticData.personClass
    let insert = microseconds(n) { i in
        engine.insert(
            Record(objectId: "w\(base + i)", fields: [("age", .int(Int64(i % 100))), ("name", "W")]), into: person)
    }
    let replace = microseconds(n) { i in
        engine.insert(
            Record(objectId: "w\(base + i)", fields: [("age", .int(Int64(i % 7))), ("name", "R")]), into: person)
    }
    let delete = microseconds(n) { i in engine.delete("w\(base + i)", from: person) }
    print(String(format: "%@: insert %.1f µs, replace %.1f µs, delete %.1f µs", label, insert, replace, delete))
}

print("writes at \(rows) objects…")
// The first changes after loading give each replica arrays of its own: the second replica starts
// as a copy sharing the first's columns, and the first write to a shared column copies it.
// Timed on their own, so that the per-change figures below are the steady state.
let personFields = database.classes[SyntheticData.personClass]?.fieldNames ?? []
let firstChanges = microseconds(2) { i in
    engine.insert(
        Record(objectId: "warm\(i)", fields: personFields.map { ($0, .null) }), into: SyntheticData.personClass)
}
print(
    String(
        format: "the first two changes: %.1f ms each (the replicas' columns copied on first write)",
        firstChanges / 1000))
writes("alone", base: 0)
let stop = StopFlag()
let reader = Task.detached {
    var n = 0
    while !stop.isSet {
        _ = try! engine.run(queries[n % queries.count])
        n += 1
    }
    return n
}
writes("with a reader scanning", base: 10_000)
stop.set()
print("(the reader ran \(await reader.value) queries meanwhile)")

/// A flag one task sets and another polls.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
