import QuarryCore
import QuarryTranslation
import Testing

@testable import QuarryEngine

// Data and leaves for the semantics-conversion tests: every shape on which the three leaf
// semantics disagree (missing, null, arrays with nulls and nested arrays, relations, dangling
// pointers, values of every type, date strings, pointers and objects whose objectId is a
// compared string).

enum ConversionData {
    static let march23: Int64 = 1_427_068_800_000  // 2015-03-23T00:00:00Z
    static let austin = GeoPoint(latitude: 30.26715, longitude: -97.74306)
    static let houston = GeoPoint(latitude: 29.76328, longitude: -95.36327)

    /// Class T: fields of every kind, mixed on purpose; class U: pointer targets.
    static let mixed = database(
        (
            "T",
            [
                record("t0"),
                record("t1", ["a": nil, "name": nil, "tags": nil, "born": nil, "ref": nil, "refs": nil, "geo": nil]),
                record(
                    "t2",
                    [
                        "a": 5, "name": "bob", "tags": "a", "born": .date(5), "ref": pointer("U", "u1"),
                        "refs": [pointer("U", "u1")], "geo": .geoPoint(austin),
                    ]),
                record(
                    "t3",
                    [
                        "a": 5.5, "name": "Bob", "tags": ["a", "b"], "born": .date(march23), "ref": pointer("U", "u2"),
                        "refs": [pointer("U", "u2"), pointer("U", "u3")], "geo": [.geoPoint(houston)],
                    ]),
                record(
                    "t4",
                    [
                        "a": "5", "name": 5, "tags": ["b", nil], "born": "2015-03-23", "ref": pointer("U", "gone"),
                        "refs": [pointer("U", "gone")],
                    ]),
                record(
                    "t5",
                    [
                        "a": .date(5), "name": pointer("U", "bob"), "tags": [], "born": .int(march23),
                        "geo": .geoPoint(houston),
                    ]),
                record(
                    "t6",
                    [
                        "a": true, "name": .object(["objectId": "bob"]), "tags": [nil], "born": "not a date",
                        "refs": .relation(className: "U", objectIds: ["u1", "gone"]),
                    ]),
                record(
                    "t7",
                    [
                        "a": [5, nil], "name": .object(["__type": "Object", "className": "U", "objectId": "bob"]),
                        "tags": [["a"]], "geo": "not a point",
                    ]),
                record("t8", ["a": [], "name": ["bob", "x"], "tags": ["A", 3], "born": [.date(5), "2015-03-23"]]),
                record("t9", ["a": [nil], "name": [pointer("U", "bob")], "tags": ["a"], "ref": pointer("U", "bob")]),
                record(
                    "t10", ["a": [[5]], "name": ["x"], "tags": "b", "refs": [pointer("U", "bob"), pointer("U", "u1")]]),
                record("t11", ["a": [6, "5", .date(5)], "name": "bob%_*?\\", "tags": ["a", "a"]]),
                record("t12", ["a": 0, "name": "", "tags": [3], "born": .date(-1)]),
            ]
        ),
        (
            "U",
            [
                record("u1", ["x": 5, "name": "bob"]),
                record("u2", ["x": [1, 5], "name": "Bob"]),
                record("u3", ["x": "5"]),
                record("bob", ["x": nil, "name": ["bob"]]),
            ]
        ))

