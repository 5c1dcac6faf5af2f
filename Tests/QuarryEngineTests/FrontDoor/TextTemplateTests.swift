import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// `Engine.compile` with text templates (docs/ARCHITECTURE.md#text-templates): a SQL text whose
/// skeleton was compiled before gives exactly what the full compile gives — the same query, the
/// same leaf ranges, the same literals bit for bit, or the same located error.
@Suite struct TextTemplateTests {
    static let data = SyntheticData(rows: 40, seed: 9)

    /// The outcome of a compile, everything in it compared: the query as JSON (leaf ranges and
    /// the kind of every literal included) or the error's code, range and message.
    static func outcome(_ compile: () throws(Diagnostic) -> Query) -> String {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return String(decoding: try encoder.encode(try compile()), as: UTF8.self)
        } catch let error as Diagnostic {
            return "error \(error.code) \(String(describing: error.range)) \(error.message)"
        } catch {
            return "unexpected \(error)"
        }
    }

    static func full(_ engine: Engine, _ text: String, on className: String = "Person") -> String {
        outcome { () throws(Diagnostic) in
            try Dialect.sql.compile(
                text, className: className, options: CompileOptions(schema: engine.schema, limits: engine.limits))
        }
    }

    static func viaEngine(_ engine: Engine, _ text: String, on className: String = "Person") -> String {
        outcome { () throws(Diagnostic) in try engine.compile(text, on: className) }
    }

    /// Compiles `first` twice (the second compile makes the template), then `second`; the
    /// outcome of `second` and whether it came from a template.
    static func afterTemplate(_ engine: Engine, _ first: String, _ second: String) -> (String, Bool) {
        _ = viaEngine(engine, first)
        _ = viaEngine(engine, first)
        let hits = engine.textTemplates.hitCount
        let out = viaEngine(engine, second)
        return (out, engine.textTemplates.hitCount > hits)
    }

    @Test func newLiteralsComeFromTheTemplateWithTheirOwnRanges() {
        let engine = Engine(database: Self.data.database())
        let cases = [
            ("age > 50", "age > 7"),
            ("age > 50 AND name LIKE 'J%'", "age > 1234 AND name LIKE 'Ol''iver%'"),
            ("name IN ('Joe1', 'Bob2', 'Ann3') OR score < 1.5", "name IN ('é', '', 'x') OR score < 0.25"),
            (
                "age BETWEEN 10 AND 20 AND NOT (score > 50) AND created > '2023-01-01T00:00:00.000Z'",
                "age BETWEEN 5 AND 9223372036854775807 AND NOT (score > 7) AND created > '23-Mar-2015'"
            ),
            ("created after 1700000000000", "created after 1"),
            ("city.objectId IN (City[country = 'BR'].objectId)", "city.objectId IN (City[country = 'FR'].objectId)"),
            (
                "distance(3.228735, -96.967772, location.latitude, location.longitude) < km(100)",
                "distance(90.0, -180.0, location.latitude, location.longitude) < km(0)"
            ),
            (
                "distance(3, -96, location.latitude, location.longitude) >= mi(-2.5)",
                "distance(89, -180, location.latitude, location.longitude) >= mi(-0.125)"
            ),
            (
                "Within(location, 'POLYGON((-97.2 3, -96.7 3, -96.7 3.5, -97.2 3.5, -97.2 3))') = TRUE",
                "Within(location, 'POLYGON((10 20,11 20,  11 21,10 20))') = TRUE"
            ),
        ]
        for (first, second) in cases {
            let (out, hit) = Self.afterTemplate(engine, first, second)
            #expect(hit, "\(second) did not come from a template")
            #expect(out == Self.full(engine, second), "\(second)")
            #expect(!out.hasPrefix("error"), "\(second): \(out)")
        }
    }

    @Test func valuesTheFullCompileMustJudgeGetItsLocatedErrors() {
        let engine = Engine(database: Self.data.database())
        let cases = [
            ("created > '2023-01-01T00:00:00.000Z'", "created > 'not a date'", "date.unparseable"),
            // The canonical shape with a field out of range: read by no pattern either.
            ("created > '2023-01-01T00:00:00.000Z'", "created > '2023-13-01T00:00:00.000Z'", "date.unparseable"),
            ("created > '2023-01-01T00:00:00.000Z'", "created > '2023-02-29T24:00:00.000Z'", "date.unparseable"),
            ("age > 5", "age > 9223372036854775808", "lex.number-out-of-range"),
            ("age > 5", "age > 18446744073709551616", "lex.number-out-of-range"),
            ("score > 1.5", "score > 1e999", "lex.number-out-of-range"),
            ("name LIKE 'a!%' ESCAPE '!'", "name LIKE 'ab!' ESCAPE '!'", "like.trailing-escape"),
            (
                "distance(3.2, -96.9, location.latitude, location.longitude) < km(100)",
                "distance(95.5, -96.9, location.latitude, location.longitude) < km(100)", "geo.invalid-coordinate"
            ),
            (
                "distance(3.2, -96.9, location.latitude, location.longitude) < km(100)",
                "distance(3.2, -180.5, location.latitude, location.longitude) < km(100)", "geo.invalid-coordinate"
            ),
            (
                "distance(3, -96, location.latitude, location.longitude) < km(100)",
                "distance(91, -96, location.latitude, location.longitude) < km(100)", "geo.invalid-coordinate"
            ),
            (
                "distance(3.2, -96.9, location.latitude, location.longitude) < km(100)",
                "distance(3.2, -96.9, location.latitude, location.longitude) < km(1e999)", "lex.number-out-of-range"
            ),
            (
                "Within(location, 'POLYGON((0 0, 1 0, 1 1, 0 0))') = TRUE",
                "Within(location, 'POLYGON((0 0, 1 0, 1 1, 0 2))') = TRUE", "geo.invalid-wkt"
            ),
            (
                "Within(location, 'POLYGON((0 0, 1 0, 1 1, 0 0))') = TRUE",
                "Within(location, 'POLYGON((0 0, 1 0, 1 91, 0 0))') = TRUE", "geo.invalid-coordinate"
            ),
            ("name = 'a'", "name = 'a\u{0}'", "input.nul"),
        ]
        for (first, second, code) in cases {
            let (out, hit) = Self.afterTemplate(engine, first, second)
            #expect(!hit, "\(second) came from a template")
            #expect(out == Self.full(engine, second), "\(second)")
            #expect(out.hasPrefix("error \(code) "), "\(second): \(out)")
        }
        // The smallest Int64 is written past Int64.max: the full compile reads it.
        let (out, hit) = Self.afterTemplate(engine, "age > -5", "age > -9223372036854775808")
        #expect(!hit)
        #expect(out == Self.full(engine, "age > -9223372036854775808") && !out.hasPrefix("error"))
    }

    @Test func aTextOverTheLengthLimitIsRefusedAsBefore() {
        var limits = Limits.default
        limits.maxQueryLength = 40
        let engine = Engine(database: Self.data.database(), limits: limits)
        let long = "name = '" + String(repeating: "x", count: 40) + "'"
        let (out, _) = Self.afterTemplate(engine, "name = 'a'", long)
        #expect(out.hasPrefix("error limit.query-length "), "\(out)")
    }

    /// A field an insert adds can change what a name resolves to: templates of the schema
    /// before are not used after.
    @Test func aSchemaChangeRetiresTheTemplates() throws {
        let engine = Engine(database: Self.data.database())
        let (before, hit) = Self.afterTemplate(engine, "AGE > 5", "AGE > 6")
        #expect(hit && before.contains(#""age""#), "\(before)")
        _ = try engine.insert(json: #"{"objectId": "new1", "AGE": 3}"#, into: "Person")
        let after = Self.viaEngine(engine, "AGE > 7")
        #expect(after == Self.full(engine, "AGE > 7"))
        #expect(after != before && after.contains(#""AGE""#), "\(after)")
    }

    /// A skeleton noted again after a schema change starts over, and its bytes count once
    /// towards the 4 MB the templates may hold.
    @Test func aSkeletonNotedForANewSchemaCountsOnce() {
        let templates = TextTemplates()
        let key = TextTemplates.Key(
            dialect: "sql", className: "Person", profile: .exact, skeleton: Array(repeating: 0x61, count: 100))
        #expect(!templates.compiled(key, generation: 0))
        #expect(templates.compiled(key, generation: 0))
        #expect(!templates.compiled(key, generation: 1))
        #expect(!templates.compiled(key, generation: 2))
        #expect(templates.skeletonBytes == 100)
    }

    /// Random where clauses, each compiled twice, then again with every literal swapped for
    /// another of its kind, hostile ones included: the engine's compile equals the full one
    /// every time, and most of the second compiles come from a template.
    @Test func randomTextsAgreeWithTheFullCompile() throws {
        let engine = Engine(database: Self.data.database())
        var compared = 0, hits = 0
        for (text, other) in ClauseText.pairs(
            seed: 77, count: 1500, keeping: { !Self.full(engine, $0).hasPrefix("error") })
        {
            let (out, hit) = Self.afterTemplate(engine, text, other)
            #expect(out == Self.full(engine, other), "\(text) → \(other)")
            compared += 1
            if hit { hits += 1 }
        }
        #expect(compared > 1000)
        #expect(hits * 2 > compared, "only \(hits) of \(compared) from a template")
    }

    /// The result of a run, every record compared, or the error's code, range and message.
    static func answer(_ run: () throws(Diagnostic) -> [Record]) -> String {
        do throws(Diagnostic) {
            return try run().map { r in
                "\(r.objectId) "
                    + r.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }.joined(separator: "\n")
        } catch {
            return "error \(error.code) \(String(describing: error.range)) \(error.message)"
        }
    }

    /// A text compiled from a template takes its plan shape from the template too
    /// (`TemplateShape`): random texts prepared and found with new literals give what running
    /// their full compile gives, and most of them had their shape from the template. (Debug
    /// builds also check each such shape against the one found from the query.)
    @Test func textsPlannedWithTheirTemplatesShapeAnswerAsTheFullCompile() throws {
        let engine = Engine(database: Self.data.database())
        let reference = ReferenceEvaluator(database: Self.data.database())
        var compared = 0, refused = 0
        for (text, other) in ClauseText.pairs(seed: 78, count: 800, keeping: { _ in true }) {
            _ = try? engine.prepare(text, on: "Person")
            _ = try? engine.prepare(text, on: "Person")
            let full = Self.full(engine, other)
            guard
                let query = try? Dialect.sql.compile(
                    other, className: "Person", options: CompileOptions(schema: engine.schema))
            else {
                // A value the full compile refuses is refused by prepare with the same located error.
                let prepared = Self.outcome { () throws(Diagnostic) in try engine.prepare(other, on: "Person").query }
                #expect(prepared == full, "\(text) → \(other)")
                refused += 1
                continue
            }
            let expected = Self.answer { () throws(Diagnostic) in try reference.run(query).records }
            let prepared = Self.answer { () throws(Diagnostic) in
                try engine.prepare(other, on: "Person").run().records
            }
            let found = Self.answer { () throws(Diagnostic) in try engine.find("Person", where: other) }
            #expect(prepared == expected, "\(text) → \(other)")
            #expect(found == expected, "\(text) → \(other)")
            compared += 1
        }
        #expect(compared > 400)
        #expect(refused > 50, "only \(refused) texts with a refused value")
        #expect(
            engine.textTemplates.shapedHitCount * 2 > engine.textTemplates.hitCount,
            "\(engine.textTemplates.shapedHitCount) of \(engine.textTemplates.hitCount) template hits had a shape")
        #expect(engine.textTemplates.shapedHitCount > 300)
    }
}

