import QuarryCore
@testable import QuarryParseREST
import Testing

/// LeanCloud's `$minDistance` (radians, beside `$nearSphere`; its Python SDK's `within_kilometers`
/// with a minimum sends it): a distance condition in the leancloud profile, refused in the parse
/// profile as parse-server refuses it.
@Suite struct MinDistanceTests {
    static let text =
        #"{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":37.7749,"longitude":-122.4194},"$maxDistance":0.5,"$minDistance":0.01}}"#

    @Test func leanCloudKeepsPointsAtLeastThatFar() throws {
        let sf = geo(37.7749, -122.4194)
        let query = try ParseWhere.parse(Self.text, className: "T", profile: .leancloud)
        #expect(
            query.predicate
                == .and([
                    doc(.geo(.near("l", sf, maxDistance: Distance(0.5, .radians)))),
                    doc(.geo(.distance("l", from: sf, .ge, Distance(0.01, .radians)))),
                ]))
        #expect(query.order == [.distance("l", from: sf, .ascending)])
    }

    @Test func theParseProfileRefusesIt() {
        let d = diagnostics { () throws(Diagnostics) in try ParseWhere.parse(Self.text, className: "T", profile: .parse)
        }
        #expect(d.map(\.message) == ["$minDistance is LeanCloud's; the parse profile does not accept it"])
        #expect(d.map(\.path) == ["where.l.$minDistance"])
    }

    @Test func itNeedsNearSphereAndANumber() {
        let alone = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(#"{"l":{"$minDistance":0.1}}"#, className: "T", profile: .leancloud)
        }
        #expect(alone.map(\.message) == ["$minDistance limits $nearSphere, which is missing"])
        let word = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(
                #"{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2},"$minDistance":"far"}}"#,
                className: "T", profile: .leancloud)
        }
        #expect(word.map(\.message) == ["$minDistance takes a number (radians)"])
        let negative = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(
                #"{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":2},"$minDistance":-1}}"#,
                className: "T", profile: .leancloud)
        }
        #expect(negative.map(\.message) == ["a distance must be a non-negative number, not -1.0"])
    }
}
