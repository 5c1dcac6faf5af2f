import QuarryCore
import Testing

@testable import QuarryEngine

/// Expressions evaluated on one object through the public API: `expr == expected` must hold.
@Suite struct ExpressionTests {
    static let db = database(
        (
            "Order",
            [
                record(
                    "o1",
                    [
                        "qty": 3, "price": 2.5, "name": "Crème Brûlée", "when": .date(1_427_068_800_000),
                        "items": [
                            .object(["price": 2, "n": "a"]), .object(["price": 5, "n": "b"]),
                            .object(["price": 5, "n": "c"]),
                        ],
                        "scores": [4, 1, 3, 1], "mixed": [1, "x"], "empty": [],
                        "here": .geoPoint(GeoPoint(latitude: 0, longitude: 0)),
                        "there": .geoPoint(GeoPoint(latitude: 0, longitude: 1)),
                        "meta": .object(["k": "v"]), "customer": pointer("Customer", "c1"),
                    ])
            ]
        ),
        ("Customer", [record("c1", ["name": "Ann"])]))
    static let order = db["Order"]!.records[0]

    /// The value `e` evaluates to on the order (through a fixed clock and random source).
    private func value(_ e: Expr) throws -> Operand {
        let evaluation = Evaluation(
            source: Self.db, limits: .default, variables: ["x": 10],
            nowMillis: 1_000_000, random: { 0.75 })
        return try evaluation.evaluate(e, Scope(record: Self.order, className: "Order"))
    }

    private func fn(_ f: Function, _ args: Expr...) -> Expr { .function(f, args) }

    @Test(arguments: [
        // Arithmetic: ints stay ints (division truncates, as in NSExpression), doubles spread.
        (Expr.arithmetic(.add, .key("qty"), .literal(4)), Value.int(7)),
        (.arithmetic(.multiply, .key("qty"), .key("price")), .double(7.5)),
        (.arithmetic(.divide, .literal(7), .literal(2)), .int(3)),
        (.arithmetic(.divide, .literal(7.0), .literal(2)), .double(3.5)),
        (.arithmetic(.modulus, .literal(7), .literal(-3)), .int(1)),
        (.arithmetic(.power, .literal(2), .literal(10)), .double(1024)),
        (.arithmetic(.add, .literal(.int(.max)), .literal(1)), .double(9_223_372_036_854_775_808)),
        (.arithmetic(.divide, .literal(1), .literal(0)), .null),
        (.arithmetic(.subtract, .key("name"), .literal(1)), .null),
        (.arithmetic(.add, .key("missing"), .literal(1)), .null),
        (.negate(.key("qty")), .int(-3)),
        (.negate(.literal(.int(.min))), .double(9_223_372_036_854_775_808)),
        // Dates move by seconds.
        (.arithmetic(.add, .key("when"), .literal(60)), .date(1_427_068_860_000)),
        (.arithmetic(.add, .literal(1.5), .key("when")), .date(1_427_068_801_500)),
        (.arithmetic(.subtract, .key("when"), .literal(86_400)), .date(1_426_982_400_000)),
        (.arithmetic(.subtract, .key("when"), .literal(.date(1_427_068_700_000))), .double(100)),
        (.arithmetic(.multiply, .key("when"), .literal(2)), .null),
        // Variables and members.
        (.arithmetic(.add, .variable("x"), .key("qty")), .int(13)),
        (.member(.key("customer"), "name"), .string("Ann")),
        (.list([.key("qty"), .key("missing")]), .array([3, nil])),
    ])
    func arithmetic(_ e: Expr, _ expected: Value) throws {
        #expect(try value(e) == .value(expected))
    }

