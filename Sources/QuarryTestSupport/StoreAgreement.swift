import QuarryCore
import QuarryEngine

/// A query's answer or its error code, for comparing a store with the reference evaluator or
/// with another backend.
public enum QueryOutcome: Equatable, CustomStringConvertible, Sendable {
    case result(QueryResult)
    /// The error's code (what is compared) and its message (what a failure shows).
    case failure(String, message: String = "")

    public init(_ body: () throws(Diagnostic) -> QueryResult) {
        do {
            self = .result(try body())
        } catch {
            self = .failure(error.code, message: error.message)
        }
    }

    public init(_ body: () async throws(Diagnostic) -> QueryResult) async {
        do {
            self = .result(try await body())
        } catch {
            self = .failure(error.code, message: error.message)
        }
    }

    public static func == (a: QueryOutcome, b: QueryOutcome) -> Bool {
        switch (a, b) {
        case (.result(let x), .result(let y)): return x == y
        case (.failure(let x, _), .failure(let y, _)): return x == y
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .result(.count(let n)): return "count \(n)"
        case .result(let r): return "ids \(r.objectIds)"
        case .failure(let code, let message): return "error \(code) \(message)"
        }
    }
}

/// The agreement tests both stores run against the reference evaluator (docs/STORAGE.md#proof):
/// random queries over the same objects, and random writes to keep the store and the database
/// the same.
public enum StoreAgreement {
    /// The first of `queries` random queries on which `run` (the store) and the reference
    /// evaluator over `database` disagree, as `store vs reference for query`; nil when all agree.
    public static func firstDisagreement(
        _ database: Database, _ random: inout RandomData, queries: Int, depth: Int,
        run: (Query) async throws(Diagnostic) -> QueryResult
    ) async -> String? {
        let reference = ReferenceEvaluator(database: database, now: { 1_700_000_000_000 }, random: { 0.5 })
        for _ in 0..<queries {
            let q = random.query(depth: depth)
            let expected = QueryOutcome { () throws(Diagnostic) in try reference.run(q) }
            let actual = await QueryOutcome { () async throws(Diagnostic) in try await run(q) }
            if actual != expected { return "\(actual) vs \(expected) for \(q)" }
        }
        return nil
    }

    /// Each query run on each backend at once, every run a task of its own:
    /// `outcomes[query][backend]`, for a store beside the in-memory backend.
    public static func outcomesFromManyTasks(_ queries: [Query], on backends: [any QueryBackend]) async
        -> [[QueryOutcome]]
    {
        let answers = await withTaskGroup(of: (Int, Int, QueryOutcome).self) { group in
            for (i, q) in queries.enumerated() {
                for (b, backend) in backends.enumerated() {
                    group.addTask {
                        (
                            i, b,
                            await QueryOutcome { () async throws(Diagnostic) in try await backend.run(q, variables: [:])
                            }
                        )
                    }
                }
            }
            var out: [Int: [Int: QueryOutcome]] = [:]
            for await (i, b, o) in group { out[i, default: [:]][b] = o }
            return out
        }
        return queries.indices.map { i in backends.indices.map { answers[i]![$0]! } }
    }

    /// One to three random changes to `Item` and `Other` (saves of new objects and new versions,
    /// deletes, pointer targets that come and go), made to `database` and returned for the store;
    /// `next` numbers the new objects.
    public static func randomChanges(
        _ random: inout RandomData, to database: inout Database, next: inout Int
    ) -> [StoreChange] {
        var changes: [StoreChange] = []
        for _ in 0..<(1 + random.int(3)) {
            switch random.int(4) {
            case 0, 1:
                let id = random.chance(50) ? "i\(random.int(30))" : "i\(next)"
                next += 1
                let fresh = random.database(items: 1, others: 0)["Item"]!.records[0]
                let record = Record(objectId: id, fields: fresh.fieldOrder.map { ($0, fresh.fields[$0]!) })
                database.insert(record, into: "Item")
                changes.append(.save(record, in: "Item"))
            case 2:
                let id = "i\(random.int(30))"
                database.remove(id, from: "Item")
                changes.append(.delete(objectId: id, from: "Item"))
            default:
                let id = "o\(random.int(8))"
                if random.chance(50) {
                    let record = Record(
                        objectId: id,
                        fields: [("name", .string(random.pick(RandomData.strings))), ("n", .int(Int64(random.int(5))))])
                    database.insert(record, into: "Other")
                    changes.append(.save(record, in: "Other"))
                } else {
                    database.remove(id, from: "Other")
                    changes.append(.delete(objectId: id, from: "Other"))
                }
            }
        }
        return changes
    }
}
