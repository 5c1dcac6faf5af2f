import Quarry
@testable import QuarrySQLite
import Testing
import QuarryTestSupport

@testable import QuarryCLI

/// The SQLite peer must return exactly what the reference evaluator returns: same objects,
/// same order, for every leaf kind under each of the three leaf semantics, negated or not.
@Suite struct SQLitePeerAgreementTests {
    static let fixture = PeerFixture()

    @Test(arguments: PeerCases.all, LeafSemantics.allCases)
    func agreesWithTheReferenceEvaluator(_ c: PeerCase, _ semantics: LeafSemantics) throws {
        for negated in [false, true] {
            let query = c.query(semantics, negated)
            let expected = try Self.fixture.reference(query)
            let actual = try Self.fixture.peer.prepare(query)
            #expect(try actual.objectIds() == expected, "\(c.name) \(semantics) negated: \(negated)\n\(actual.sql)")
        }
    }

    @Test func casesSelectSomethingAndNotEverything() throws {
        // A case matching nothing or everything would agree trivially.
        for c in PeerCases.all where !c.trivialAllowed {
            let n = try Self.fixture.reference(c.query(.sql, false)).count
            #expect(n > 0 && n < Self.fixture.personCount, "\(c.name) matches \(n)")
        }
    }

    @Test func countQueriesCountWithoutPaging() throws {
        var query = Query(
            className: "Person", predicate: .leaf(.compare(.key("age"), .gt, .literal(50), []), .sql),
            skip: 3, limit: 5, count: true)
        let prepared = try Self.fixture.peer.prepare(query)
        query.count = false
        query.skip = nil
        query.limit = nil
        #expect(try prepared.matchCount() == Self.fixture.reference(query).count)
        #expect(prepared.sql.hasPrefix("SELECT count(*)"))
    }

    @Test func aNotAboveAnSQLLeafIsLogicalNot() throws {
        // NOT (score < 50) holds for null scores; the leaf's own negation does not.
        let lt = Filter.leaf(.compare(.key("score"), .lt, .literal(50), []), .sql)
        for p in [Filter.not(lt), .not(.and([lt, .leaf(.compare(.key("age"), .gt, .literal(30), []), .sql)]))] {
            let query = Query(className: "Person", predicate: p)
            #expect(try Self.fixture.peer.prepare(query).objectIds() == Self.fixture.reference(query))
        }
    }
}

@Suite struct SQLitePeerRefusalTests {
    @Test(arguments: [
        (Filter.leaf(.text("label", TextSearch(terms: "joe")), .document), "text search"),
        (.leaf(.compare(.key("label"), .eq, .literal("émile"), .caseInsensitive), .sql), "non-ASCII"),
        (.leaf(.compare(.key("mixed"), .gt, .literal(1), []), .sql), "several types"),
        (.leaf(.compare(.arithmetic(.add, .key("n"), .literal(1)), .gt, .literal(2), []), .sql), "computed"),
        (.leaf(.quantified(.any, .key("nums"), variable: "x", .constant(true)), .predicate), "quantifiers"),
        (.leaf(.compare(.key("d"), .gt, .literal("31.02.2015 99"), []), .sql), "not a date"),
        (.leaf(.compare(.key("n"), .gt, .literal(.double(.nan)), []), .sql), "NaN"),
    ])
    func reportsWhyAQueryIsNotComparable(_ predicate: Filter, _ words: String) throws {
        let peer = try SQLitePeer(database: PeerFixture.edgeDatabase())
        guard case .failure(let reason) = peer.translate(Query(className: "Edge", predicate: predicate)) else {
            Issue.record("translated: \(predicate)")
            return
        }
        #expect(reason.reason.contains(words), "\(reason.reason)")
    }

    @Test func anUnknownClassIsNotComparable() throws {
        let peer = try SQLitePeer(database: PeerFixture.edgeDatabase())
        #expect(throws: SQLitePeerError.self) { try peer.prepare(Query(className: "Nope")) }
    }
}