    @Test(arguments: [
        (Expr.aggregate(.count, .key("items")), Value.int(3)),
        (.aggregate(.count, .key("empty")), .int(0)),
        (.aggregate(.count, .key("missing")), .int(0)),
        (.aggregate(.sum, .key("items.price")), .int(12)),
        (.aggregate(.sum, .key("empty")), .int(0)),
        (.aggregate(.sum, .key("mixed")), .null),
        (.aggregate(.avg, .key("scores")), .double(2.25)),
        (.aggregate(.avg, .key("empty")), .null),
        (.aggregate(.min, .key("scores")), .int(1)),
        (.aggregate(.max, .key("items.n")), .string("c")),
        (.aggregate(.max, .key("mixed")), .null),
        (.aggregate(.distinctUnionOfObjects, .key("scores")), .array([4, 1, 3])),
        (.aggregate(.unionOfObjects, .key("items.price")), .array([2, 5, 5])),
        (.index(.key("scores"), .first), .int(4)),
        (.index(.key("scores"), .last), .int(1)),
        (.index(.key("scores"), .size), .int(4)),
        (.index(.key("scores"), .at(.literal(2))), .int(3)),
        (.index(.key("meta"), .at(.literal("k"))), .string("v")),
        (.index(.key("customer"), .at(.literal("name"))), .string("Ann")),
        (
            .subquery(
                .key("items"), variable: "i",
                .leaf(.compare(.member(.variable("i"), "price"), .gt, .literal(3), []), .predicate)),
            .array([.object(["price": 5, "n": "b"]), .object(["price": 5, "n": "c"])])
        ),
        (
            .aggregate(
                .count,
                .subquery(
                    .key("scores"), variable: "s",
                    .leaf(.compare(.variable("s"), .eq, .literal(1), []), .predicate))), .int(2)
        ),
    ])
    func collections(_ e: Expr, _ expected: Value) throws {
        #expect(try value(e) == .value(expected))
    }

    @Test(arguments: [
        Expr.index(.key("scores"), .at(.literal(9))), .index(.key("scores"), .at(.literal(-1))),
        .index(.key("empty"), .first), .index(.key("qty"), .size), .index(.key("missing"), .last),
    ])
    func indexOutOfRangeIsMissing(_ e: Expr) throws {
        #expect(try value(e) == .missing)
    }

