import Testing
@testable import QuarryParseREST
import QuarryCore

/// The profile rules of docs/SEMANTICS.md#profiles as the builder applies them; each case shows
/// `exact` beside the compatibility profile on the same query.
@Suite struct ProfileRuleTests {
    let q = QueryBuilder("GameScore")

    func codes(_ b: QueryBuilder, _ profile: Profile) -> [String] {
        diagnostics { () throws(Diagnostics) in try b.build(profile: profile) }.map(\.code)
    }

    @Test func parseRejectsLimitsAboveOneThousand() throws {
        let big = q.limit(1001)
        #expect(try big.build(profile: .exact).limit == 1001)
        let d = diagnostics { () throws(Diagnostics) in try big.build(profile: .parse) }
        #expect(d.map(\.parseCode) == [117])
        #expect(d.first?.path == "limit")
        #expect(try q.limit(1000).build(profile: .parse).limit == 1000)
        #expect(try q.limit(0).build(profile: .parse).limit == 0)
    }

    @Test(arguments: [Profile.leancloud, .maxleap])
    func leanCloudAndMaxLeapCapLargeLimits(_ profile: Profile) throws {
        #expect(try q.limit(5000).build(profile: profile).limit == 1000)
        #expect(try q.limit(10).build(profile: profile).limit == 10)
    }

    @Test func negativeLimitAndSkipAreRejectedEverywhere() {
        for profile in Profile.allCases {
            let limit = diagnostics { () throws(Diagnostics) in try q.limit(-1).build(profile: profile) }
            #expect(limit.map(\.parseCode) == [117])
            let skip = diagnostics { () throws(Diagnostics) in try q.skip(-5).build(profile: profile) }
            #expect(skip.map(\.parseCode) == [118])
            #expect(skip.first?.path == "skip")
        }
    }

    @Test func parseCapsSkipAtTenThousand() throws {
        #expect(try q.skip(20_000).build(profile: .exact).skip == 20_000)
        #expect(try q.skip(10_000).build(profile: .parse).skip == 10_000)
        let d = diagnostics { () throws(Diagnostics) in try q.skip(10_001).build(profile: .parse) }
        #expect(d.map(\.parseCode) == [118])
    }

    @Test func backendlessPageSizeRunsFromOneToOneHundred() throws {
        #expect(try q.limit(100).build(profile: .backendless).limit == 100)
        #expect(codes(q.limit(101), .backendless) == ["json.limit"])
        #expect(codes(q.limit(0), .backendless) == ["json.limit"])
        // A count query may say limit 0, as the SDKs send it.
        #expect(try q.limit(0).buildCount(profile: .backendless).count)
    }

    @Test func innerQueryLimitsFollowTheInnerMaximum() throws {
        let inner = QueryBuilder("Post").limit(5000)
        let outer = q.where(Field("post").matchesQuery(inner))
        let d = diagnostics { () throws(Diagnostics) in try outer.build(profile: .parse) }
        #expect(d.map(\.parseCode) == [117])
        #expect(d.first?.path == "where.post.$inQuery.limit")
        let capped = try outer.build(profile: .leancloud)
        guard case .leaf(let l) = capped.predicate, case .inQuery(_, let innerQuery) = l.condition else {
            Issue.record("expected an inQuery leaf")
            return
        }
        #expect(innerQuery.limit == 1000)
        // Exact keeps what was asked.
        guard case .leaf(let e) = try outer.build(profile: .exact).predicate,
            case .inQuery(_, let exactInner) = e.condition
        else { return }
        #expect(exactInner.limit == 5000)
    }

    @Test func orSubqueriesMayNotShapeResults() {
        let ok = QueryBuilder("Player").where("wins" < 5)
        for (name, shaped) in [
            ("limit", ok.limit(1)), ("skip", ok.skip(1)), ("order", ok.order(.ascending("x"))),
            ("include", ok.include("post")), ("keys", ok.select("a")),
        ] {
            for profile in Profile.allCases {
                let d = diagnostics { () throws(Diagnostics) in try QueryBuilder.or(ok, shaped).build(profile: profile)
                }
                #expect(d.map(\.code) == ["json.compound-subquery"], "\(name) in \(profile)")
                #expect(d.first?.path == "where.$or[1].\(name)")
                #expect(d.first?.message.contains("'\(name)'") == true)
            }
        }
    }