@Suite struct SQLitePeerLoadingTests {
    @Test func columnKindsFollowTheValues() throws {
        let db = PeerFixture.edgeDatabase()
        let table = SQLiteTable(db["Edge"]!, in: db)
        #expect(table.kind("n") == .real)
        #expect(table.kind("label") == .text(ascii: false))
        #expect(table.kind("flag") == .bool)
        #expect(table.kind("d") == .date)
        #expect(table.kind("home") == .pointer(to: "City"))
        #expect(table.kind("friends") == .array(of: .pointer(to: "City")))
        #expect(table.kind("nums") == .array(of: .integer))
        #expect(table.kind("where") == .geoPoint)
        guard case .unsupported(let reason)? = table.kind("mixed") else {
            Issue.record("mixed is \(String(describing: table.kind("mixed")))")
            return
        }
        #expect(reason.contains("several types"))
        #expect(!table.columnDefinitions.contains { $0.hasPrefix("\"mixed\"") })
        #expect(table.columnDefinitions.contains("\"where_lat\" REAL"))
    }

    /// A pointer is its identity, loaded or not: e2's home names a city the data leaves out,
    /// so it is not null, equals that pointer and has its objectId, but no name through it.
    @Test func danglingPointersAreStoredWithTheirIds() throws {
        let peer = try SQLitePeer(database: PeerFixture.edgeDatabase())
        let reference = ReferenceEvaluator(database: PeerFixture.edgeDatabase())
        let queries: [(Filter, Bool)] = [
            (.leaf(.isNull(.key("home")), .sql), false),
            (.leaf(.isNull(.key("home")), negated: true, .document), true),
            (.leaf(.compare(.key("home.objectId"), .eq, .literal("c999"), []), .sql), true),
            (.leaf(.isNull(.key("home.name")), .sql), true),
        ]
        for (predicate, hasE2) in queries {
            let query = Query(className: "Edge", predicate: predicate)
            let ids = try peer.prepare(query).objectIds()
            #expect(ids == (try reference.run(query).objectIds), "\(predicate)")
            #expect(ids.contains("e2") == hasE2, "\(predicate)")
        }
    }

    @Test func indexesMatchQuarrysIndexes() throws {
        let peer = try SQLitePeer(database: PeerFixture.edgeDatabase())
        #expect(try peer.createIndex(on: "n", in: "Edge") == nil)
        #expect(try peer.createIndex(on: "where", in: "Edge") == nil)
        #expect(try peer.createIndex(on: "nums", in: "Edge")?.contains("JSON array") == true)
        #expect(try peer.createIndex(on: "home.name", in: "Edge")?.contains("pointer") == true)
        #expect(try peer.createIndex(on: "mixed", in: "Edge")?.contains("not loaded") == true)
        #expect(try peer.createIndex(on: "nothing", in: "Edge")?.contains("no field") == true)
        let plan = try peer.connection.prepare(
            "EXPLAIN QUERY PLAN SELECT objectId FROM \"Edge\" WHERE \"where_lat\" BETWEEN 1 AND 2")
        #expect(try plan.step())
        #expect(plan.text(3)?.contains("idx_Edge_where") == true)
    }

    @Test func memoryIsCounted() throws {
        let peer = try SQLitePeer(database: SyntheticData(rows: 500).database())
        #expect(peer.bytesUsed > 500 * 50)
    }
}

@Suite struct LikeTranslationTests {
    @Test(arguments: [
        ("J%", LikeSyntax.sql(escape: nil), "J*", "J%"),
        ("a_b", .sql(escape: nil), "a?b", "a_b"),
        ("100!%*?[", .sql(escape: "!"), "100%[*][?][[]", "100\\%*?["),
        ("x\\", .sql(escape: "\\"), "x\\", "x\\\\"),
        ("a*b?c\\*", .glob, "a*b?c[*]", "a%b_c*"),
        ("50%_\\", .glob, "50%_\\", "50\\%\\_\\\\"),
    ])
    func patternsAreRewrittenForSQLite(_ pattern: String, _ syntax: LikeSyntax, _ glob: String, _ like: String) {
        let tokens = LikeToken.parse(pattern, syntax)
        #expect(LikeToken.glob(tokens) == glob)
        #expect(LikeToken.like(tokens) == like)
    }
}