    @Test func functions() throws {
        #expect(try value(fn(.sum, .key("scores"))) == .value(9))
        #expect(try value(fn(.count, .key("scores"))) == .value(4))
        #expect(try value(fn(.min, .key("scores"))) == .value(1))
        #expect(try value(fn(.max, .key("scores"))) == .value(4))
        #expect(try value(fn(.average, .key("scores"))) == .value(2.25))
        #expect(try value(fn(.median, .key("scores"))) == .value(2.0))
        #expect(try value(fn(.median, .list([.literal(5), .literal(1), .literal(3)]))) == .value(3.0))
        #expect(try value(fn(.mode, .key("scores"))) == .value([1]))
        // Population standard deviation of 1 2 3 4 4 5 9 11: sqrt(82.875 / 8).
        let numbers = Expr.list([1, 2, 3, 4, 4, 5, 9, 11].map { .literal(.int($0)) })
        #expect(try value(fn(.stddev, numbers)) == .value(.double((82.875 / 8).squareRoot())))
        #expect(try value(fn(.add, .key("qty"), .literal(1))) == .value(4))
        #expect(try value(fn(.subtract, .literal(1), .key("qty"))) == .value(-2))
        #expect(try value(fn(.multiply, .key("qty"), .literal(2))) == .value(6))
        #expect(try value(fn(.divide, .literal(9), .key("qty"))) == .value(3))
        #expect(try value(fn(.modulus, .literal(10), .key("qty"))) == .value(1))
        #expect(try value(fn(.raise, .literal(3), .literal(2))) == .value(9.0))
        #expect(try value(fn(.sqrt, .literal(16))) == .value(4.0))
        #expect(try value(fn(.log, .literal(1000))) == .value(3.0))
        #expect(try value(fn(.ln, .literal(1))) == .value(0.0))
        #expect(try value(fn(.exp, .literal(0))) == .value(1.0))
        #expect(try value(fn(.floor, .literal(-2.5))) == .value(-3.0))
        #expect(try value(fn(.ceiling, .literal(2.1))) == .value(3.0))
        #expect(try value(fn(.trunc, .literal(-2.7))) == .value(-2.0))
        #expect(try value(fn(.floor, .literal(7))) == .value(7))
        #expect(try value(fn(.abs, .literal(-7))) == .value(7))
        #expect(try value(fn(.abs, .literal(-0.5))) == .value(0.5))
        #expect(try value(fn(.random)) == .value(0.75))
        #expect(try value(fn(.randomn, .literal(8))) == .value(6))
        #expect(try value(fn(.now)) == .value(.date(1_000_000)))
        #expect(try value(fn(.uppercase, .key("name"))) == .value("CRÈME BRÛLÉE"))
        #expect(try value(fn(.lowercase, .literal("ÀB"))) == .value("àb"))
        #expect(try value(fn(.length, .key("name"))) == .value(12))
        #expect(try value(fn(.length, .literal("e\u{301}"))) == .value(2))  // scalars
        #expect(try value(fn(.bitwiseAnd, .literal(12), .literal(10))) == .value(8))
        #expect(try value(fn(.bitwiseOr, .literal(12), .literal(10))) == .value(14))
        #expect(try value(fn(.bitwiseXor, .literal(12), .literal(10))) == .value(6))
        #expect(try value(fn(.leftshift, .literal(1), .literal(4))) == .value(16))
        #expect(try value(fn(.rightshift, .literal(-16), .literal(2))) == .value(-4))
        #expect(try value(fn(.leftshift, .literal(1), .literal(-1))) == .value(.null))
        #expect(try value(fn(.onesComplement, .literal(0))) == .value(-1))
        #expect(try value(fn(.bitwiseAnd, .literal(1.5), .literal(1))) == .value(.null))
        #expect(try value(fn(.noindex, .key("qty"))) == .value(3))
        let oneDegree = Geo.earthRadiusMeters * Double.pi / 180
        #expect(
            try value(fn(.distanceToLocation, .key("here"), .key("there"))).value?.numericValue.map {
                abs($0 - oneDegree) < 1e-6
            } == true)
        #expect(try value(fn(.sqrt, .key("name"))) == .value(.null))
    }

    @Test func casts() throws {
        // Numbers become dates as seconds since 2001-01-01T00:00:00Z.
        #expect(try value(.cast(.literal(0), .date)) == .value(.date(978_307_200_000)))
        #expect(try value(.cast(.literal(86_400.5), .date)) == .value(.date(978_393_600_500)))
        #expect(try value(.cast(.key("when"), .number)) == .value(.double(448_761_600)))
        #expect(try value(.cast(.literal("42"), .number)) == .value(42))
        #expect(try value(.cast(.literal("4.5"), .number)) == .value(4.5))
        #expect(try value(.cast(.literal("four"), .number)) == .value(.null))
        #expect(try value(.cast(.literal(true), .number)) == .value(1))
        #expect(try value(.cast(.literal(42), .string)) == .value("42"))
        #expect(try value(.cast(.literal(2.5), .string)) == .value("2.5"))
        #expect(try value(.cast(.literal(3.0), .string)) == .value("3"))
        #expect(try value(.cast(.key("missing"), .string)) == .value(.null))
        #expect(try value(.cast(.literal("not a date"), .date)) == .value(.null))
    }

    @Test func evaluatedObjectIsTheEmbeddedRecord() throws {
        guard case .value(.object(let fields)) = try value(.evaluatedObject) else {
            Issue.record("SELF should be an object")
            return
        }
        #expect(fields["__type"] == "Object")
        #expect(fields["className"] == "Order")
        #expect(fields["objectId"] == "o1")
        #expect(fields["qty"] == 3)
    }

    @Test func comparisonsUseExpressions() throws {
        // Key-to-key and computed comparisons through the public API.
        let p = Filter.leaf(
            .compare(.arithmetic(.multiply, .key("qty"), .key("price")), .gt, .literal(7), []), .predicate)
        #expect(try ids(Self.db, "Order", p) == ["o1"])
        let sub = Filter.leaf(
            .compare(
                .aggregate(
                    .count,
                    .subquery(
                        .key("items"), variable: "i",
                        .leaf(.compare(.member(.variable("i"), "price"), .eq, .literal(5), []), .predicate))), .eq,
                .literal(2), []), .predicate)
        #expect(try ids(Self.db, "Order", sub) == ["o1"])
    }
}