    /// The same shapes with one type per field, so that the database is a useful schema:
    /// `name` string, `age` number, `tags` array of strings, `born` date, `ref` pointer to U,
    /// `refs` relation to U, `geo` geo point.
    static let typed = database(
        (
            "T",
            [
                record("t0"),
                record("t1", ["name": nil, "age": nil, "tags": nil, "born": nil, "ref": nil, "refs": nil, "geo": nil]),
                record(
                    "t2",
                    [
                        "name": "bob", "age": 5, "tags": ["a"], "born": .date(5), "ref": pointer("U", "u1"),
                        "refs": [pointer("U", "u1")], "geo": .geoPoint(austin),
                    ]),
                record(
                    "t3",
                    [
                        "name": "Bob", "age": 5.5, "tags": ["a", "b"], "born": .date(march23),
                        "ref": pointer("U", "u2"), "refs": [pointer("U", "u2"), pointer("U", "u3")],
                    ]),
                record(
                    "t4",
                    [
                        "name": "x%_*", "age": 0, "tags": [], "born": .date(-1), "ref": pointer("U", "gone"),
                        "refs": [pointer("U", "gone")], "geo": .geoPoint(houston),
                    ]),
                record("t5", ["name": "", "age": -3, "tags": [nil], "refs": []]),
                record("t6", ["name": "bob", "age": 6, "tags": ["b", nil, "a"], "born": .date(march23 + 1)]),
            ]
        ),
        (
            "U",
            [
                record("u1", ["x": 5, "name": "bob"]),
                record("u2", ["x": 6, "name": "Bob"]),
                record("u3", ["x": 5]),
            ]
        ))
}

/// Every leaf shape the front-ends produce (and a few only IR can hold), over the given keys
/// and constants, not negated; callers add negation and semantics.
func conversionConditions(keys: [FieldPath], constants: [Value]) -> [Condition] {
    var out: [Condition] = []
    let ops: [ComparisonOperator] = [.eq, .ne, .lt, .le, .gt, .ge]
    for k in keys {
        let e = Expr.key(k)
        for c in constants {
            for op in ops { out.append(.compare(e, op, .literal(c), [])) }
            out.append(.compare(.literal(c), .lt, e, []))
            out.append(.inCollection(.literal(c), e, []))
        }
        out.append(.compare(e, .eq, .literal("BOB"), .caseInsensitive))
        out.append(.compare(e, .gt, .literal(.date(5)), []))
        out.append(.compare(e, .le, .literal(.int(ConversionData.march23)), []))
        out.append(.between(e, lower: .literal(1), upper: .literal(5)))
        out.append(.between(e, lower: .literal(0.5), upper: .literal(5.5)))
        out.append(.between(e, lower: .literal("2015-03-22"), upper: .literal("2015-03-24")))
        out.append(.between(e, lower: .literal("a"), upper: .literal("bz")))
        out.append(.between(e, lower: .literal(.date(0)), upper: .literal(.date(ConversionData.march23))))
        out.append(.inCollection(e, .list([.literal(5), .literal("bob")]), []))
        out.append(.inCollection(e, .list([.literal("a"), .literal(nil)]), []))
        out.append(.inCollection(e, .list([.literal(1), .literal(2.5)]), []))
        out.append(.inCollection(e, .list([]), []))
        out.append(.inCollection(e, .list([.literal("BOB")]), .caseInsensitive))
        out.append(.isNull(e))
        out.append(.string(e, .beginsWith, .literal("b"), []))
        out.append(.string(e, .beginsWith, .literal("B"), .caseInsensitive))
        out.append(.string(e, .endsWith, .literal("b"), []))
        out.append(.string(e, .contains, .literal("o"), .caseInsensitive))
        out.append(.string(e, .like(.sql(escape: nil)), .literal("b_b%"), .caseInsensitive))
        out.append(.string(e, .like(.sql(escape: "\\")), .literal("bob\\%\\_*?\\\\"), .caseInsensitive))
        out.append(.string(e, .like(.glob), .literal("?o*"), []))
        out.append(.string(e, .matches(RegexOptions(wholeString: true)), .literal("b.b"), []))
        out.append(.string(e, .matches(RegexOptions(wholeString: false, flags: .caseInsensitive)), .literal("^b"), []))
        out.append(.string(e, .beginsWith, .literal(5), []))
        out.append(.containsAll(e, .list([.literal("a")])))
        out.append(.containsAll(e, .list([.literal(5), .literal(nil)])))
        out.append(.containedBy(e, .list([.literal("a"), .literal("b")])))
        out.append(.containedBy(e, .list([.literal(5), .literal(nil)])))
        out.append(.arraySize(e, 0))
        out.append(.arraySize(e, 2))
        out.append(.text(k, TextSearch(terms: "bob")))
        out.append(.geo(.withinCircle(k, center: ConversionData.austin, radius: Distance(10, .kilometers))))
        out.append(.geo(.distance(k, from: ConversionData.houston, .lt, Distance(100, .miles))))
        out.append(
            .inQuery(k, Query(className: "U", predicate: .leaf(.compare(.key("x"), .eq, .literal(5), []), .sql))))
        out.append(.select(k, Query(className: "U", predicate: .constant(true)), innerKey: "name"))
        out.append(.select(k, Query(className: "U", predicate: .constant(true)), innerKey: "x"))
        for q in [Quantifier.any, .all, .none] {
            for body in elementBodies() { out.append(.quantified(q, e, variable: "v", body)) }
        }
    }
    out.append(.relatedTo(Pointer(className: "T", objectId: "t6"), key: "refs"))
    out.append(.relatedTo(Pointer(className: "T", objectId: "nobody"), key: "refs"))
    return out
}

