import Quarry
import QuarryParseREST
import QuarrySQL
import QuarryTestSupport
import Testing

@testable import QuarryCLI

/// The other literals `quarry bench` times a cached shape with: each text keeps its skeleton
/// (so the two share a text template) and is one the engine accepts, or there is no figure.
@Suite struct LiteralVariationTests {
    static let engine = Engine(database: SyntheticData(rows: 200).database())

    static func prepare(_ text: String) throws(Diagnostic) { _ = try engine.prepare(text, on: "Person") }

    static func variation(_ text: String) -> String? {
        LiteralVariation.preparedVariation(of: text) { t throws(Diagnostic) in try prepare(t) }
    }

    static func accepted(_ text: String) -> Bool { (try? prepare(text)) != nil }

    @Test func eachScanQueryHasAnAcceptedVariationOfItsSkeleton() throws {
        let texts = [
            "age > 50", "name IN ('Joe1', 'Bob2', 'Ann3') OR score < 1.5",
            "age BETWEEN 10 AND 20 AND NOT (score > 50) AND created > '2023-01-01T00:00:00.000Z'",
            "distance(3.228735, -96.967772, location.latitude, location.longitude) < km(100)",
            "Within(location, 'POLYGON((-97.2 3, -96.7 3, -96.7 3.5, -97.2 3.5, -97.2 3))') = TRUE",
        ]
        for text in texts {
            let found = Self.variation(text)
            let other = try #require(found, "\(text)")
            #expect(other != text)
            #expect(SQLSkeleton(other)?.key == SQLSkeleton(text)?.key, "\(other)")
            #expect(Self.accepted(other), "\(other)")
        }
    }

    /// Stepping a ring's last digit leaves it open, which the engine refuses: the variation
    /// steps the last digit of every number in the string instead, and the ring stays closed.
    @Test func aRingMovesEveryPoint() throws {
        let text = "Within(location, 'POLYGON((-97.2 3, -96.7 3, -96.7 3.5, -97.2 3.5, -97.2 3))') = TRUE"
        let open = try #require(LiteralVariation.vary(sqlText: text))
        #expect(!Self.accepted(open), "\(open)")
        #expect(
            Self.variation(text)
                == "Within(location, 'POLYGON((-98.3 4, -97.8 4, -97.8 4.6, -98.3 4.6, -98.3 4))') = TRUE")
    }

    /// Every Parse REST request of the benchmark has a variation the engine accepts, with the
    /// same skeleton: a box's corners move alike and stay in order (moved by different amounts,
    /// the integer south latitude passed the decimal north one, and the box was refused).
    @Test func eachRequestHasAnAcceptedVariationOfItsSkeleton() throws {
        let texts = [
            #"{"where":{"age":{"$gt":50}},"count":1}"#,
            #"{"where":{"name":{"$regex":"^J.n"}}}"#,
            #"{"where":{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":3.228735,"longitude":-96.967772},"$maxDistanceInKilometers":100}}}"#,
            #"{"where":{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":3,"longitude":-97.2},{"__type":"GeoPoint","latitude":3.5,"longitude":-96.7}]}}}}"#,
            #"{"where":{"tags":{"$all":["a1","b2"]},"age":{"$gte":10}}}"#,
        ]
        for text in texts {
            let found = LiteralVariation.preparedVariation(of: text, dialect: .json) { t throws(Diagnostic) in
                _ = try Self.engine.prepare(t, on: "Person", dialect: .json)
            }
            let other = try #require(found, "\(text)")
            #expect(other != text)
            #expect(JSONSkeleton(other)?.key == JSONSkeleton(text)?.key, "\(other)")
        }
        #expect(
            LiteralVariation.vary(jsonText: texts[3])
                == #"{"where":{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":4,"longitude":-96.2},{"__type":"GeoPoint","latitude":4.5,"longitude":-95.7}]}}}}"#
        )
    }

    @Test func noAcceptedVariationGivesNone() {
        let refused = LiteralVariation.preparedVariation(of: "name = 'a'") { _ throws(Diagnostic) in
            throw Diagnostic(.query.unknownClass, "refused")
        }
        #expect(refused == nil)
        #expect(Self.variation("name = 'a\u{0}'") == nil)
    }
}
