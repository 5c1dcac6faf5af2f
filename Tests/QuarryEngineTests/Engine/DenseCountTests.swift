import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Counts a range leaf makes without listing rows (docs/ARCHITECTURE.md#counting) against the
/// reference: every range shape (open, closed, empty, negated, integer extremes), missing and
/// null values under each semantics, new literals for a cached plan, deleted rows, and on one
/// thread and several.
@Suite struct DenseCountTests {
    static let clock: @Sendable () -> Int64 = { 1_700_000_000_000 }

    static func database() -> Database {
        var db = Database()
        let extremes: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
        for i in 0..<700 {
            var fields: [(String, Value)] = []
            switch i % 10 {
            case 0: break  // missing
            case 1: fields.append(("n", .null))
            case 2: fields.append(("n", .int(extremes[i % extremes.count])))
            default: fields.append(("n", .int(Int64(i % 97) - 40)))
            }
            db.insert(Record(objectId: "o\(i)", fields: fields), into: "T")
        }
        return db
    }

    static func queries() -> [Query] {
        // A count of the whole class (Parse's `count` with an empty `where`) and of nothing.
        var out = [true, false].map { Query(className: "T", predicate: .constant($0), count: true) }
        let literals: [Int64] = [.min, -41, -40, 0, 17, 56, .max]
        for semantics in [LeafSemantics.sql, .predicate, .document] {
            for negated in [false, true] {
                for op in ComparisonOperator.allCases {
                    for v in literals {
                        let leaf = Leaf(
                            .compare(.key("n"), op, .literal(.int(v)), []), negated: negated, semantics: semantics)
                        out.append(Query(className: "T", predicate: .leaf(leaf), count: true))
                    }
                }
                for (lo, hi) in [(-10, 10), (10, -10), (Int64.min, Int64.max), (5, 5)] as [(Int64, Int64)] {
                    let leaf = Leaf(
                        .between(.key("n"), lower: .literal(.int(lo)), upper: .literal(.int(hi))), negated: negated,
                        semantics: semantics)
                    out.append(Query(className: "T", predicate: .leaf(leaf), count: true))
                }
            }
        }
        return out
    }

    @Test(arguments: [ScanParallelism.sequential, ScanParallelism(threads: 3, morselRows: 64)])
    func countsAgreeWithTheReference(parallelism: ScanParallelism) {
        var db = Self.database()
        let engine = Engine(database: db, now: Self.clock, random: { 0.5 }, parallelism: parallelism)
        for deleting in [false, true] {
            if deleting {
                for i in stride(from: 3, to: 700, by: 11) {
                    _ = engine.delete("o\(i)", from: "T")
                    _ = db.remove("o\(i)", from: "T")
                }
            }
            let reference = ReferenceEvaluator(database: db, now: Self.clock, random: { 0.5 })
            for q in Self.queries() {
                let expected = try? reference.run(q)
                let actual = try? engine.run(q)
                #expect(actual != nil && actual == expected, "\(PredicateText.render(q.predicate)) deleted \(deleting)")
            }
        }
    }
}