/// Quantifier bodies testing the element `$v`, in each semantics.
func elementBodies() -> [Filter] {
    let v = Expr.variable("v")
    var out: [Filter] = []
    for s in LeafSemantics.allCases {
        out.append(.leaf(.compare(v, .eq, .literal(5), []), s))
        out.append(.leaf(.compare(v, .ne, .literal("a"), []), s))
        out.append(.leaf(.compare(v, .gt, .literal(2), []), s))
        out.append(.leaf(.compare(v, .eq, .literal(nil), []), s))
        out.append(.leaf(.isNull(v), negated: true, s))
        out.append(.leaf(.inCollection(v, .list([.literal("a"), .literal(nil)]), []), negated: true, s))
        out.append(.leaf(.string(v, .beginsWith, .literal("b"), .caseInsensitive), s))
        out.append(.leaf(.between(v, lower: .literal(1), upper: .literal(5)), negated: true, s))
    }
    return out
}

/// The semantics of every leaf in `p`, also inside quantifier bodies and inner queries.
func leafSemantics(_ p: Filter) -> Set<LeafSemantics> {
    switch p {
    case .constant: return []
    case .and(let ps), .or(let ps): return ps.reduce(into: []) { $0.formUnion(leafSemantics($1)) }
    case .not(let q): return leafSemantics(q)
    case .leaf(let l):
        var out: Set<LeafSemantics> = [l.semantics]
        switch l.condition {
        case .quantified(_, _, _, let body): out.formUnion(leafSemantics(body))
        case .inQuery(_, let q), .select(_, let q, _): out.formUnion(leafSemantics(q.predicate))
        default: break
        }
        return out
    }
}

func containsNot(_ p: Filter) -> Bool {
    switch p {
    case .constant, .leaf: return false
    case .and(let ps), .or(let ps): return ps.contains(where: containsNot)
    case .not: return true
    }
}

/// What converting one predicate did.
enum ConversionOutcome: Equatable {
    /// The source query fails on this data (e.g. an SQL date comparison with a non-date string).
    case sourceFails
    case inexpressible
    case converted
}

/// Converts `p` to `target` and, when that succeeds, checks that the result has only `target`
/// leaves (and, for SQL, no NOT) and selects the same objects as `p` on `db`.
func checkConversion(
    _ p: Filter, to target: LeafSemantics, db: Database, className: String = "T",
    schema: (any Schema)?, sourceLocation: SourceLocation = #_sourceLocation
) throws -> ConversionOutcome {
    let expected: [String]
    do {
        expected = try ids(db, className, p)
    } catch {
        return .sourceFails
    }
    let converted: Filter
    do {
        converted = try SemanticsConversion.convert(p, to: target, className: className, schema: schema)
    } catch {
        for d in error.all {
            #expect(d.code == "translate.inexpressible", "\(d) for \(p)", sourceLocation: sourceLocation)
        }
        return .inexpressible
    }
    #expect(leafSemantics(converted).isSubset(of: [target]), "\(converted)", sourceLocation: sourceLocation)
    if target == .sql { #expect(!containsNot(converted), "\(converted)", sourceLocation: sourceLocation) }
    let actual = try ids(db, className, converted)
    #expect(actual == expected, "\(p)\n→ \(converted)", sourceLocation: sourceLocation)
    return .converted
}
