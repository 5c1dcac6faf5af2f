import QuarryCore
import Testing

@testable import QuarryEngine

@Suite struct DateTests {
    // DS-U and DS-B of the Backendless reference.
    let updates = database(
        (
            "Contact",
            [
                record("u1", ["updated": .date(1_427_025_600_000)]),
                record("u2", ["updated": .date(1_427_068_800_000)]),
                record("u3", ["updated": .date(1_427_104_800_000)]),
                record("u4", ["updated": .date(1_427_846_400_000)]),
            ]
        ))
    let births = database(
        (
            "Person",
            [
                record("b1", ["birthDate": .date(346_204_800_000)]),
                record("b2", ["birthDate": .date(346_291_200_000)]),
                record("b3", ["birthDate": .date(594_003_600_000)]),
                record("b4", ["birthDate": .date(594_007_200_000)]),
                record("b5", ["birthDate": .date(631_152_000_000)]),
            ]
        ))

    @Test(
        arguments: [
            (25, ComparisonOperator.gt, Value.string("23-Mar-2015"), ["u3", "u4"]),
            (26, .gt, "03/23/2015", ["u3", "u4"]),
            (27, .gt, 1_427_068_800_000, ["u3", "u4"]),
            (29, .ge, "23-Mar-2015", ["u2", "u3", "u4"]),
            (30, .lt, "23-Mar-2015", ["u1"]),
            (31, .le, 1_427_068_800_000, ["u1", "u2"]),
            (37, .ge, "2015-03-23T00:00:00.000Z", ["u2", "u3", "u4"]),
            (38, .gt, "20150323", ["u3", "u4"]),
            (40, .gt, 1_427_068_800, ["u1", "u2", "u3", "u4"]),
            (0, .eq, "03/23/2015", ["u2"]),
            (0, .ne, "03/23/2015", ["u1", "u3", "u4"]),
            (0, .eq, 1_427_068_800_000.0, ["u2"]),
        ] as [(Int, ComparisonOperator, Value, [String])])
    func sqlDateComparisons(test: Int, op: ComparisonOperator, literal: Value, expected: [String]) throws {
        #expect(try ids(updates, "Contact", compare("updated", op, literal, .sql)) == expected, "§7 test \(test)")
    }

    @Test(
        arguments: [
            (32, ComparisonOperator.gt, Value.string("22-Dec-1980"), ["b3", "b4", "b5"]),
            (33, .lt, "22-Dec-1980", ["b1"]),
            (34, .lt, 346_291_200_000, ["b1"]),
            (35, .ge, "10/28/1988 00:00:00 GMT-0200", ["b4", "b5"]),
            (36, .ge, "28-10-1988", ["b3", "b4", "b5"]),
        ] as [(Int, ComparisonOperator, Value, [String])])
    func birthDates(test: Int, op: ComparisonOperator, literal: Value, expected: [String]) throws {
        #expect(try ids(births, "Person", compare("birthDate", op, literal, .sql)) == expected, "§7 test \(test)")
    }

    @Test func inListsAndBetweenReadDateStringsToo() throws {
        let list = Expr.list([.literal("23-Mar-2015"), .literal("04/01/2015")])
        #expect(try ids(updates, "Contact", .leaf(.inCollection(.key("updated"), list, []), .sql)) == ["u2", "u4"])
        #expect(
            try ids(updates, "Contact", .leaf(.inCollection(.key("updated"), list, []), negated: true, .sql)) == [
                "u1", "u3",
            ])
        let between = Condition.between(.key("updated"), lower: .literal("22-Mar-2015"), upper: .literal("03/23/2015"))
        #expect(try ids(updates, "Contact", .leaf(between, .sql)) == ["u1", "u2"])
    }

    @Test func onlySQLLeavesCoerce() throws {
        // NSPredicate and Mongo compare a date with a string as different types.
        #expect(try ids(updates, "Contact", compare("updated", .gt, "23-Mar-2015", .predicate)) == [])
        #expect(try ids(updates, "Contact", compare("updated", .gt, "23-Mar-2015", .document)) == [])
        #expect(
            try ids(updates, "Contact", compare("updated", .gt, .date(1_427_068_800_000), .document)) == ["u3", "u4"])
    }

    @Test func anUnparseableStringInTheDataIsNotAnError() throws {
        let db = database(
            (
                "E",
                [
                    record("e1", ["at": .date(0), "note": "someday"]),
                    record("e2", ["at": .date(0), "note": "01/01/1970"]),
                ]
            ))
        let p = Filter.leaf(.compare(.key("at"), .eq, .key("note"), []), .sql)
        #expect(try ids(db, "E", p) == ["e2"])
    }

    @Test func castsReadISOAndBackendlessStrings() throws {
        let db = database(("E", [record("e", ["at": .date(1_427_068_800_000)])]))
        for text in ["2015-03-23T00:00:00.000Z", "2015-03-23", "23-Mar-2015", "03/23/2015"] {
            let p = Filter.leaf(.compare(.key("at"), .eq, .cast(.literal(.string(text)), .date), []), .predicate)
            #expect(try ids(db, "E", p) == ["e"], "\(text)")
        }
        let asString = Filter.leaf(
            .compare(.cast(.key("at"), .string), .eq, .literal("2015-03-23T00:00:00.000Z"), []), .predicate)
        #expect(try ids(db, "E", asString) == ["e"])
    }

    @Test func nowAndRelativeTimeReadOneClock() throws {
        let now: Int64 = 1_427_068_800_000
        let db = database(
            (
                "Event",
                [
                    record("past", ["at": .date(now - 3 * 3_600_000)]), record("soon", ["at": .date(now + 3_600_000)]),
                    record("later", ["at": .date(now + 3 * 86_400_000)]),
                ]
            ))
        func relative(_ op: ComparisonOperator, _ phrase: String) -> Filter {
            .leaf(.compare(.key("at"), op, .function(.relativeTime, [.literal(.string(phrase))]), []), .document)
        }
        #expect(try ids(db, "Event", relative(.lt, "2 hours ago"), now: now) == ["past"])
        #expect(try ids(db, "Event", relative(.gt, "now"), now: now) == ["soon", "later"])
        #expect(try ids(db, "Event", .and([relative(.gt, "now"), relative(.lt, "in 1 day")]), now: now) == ["soon"])
        // now() - 3600 is an hour ago: date arithmetic is in seconds.
        let lastHourOrLater = Filter.leaf(
            .compare(.key("at"), .ge, .arithmetic(.subtract, .function(.now, []), .literal(3600)), []),
            .predicate)
        #expect(try ids(db, "Event", lastHourOrLater, now: now) == ["soon", "later"])
    }
}