/// Where clauses over SyntheticData's Person and City.
private struct ClauseText {
    let ints = ["0", "5", "42", "-7", "1700000000000"]
    let decimals = ["1.5", "-2.25", "1e3", "0.0"]
    let strings = ["'J%'", "'O''Brien'", "'é'", "''", "'%an%'", "'a1'", "'Paris3'"]
    let dates = ["'2023-01-01T00:00:00.000Z'", "'23-Mar-2015'", "'03/23/2015'"]
    let ops = ["=", "!=", "<>", "<", "<=", ">", ">="]
    let polygons = [
        "'POLYGON((-97.2 3, -96.7 3, -96.7 3.5, -97.2 3.5, -97.2 3))'",
        "'POLYGON((-180 -90, 180 -90, 0 90, -180 -90))'",
    ]

    mutating func clause(_ r: inout SplitMix64, depth: Int = 0) -> String {
        switch r.int(0...9) {
        case 0 where depth < 2:
            return "(\(clause(&r, depth: depth + 1)) \(r.pick(["AND", "OR", "and"])) \(clause(&r, depth: depth + 1)))"
        case 1 where depth < 2:
            return "NOT \(clause(&r, depth: depth + 1))"
        default:
            return leaf(&r)
        }
    }

    func leaf(_ r: inout SplitMix64) -> String {
        switch r.int(0...15) {
        case 0: return "age \(r.pick(ops)) \(r.pick(ints))"
        case 1: return "\(r.pick(ints)) \(r.pick(ops)) age"
        case 2: return "score \(r.pick(ops)) \(r.pick(decimals + ints))"
        case 3: return "age \(r.chance(0.3) ? "NOT " : "")BETWEEN \(r.pick(ints)) AND \(r.pick(ints))"
        case 4: return "age IN (\(r.pick(ints)), \(r.pick(ints)), \(r.pick(ints)))"
        case 5: return "name \(r.pick(ops)) \(r.pick(strings))"
        case 6: return "name \(r.chance(0.3) ? "NOT " : "")LIKE \(r.pick(strings))"
        case 7: return "name LIKE 'a!%\(r.pick(["", "b", "%"]))' ESCAPE '!'"
        case 8: return "name IN (\(r.pick(strings)), \(r.pick(strings)))"
        case 9: return "created \(r.pick(ops + ["after", "before", "at or after"])) \(r.pick(dates + ints))"
        case 10: return "created BETWEEN \(r.pick(dates)) AND \(r.pick(dates))"
        case 11:
            return
                "distance(\(r.pick(["3.2", "-10", "45.5"])), -96.9, location.latitude, location.longitude) < km(\(r.pick(ints.filter { !$0.hasPrefix("-") })))"
        case 12: return "city.population \(r.pick(ops)) \(r.pick(ints))"
        case 13: return "city.objectId IN (City[country = \(r.pick(["'BR'", "'FR'", "'US'"]))].objectId)"
        case 14 where r.chance(0.5):
            return "Within(location, \(r.pick(polygons))) = \(r.pick(["TRUE", "FALSE"]))"
        case 14: return "tags = \(r.pick(strings))"
        default: return "name IS \(r.chance(0.5) ? "NOT " : "")NULL AND objectId != \(r.pick(strings))"
        }
    }