    @Test func orSubqueriesMustShareTheClass() {
        let d = diagnostics { () throws(Diagnostics) in
            try QueryBuilder.or(QueryBuilder("Player"), QueryBuilder("Team")).build()
        }
        #expect(d.map(\.code) == ["json.compound-subquery"])
        #expect(d.first?.path == "where.$or[1].className")
    }

    @Test func geoInCompoundsIsRejectedOnlyInCompatibilityProfiles() throws {
        let near = Field("location").near(geo(39.9, 116.4))
        let query = q.where(near || "priority" == 1)
        #expect(
            try query.build(profile: .exact).predicate
                == .or([doc(.geo(.near("location", geo(39.9, 116.4), maxDistance: nil))), eq("priority", 1)]))
        for profile in [Profile.parse, .leancloud, .maxleap] {
            let d = diagnostics { () throws(Diagnostics) in try query.build(profile: profile) }
            #expect(d.map(\.code) == ["json.compound-geo"])
            #expect(d.first?.path == "where.$or[0].location.$nearSphere")
        }
        // Geo inside an inner query of an OR branch is fine: it is another query (T64).
        let users = QueryBuilder("_User").where(Field("location").near(geo(1, 1), within: Distance(1, .miles)))
        #expect(codes(q.where(Field("user").matchesQuery(users) || "x" == 1), .parse).isEmpty)
    }

    @Test func nearUnderOrOrdersNothing() throws {
        let query = try q.where(Field("location").near(geo(1, 1)) || "x" == 1).build()
        #expect(query.order.isEmpty)
    }

    @Test func parseCapsNearAtOneHundredMiles() throws {
        let near = q.where(Field("location").near(geo(37.7749, -122.4194)))
        #expect(
            try near.build(profile: .parse).predicate
                == doc(.geo(.near("location", geo(37.7749, -122.4194), maxDistance: Distance(100, .miles)))))
        #expect(
            try near.build(profile: .leancloud).predicate
                == doc(.geo(.near("location", geo(37.7749, -122.4194), maxDistance: nil))))
    }

    @Test func coordinateBounds() {
        func check(_ p: GeoPoint, _ profile: Profile) -> [String] {
            codes(q.where(Field("location").near(p)), profile)
        }
        // TC-50: beyond the range is an error everywhere.
        for profile in Profile.allCases { #expect(check(geo(90.5, 0), profile) == ["json.geo-range"]) }
        // The extremes themselves: accepted in LeanCloud and exact, rejected in Parse and MaxLeap.
        #expect(check(geo(90, 0), .leancloud).isEmpty)
        #expect(check(geo(90, 0), .exact).isEmpty)
        #expect(check(geo(90, 0), .parse) == ["json.geo-range"])
        #expect(check(geo(0, -180), .maxleap) == ["json.geo-range"])
        #expect(check(geo(0, -180), .leancloud).isEmpty)
        #expect(check(geo(.nan, 0), .exact) == ["json.geo-range"])
        // Equality with a geo point value is checked too.
        #expect(codes(q.where("location" == .geoPoint(geo(0, 181))), .exact) == ["json.geo-range"])
    }

    @Test func antimeridianBoxesAreRejected() {
        let crossing = q.where(Field("location").withinGeoBox(southwest: geo(0, 170), northeast: geo(10, -170)))
        let d = diagnostics { () throws(Diagnostics) in try crossing.build() }
        #expect(d.map(\.code) == ["json.geo-box"])
        #expect(d.first?.parseCode == 102)
        #expect(d.first?.path == "where.location.$within")
        let upsideDown = q.where(Field("location").withinGeoBox(southwest: geo(10, 0), northeast: geo(0, 10)))
        #expect(codes(upsideDown, .exact) == ["json.geo-box"])
    }

    @Test func leanCloudInvertedSelection() throws {
        let inverted = try q.select("-tags").build(profile: .leancloud)
        #expect(inverted.keys == nil)
        #expect(inverted.excludeKeys == ["tags"])
        let mixed = try q.select("title", "-pubUser.createdAt").build(profile: .leancloud)
        #expect(mixed.keys == ["title"])
        #expect(mixed.excludeKeys == ["pubUser.createdAt"])
        // Elsewhere "-tags" is not a key name (TC-10).
        #expect(codes(q.select("-tags"), .parse) == ["json.key-name"])
    }
}
