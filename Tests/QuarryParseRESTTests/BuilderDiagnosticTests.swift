import Testing
@testable import QuarryParseREST
import QuarryCore

/// Builder mistakes come back from `build()` as diagnostics with Parse codes and the JSON path
/// the SDK would have sent.
@Suite struct BuilderDiagnosticTests {
    let q = QueryBuilder("GameScore")

    func report(_ b: QueryBuilder, profile: Profile = .exact, limits: Limits = .default) -> [Diagnostic] {
        diagnostics { () throws(Diagnostics) in try b.build(profile: profile, limits: limits) }
    }

    @Test func exactMatchOnArraysAndObjectsIsError102() {
        // T31: arrayKey equalTo [2,3].
        let d = report(q.where("arrayKey" == [2, 3]))
        #expect(d.map(\.parseCode) == [102])
        #expect(d.first?.code == "json.exact-match")
        #expect(d.first?.path == "where.arrayKey")
        #expect(report(q.where("a" != .object(["b": 1]))).map(\.path) == ["where.a.$ne"])
        #expect(report(q.where(Field("a").containsAll([[1]]))).map(\.path) == ["where.a.$all[0]"])
    }

    @Test func invalidKeyNamesAre105() {
        for bad in ["1abc", "_rperm", "a b", "a..b", "a.", "", "$where"] {
            let d = report(q.where(Field(bad) == 1))
            #expect(d.map(\.parseCode) == [105], "\(bad)")
        }
        #expect(report(q.where("a.b_c9" == 1)).isEmpty)
        #expect(report(q.order(.ascending("bad key"))).map(\.path) == ["order[0]"])
        #expect(report(q.include("ok", "no way")).map(\.path) == ["include[1]"])
        #expect(
            report(q.where(Field("x").matchesKey("1bad", in: QueryBuilder("T")))).map(\.path)
                == ["where.x.$select.key"])
    }

    @Test func invalidClassNamesAre103() {
        let d = report(q.where(Field("post").matchesQuery(QueryBuilder("Po st"))))
        #expect(d.map(\.parseCode) == [103])
        #expect(d.first?.path == "where.post.$inQuery.className")
    }

    @Test func regexModifiersOutsideImxs() {
        let d = report(q.where(Field("name").matchesRegex("a", modifiers: "ig")))
        #expect(d.map(\.parseCode) == [102])
        #expect(d.first?.code == "json.regex-options")
        #expect(d.first?.path == "where.name.$options")
    }

    @Test func comparisonsTakeNumbersStringsAndDates() {
        #expect(report(q.where("a" > true)).map(\.code) == ["json.operand"])
        #expect(report(q.where("a" < nil)).map(\.code) == ["json.operand"])
        #expect(report(q.where("a" >= .date(0))).isEmpty)
    }

    @Test func relativeTimeIsCheckedWhereWritten() {
        let d = report(q.where("createdAt" > RelativeDate("in 2 fortnights")))
        #expect(d.map(\.code) == ["json.relative-time"])
        #expect(d.first?.path == "where.createdAt.$gt")
        #expect(d.first?.message.contains("Invalid interval") == true)
    }

    @Test func otherOperandChecks() {
        #expect(report(q.where(Field("tags").sizeEqualTo(-1))).map(\.code) == ["json.operand"])
        #expect(report(q.where(Field("loc").withinPolygon([geo(0, 0), geo(1, 1)]))).map(\.code) == ["json.operand"])
        #expect(
            report(q.where(Field("loc").near(geo(0, 0), within: Distance(-1, .miles)))).map(\.path)
                == ["where.loc.$maxDistanceInMiles"])
        #expect(report(q.where(Field("body").matchesText(""))).map(\.code) == ["json.operand"])
        #expect(report(q.include("*")).map(\.code) == ["json.include"])
        #expect(report(QueryBuilder.or()).map(\.code).contains("json.compound"))
    }

    @Test func innerQueriesTakeOnlyFilteringParameters() {
        let inner = QueryBuilder("Post").include("author")
        let d = report(q.where(Field("post").matchesQuery(inner)))
        #expect(d.map(\.code) == ["json.subquery"])
        #expect(d.first?.path == "where.post.$inQuery.include")
    }

    @Test func safetyCapsAreErrors() {
        var limits = Limits.default
        limits.maxInListSize = 3
        #expect(report(q.where(Field("a").containedIn([1, 2, 3, 4])), limits: limits).map(\.code) == ["limit.in-list"])
        limits = .default
        limits.maxSubqueryDepth = 1
        let twoDeep = q.where(
            Field("a").matchesQuery(QueryBuilder("B").where(Field("c").matchesQuery(QueryBuilder("C")))))
        let d = report(twoDeep, limits: limits)
        #expect(d.map(\.code) == ["limit.subquery-depth"])
        #expect(d.first?.path == "where.a.$inQuery.where.c.$inQuery")
        limits = .default
        limits.maxSubqueries = 1
        #expect(
            report(
                q.where(Field("a").matchesQuery(QueryBuilder("B")), Field("c").matchesQuery(QueryBuilder("C"))),
                limits: limits
            ).map(\.code) == ["limit.subqueries"])
        limits = .default
        limits.maxNestingDepth = 3
        let deep = q.where(("a" == 1 || ("b" == 2 || ("c" == 3 || ("d" == 4 || "e" == 5)))))
        #expect(report(deep, limits: limits).map(\.code) == ["limit.nesting"])
    }

    @Test func severalProblemsAreReportedTogether() {
        let d = report(q.where("1a" == 1, "arr" == [1], "x" > true).limit(-1))
        #expect(d.map(\.code) == ["json.key-name", "json.exact-match", "json.operand", "json.limit"])
    }
}