    /// `count` random clauses, those `keeping` keeps that have a skeleton, each with the same
    /// clause's literals swapped for others of their kind.
    static func pairs(seed: UInt64, count: Int, keeping: (String) -> Bool) -> [(String, String)] {
        var random = SplitMix64(seed: seed)
        var generator = ClauseText()
        var out: [(String, String)] = []
        for _ in 0..<count {
            let text = generator.clause(&random)
            guard keeping(text), let skeleton = SQLSkeleton(text) else { continue }
            out.append((text, swapLiterals(text, skeleton, &random)))
        }
        return out
    }

    /// The text with each literal token replaced by another of the same kind.
    static func swapLiterals(_ text: String, _ skeleton: SQLSkeleton, _ r: inout SplitMix64) -> String {
        let ints = [
            "0", "1", "99", "007", "9223372036854775807", "9223372036854775808", "18446744073709551615",
            "18446744073709551616", "1700000000001",
        ]
        let decimals = ["0.5", "3.0", "2.5e-3", "1e308", "1e309", "-0.0"]
        let strings = [
            "'a'", "'x''y'", "'%'", "''", "'ab!'", "'2024-02-29T12:00:00.000Z'", "'31-Feb-2015'", "'not a date'",
            "'ü'", "'--; DROP TABLE x'", "'\u{1F600}'", "'" + String(repeating: "z", count: 3000) + "'",
            "'POLYGON((-100 0, -90 0, -90 10, -100 0))'", "'POLYGON((0 0, 1 1, 0 0))'",
            "'POLYGON((0 0, 1 0, 1 1, 2 2))'",
        ]
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var copied = 0
        for l in skeleton.literals {
            out += bytes[copied..<l.start]
            let pool =
                switch l.kind {
                case .string: strings
                case .integer: ints
                case .decimal: decimals.filter { !$0.hasPrefix("-") }
                }
            out += Array(r.pick(pool).utf8)
            copied = l.end
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}
