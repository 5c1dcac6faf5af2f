import QuarryCore
import QuarryTranslation
import Testing
import QuarryTestSupport

@testable import QuarryEngine

/// Random data and random IR: converting never changes which objects match.
@Suite struct SemanticsConversionPropertyTests {
    /// Values of every kind, the shapes the semantics disagree on most.
    static let values: [Value] = [
        .null, 0, 5, 5.5, -1, "5", "bob", "Bob", "a", "", "2015-03-23", "x%_*", .date(5), .date(ConversionData.march23),
        true, false, pointer("U", "u1"), pointer("U", "bob"), pointer("U", "gone"), .object(["objectId": "bob"]),
        .object(["__type": "Object", "className": "U", "objectId": "bob"]), .geoPoint(ConversionData.austin),
        [], [.null], [5, .null], ["a", "b"], [5, "5", .date(5)], [[5]], [pointer("U", "u1"), pointer("U", "bob")],
        .relation(className: "U", objectIds: ["u1", "gone"]), ["bob", "a"], [.geoPoint(ConversionData.houston)],
    ]

    /// How many of the 2000 random predicates must convert (the seeds are fixed; these sit a
    /// little below what the current rules reach, so a rule that stops applying shows up).
    static let minimumWithoutSchema: [LeafSemantics: Int] = [.sql: 400, .predicate: 1250, .document: 780]
    static let minimumWithSchema: [LeafSemantics: Int] = [.sql: 950, .predicate: 1550, .document: 1200]

    static func seed(_ base: UInt64, _ target: LeafSemantics) -> UInt64 {
        base &+ 7919 &* UInt64(LeafSemantics.allCases.firstIndex(of: target) ?? 0)
    }

    static let constants: [Value] = [
        .null, 0, 5, 5.5, "5", "bob", "a", "2015-03-23", .date(5), .date(ConversionData.march23), true,
        pointer("U", "bob"), ["a", "b"], [5, .null],
    ]

    /// A database whose T objects hold random values in `a`, `b`, `ref` and `refs`.
    static func mixedDatabase(_ rng: inout SplitMix64) -> Database {
        func pick() -> Value? {
            let i = Int(rng.next() % UInt64(values.count + 2))
            return i < values.count ? values[i] : nil  // nil: the field is missing
        }
        var records: [Record] = []
        for i in 0..<10 {
            var fields: [(String, Value)] = []
            for name in ["a", "b"] { if let v = pick() { fields.append((name, v)) } }
            if rng.next() % 3 != 0 {
                fields.append(("ref", pointer("U", ["u1", "u2", "bob", "gone"][Int(rng.next() % 4)])))
            }
            if rng.next() % 3 != 0 {
                fields.append(
                    (
                        "refs",
                        .array(
                            (0..<Int(rng.next() % 3)).map { _ in pointer("U", ["u1", "u2", "bob"][Int(rng.next() % 3)])
                            })
                    ))
            }
            records.append(Record(objectId: "t\(i)", fields: fields))
        }
        var targets: [Record] = []
        for id in ["u1", "u2", "bob"] {
            var fields: [(String, Value)] = []
            if let v = pick() { fields.append(("x", v)) }
            targets.append(Record(objectId: id, fields: fields))
        }
        return Database([ClassData(name: "T", records: records), ClassData(name: "U", records: targets)])
    }

    /// A database with one type per field, so that it narrows what the converter must assume.
    static func typedDatabase(_ rng: inout SplitMix64) -> Database {
        func maybe(_ v: Value) -> Value? {
            switch rng.next() % 5 {
            case 0: return nil
            case 1: return .null
            default: return v
            }
        }
        let strings: [Value] = ["bob", "Bob", "a", "", "x%_*", "2015-03-23"]
        var records: [Record] = []
        for i in 0..<10 {
            var fields: [(String, Value)] = []
            let n = Int64(rng.next() % 8) - 2
            if let v = maybe(strings[Int(rng.next() % UInt64(strings.count))]) { fields.append(("s", v)) }
            if let v = maybe(rng.next() % 2 == 0 ? .int(n) : .double(Double(n) + 0.5)) { fields.append(("n", v)) }
            if let v = maybe(.date(rng.next() % 2 == 0 ? 5 : ConversionData.march23 + n)) { fields.append(("d", v)) }
            if let v = maybe(
                .array(
                    (0..<Int(rng.next() % 3)).map { _ in rng.next() % 4 == 0 ? .null : strings[Int(rng.next() % 4)] }))
            {
                fields.append(("arr", v))
            }
            if let v = maybe(pointer("U", ["u1", "u2", "gone"][Int(rng.next() % 3)])) { fields.append(("ref", v)) }
            if let v = maybe(
                .array((0..<Int(rng.next() % 3)).map { _ in pointer("U", ["u1", "u2", "gone"][Int(rng.next() % 3)]) }))
            {
                fields.append(("refs", v))
            }
            if let v = maybe(.geoPoint(rng.next() % 2 == 0 ? ConversionData.austin : ConversionData.houston)) {
                fields.append(("g", v))
            }
            records.append(Record(objectId: "t\(i)", fields: fields))
        }
        let targets = [Record(objectId: "u1", fields: [("x", 5)]), Record(objectId: "u2", fields: [("x", 6)])]
        return Database([ClassData(name: "T", records: records), ClassData(name: "U", records: targets)])
    }

    /// A random filter on `keys` of class T, its leaves in `semantics`.
    static func randomFilter(_ rng: inout SplitMix64, keys: [FieldPath], semantics: [LeafSemantics]) -> Filter {
        var generator = RandomIR(
            seed: rng.next(), subset: .anySemantics(keys: keys, constants: constants, semantics: semantics))
        return generator.filter()
    }

    /// Random IR in one semantics (now and then mixed) on random data with every shape, no
    /// schema: each target gets the same results or a `translate.inexpressible`.
    @Test(arguments: LeafSemantics.allCases)
    func randomIRWithoutSchema(_ target: LeafSemantics) throws {
        var rng = SplitMix64(seed: Self.seed(0xC0FFEE, target))
        var converted = 0
        for round in 0..<40 {
            let db = Self.mixedDatabase(&rng)
            for _ in 0..<50 {
                let source = LeafSemantics.allCases[Int(rng.next() % 3)]
                let p = Self.randomFilter(
                    &rng, keys: ["a", "b", "ref.x", "refs.x", "refs"],
                    semantics: round % 4 == 0 ? LeafSemantics.allCases : [source])
                if try checkConversion(p, to: target, db: db, schema: nil) == .converted { converted += 1 }
            }
        }
        #expect(converted >= Self.minimumWithoutSchema[target]!, "only \(converted) of 2000 predicates converted")
    }

    /// The same on data with one type per field, given as the schema.
    @Test(arguments: LeafSemantics.allCases)
    func randomIRWithSchema(_ target: LeafSemantics) throws {
        var rng = SplitMix64(seed: Self.seed(0xBEEF, target))
        var converted = 0
        for _ in 0..<40 {
            let db = Self.typedDatabase(&rng)
            for _ in 0..<50 {
                let source = LeafSemantics.allCases[Int(rng.next() % 3)]
                let p = Self.randomFilter(
                    &rng, keys: ["s", "n", "d", "arr", "ref", "ref.x", "refs", "refs.x", "g"],
                    semantics: [source])
                if try checkConversion(p, to: target, db: db, schema: db) == .converted { converted += 1 }
            }
        }
        #expect(converted >= Self.minimumWithSchema[target]!, "only \(converted) of 2000 predicates converted")
    }
}
