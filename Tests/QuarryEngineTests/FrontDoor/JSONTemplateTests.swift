import Foundation
import Quarry
import QuarryTestSupport
import Testing

/// `Engine.compile` with text templates of the JSON dialect (docs/ARCHITECTURE.md#text-templates):
/// a where object or find body whose skeleton was compiled before gives exactly what the full
/// compile gives — the same query, the same leaf ranges, the same literals bit for bit, or the
/// same located error.
@Suite struct JSONTemplateTests {
    static let data = SyntheticData(rows: 40, seed: 9)

    static func full(_ engine: Engine, _ text: String) -> String {
        TextTemplateTests.outcome { () throws(Diagnostic) in
            try Dialect.json.compile(
                text, className: "Person", options: CompileOptions(schema: engine.schema, limits: engine.limits))
        }
    }

    static func viaEngine(_ engine: Engine, _ text: String) -> String {
        TextTemplateTests.outcome { () throws(Diagnostic) in try engine.compile(text, on: "Person", dialect: .json) }
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
            (#"{"where":{"age":{"$gt":50}},"count":1}"#, #"{"where":{"age":{"$gt":-1234567}},"count":1}"#),
            (
                #"{"where":{"age":{"$gt":30}},"order":"-score","limit":20}"#,
                #"{"where":{"age":{"$gt":7}},"order":"-score","limit":20}"#
            ),
            (#"{"where":{"name":{"$regex":"^J.n"}}}"#, #"{"where":{"name":{"$regex":"(é|ü)+$"}}}"#),
            (
                #"{"where":{"name":{"$regex":"an","$options":"i"}}}"#,
                #"{"where":{"name":{"$regex":"日本","$options":"i"}}}"#
            ),
            (
                #"{"where":{"tags":{"$all":["a1","b2"]},"age":{"$gte":10}}}"#,
                #"{"where":{"tags":{"$all":["","x y"]},"age":{"$gte":0}}}"#
            ),
            (
                #"{"where":{"city":{"$inQuery":{"className":"City","where":{"population":{"$gt":5000000}}}}}}"#,
                #"{"where":{"city":{"$inQuery":{"className":"City","where":{"population":{"$gt":1}}}}}}"#
            ),
            (
                #"{"where":{"$or":[{"name":{"$in":["Joe1","Bob2","Ann3"]}},{"score":{"$lt":1.5}}]}}"#,
                #"{"where":{"$or":[{"name":{"$in":["é","","'; DROP TABLE x; --"]}},{"score":{"$lt":-0.125}}]}}"#
            ),
            (#"{"name": "Joe1", "score": {"$ne": 2.5}}"#, #"{"name": "\#u{1F600}", "score": {"$ne": 1234.0625}}"#),
            (#"{"age": {"$nin": [1, 2]}, "tags": "a1"}"#, #"{"age": {"$nin": [-3, 9223372036854775]}, "tags": ""}"#),
            // A geo condition's coordinates and distances (a token keeps its kind: an integer
            // for an integer, read as a double).
            (Self.box("3", "-97.2", "3.5", "-96.7"), Self.box("-89", "-179.5", "12.25", "100.5")),
            (
                Self.near("3.228735", "-96.967772", "$maxDistanceInKilometers", "100"),
                Self.near("3.228735", "-96.967772", "$maxDistanceInKilometers", "25")
            ),
            // A `$nearSphere` center, which is also the order's.
            (
                Self.near("3.228735", "-96.967772", "$maxDistanceInKilometers", "100"),
                Self.near("-45.5", "170.25", "$maxDistanceInKilometers", "100")
            ),
            (
                #"{"location": {"$geoWithin": {"$centerSphere": [[-96.9, 3.2], 0.01]}}, "age": {"$gt": 5}}"#,
                #"{"location": {"$geoWithin": {"$centerSphere": [[170.5, -45.5], 1.5]}}, "age": {"$gt": 6}}"#
            ),
        ]
        for (first, second) in cases {
            let (out, hit) = Self.afterTemplate(engine, first, second)
            #expect(hit, "\(second) did not come from a template")
            #expect(out == Self.full(engine, second), "\(second)")
            #expect(!out.hasPrefix("error"), "\(second): \(out)")
        }
    }

    static func box(_ south: String, _ west: String, _ north: String, _ east: String) -> String {
        #"{"where":{"location":{"$within":{"$box":[{"__type":"GeoPoint","latitude":\#(south),"longitude":\#(west)},"#
            + #"{"__type":"GeoPoint","latitude":\#(north),"longitude":\#(east)}]}}}}"#
    }

    static func near(_ latitude: String, _ longitude: String, _ unit: String, _ distance: String) -> String {
        #"{"where":{"location":{"$nearSphere":{"__type":"GeoPoint","latitude":\#(latitude),"#
            + #""longitude":\#(longitude)},"\#(unit)":\#(distance)}}}"#
    }

    /// A value the JSON reader judges or reads otherwise (an escape, `-0`, an integer it makes
    /// a double), and any token that is not a parameter and changed, go to the full compile:
    /// the same query or the same located error.
    @Test func valuesTheFullCompileMustJudgeAreCompiledInFull() {
        let engine = Engine(database: Self.data.database())
        let cases: [(String, String, String?)] = [
            (#"{"name": "a"}"#, #"{"name": "\u0041\n"}"#, nil),
            (#"{"name": "a"}"#, #"{"name": "\ud800"}"#, "json.string"),
            (#"{"name": "a"}"#, #"{"name": "\q"}"#, "json.string"),
            (#"{"name": "a"}"#, "{\"name\": \"a\u{1}\"}", "json.string"),
            (#"{"name": "a"}"#, "{\"name\": \"a\u{0}\"}", "input.nul"),
            (#"{"age": 5}"#, #"{"age": -0}"#, nil),
            (#"{"age": 5}"#, #"{"age": 9223372036854775808}"#, nil),
            (#"{"age": 5}"#, #"{"age": 123456789012345678901234}"#, nil),
            (#"{"age": 5}"#, #"{"age": 007}"#, "json.number"),
            (#"{"score": 1.5}"#, #"{"score": 1e999}"#, "json.number"),
            (#"{"score": 1.5}"#, #"{"score": 1.5e2}"#, nil),
            (#"{"where":{"age":5},"limit":20}"#, #"{"where":{"age":5},"limit":-20}"#, "json.limit"),
            (
                #"{"where":{"name":{"$regex":"an","$options":"i"}}}"#,
                #"{"where":{"name":{"$regex":"an","$options":"q"}}}"#, "json.regex-options"
            ),
            (#"{"where":{"name":{"$regex":"an"}}}"#, #"{"where":{"name":{"$regex":"^\\Qab\\E"}}}"#, nil),
            (
                #"{"created": {"$gt": {"__type": "Date", "iso": "2023-01-01T00:00:00.000Z"}}}"#,
                #"{"created": {"$gt": {"__type": "Date", "iso": "not a date"}}}"#, "json.value"
            ),
            // New geo values the lowering refuses: out of range, a box's corners out of order,
            // a negative distance.
            (Self.box("3", "-97", "3.5", "-96.7"), Self.box("91", "-97", "3.5", "-96.7"), "json.geo-range"),
            (Self.box("3", "-97", "3.5", "-96.7"), Self.box("3", "-97", "3.5", "180.5"), "json.geo-range"),
            (Self.box("3", "-97", "3.5", "-96.7"), Self.box("3", "-97", "3.5", "-97.5"), "json.geo-box"),
            (Self.box("3", "-97", "3.5", "-96.7"), Self.box("4", "-97", "3.5", "-96.7"), "json.geo-box"),
            (
                Self.near("3.2", "-96.9", "$maxDistanceInKilometers", "100"),
                Self.near("3.2", "-96.9", "$maxDistanceInKilometers", "-100"), "json.operand"
            ),
            (
                Self.near("3.2", "-96.9", "$maxDistanceInKilometers", "100"),
                Self.near("90.5", "-96.9", "$maxDistanceInKilometers", "100"), "json.geo-range"
            ),
        ]
        for (first, second, code) in cases {
            let (out, hit) = Self.afterTemplate(engine, first, second)
            #expect(!hit, "\(second) came from a template")
            #expect(out == Self.full(engine, second), "\(second)")
            if let code {
                #expect(out.hasPrefix("error \(code) "), "\(second): \(out)")
            } else {
                #expect(!out.hasPrefix("error"), "\(second): \(out)")
            }
        }
    }

    /// A coordinate on the extreme itself is refused by the Parse and MaxLeap profiles only: a
    /// template of each profile judges a new geo value by its own profile's rules.
    @Test func newGeoValuesAreJudgedByTheTemplatesProfile() {
        let engine = Engine(database: Self.data.database())
        let first = Self.box("3", "-97", "3.5", "-96.7")
        let extreme = Self.box("-90", "-180", "3.5", "-96.7")
        for profile in [Profile.exact, .parse, .leancloud, .maxleap] {
            func compile(_ text: String) -> String {
                TextTemplateTests.outcome { () throws(Diagnostic) in
                    try engine.compile(text, on: "Person", dialect: .json, profile: profile)
                }
            }
            _ = compile(first)
            _ = compile(first)
            let hits = engine.textTemplates.hitCount
            let out = compile(extreme)
            let full = TextTemplateTests.outcome { () throws(Diagnostic) in
                try Dialect.json.compile(
                    extreme, className: "Person",
                    options: CompileOptions(schema: engine.schema, profile: profile, limits: engine.limits))
            }
            #expect(out == full, "\(profile)")
            let refused = profile == .parse || profile == .maxleap
            #expect(out.hasPrefix("error json.geo-range ") == refused, "\(profile): \(out)")
            #expect((engine.textTemplates.hitCount > hits) == !refused, "\(profile)")
        }
    }

    /// Random where objects and find bodies, each compiled twice, then again with every value
    /// token swapped for another of its kind, hostile ones included: the engine's compile
    /// equals the full one every time, and many of the second compiles come from a template.
    @Test func randomTextsAgreeWithTheFullCompile() {
        let engine = Engine(database: Self.data.database())
        var compared = 0, hits = 0
        for (text, other) in RequestText.pairs(
            seed: 91, count: 1500, keeping: { !Self.full(engine, $0).hasPrefix("error") })
        {
            let (out, hit) = Self.afterTemplate(engine, text, other)
            #expect(out == Self.full(engine, other), "\(text) → \(other)")
            compared += 1
            if hit { hits += 1 }
        }
        #expect(compared > 1000)
        // Most swaps put a hostile value in or change a token that is not a parameter.
        #expect(hits > 250, "only \(hits) of \(compared) from a template")
    }

    /// Texts prepared and found with new literals (their plan shape from the template where it
    /// gives one) answer as running their full compile does, a refused value with the same
    /// located error.
    @Test func textsPreparedFromTemplatesAnswerAsTheFullCompile() throws {
        let engine = Engine(database: Self.data.database())
        let reference = ReferenceEvaluator(database: Self.data.database())
        var compared = 0
        for (text, other) in RequestText.pairs(seed: 92, count: 600, keeping: { _ in true }) {
            _ = try? engine.prepare(text, on: "Person", dialect: .json)
            _ = try? engine.prepare(text, on: "Person", dialect: .json)
            let expected: String
            do {
                let query = try Dialect.json.compile(
                    other, className: "Person", options: CompileOptions(schema: engine.schema))
                expected = TextTemplateTests.answer { () throws(Diagnostic) in try reference.run(query).records }
            } catch {
                expected = "error \(error.code) \(String(describing: error.range)) \(error.message)"
            }
            let prepared = TextTemplateTests.answer { () throws(Diagnostic) in
                try engine.prepare(other, on: "Person", dialect: .json).run().records
            }
            let found = TextTemplateTests.answer { () throws(Diagnostic) in
                try engine.find("Person", where: other, dialect: .json)
            }
            #expect(prepared == expected, "\(text) → \(other)")
            #expect(found == expected, "\(text) → \(other)")
            compared += 1
        }
        #expect(compared > 400)
        #expect(engine.textTemplates.hitCount > 300)
        #expect(engine.textTemplates.shapedHitCount > 150)
    }
}

/// Parse REST where objects and find bodies over SyntheticData's Person and City.
private struct RequestText {
    static let ints = ["0", "5", "42", "-7", "1700000000000"]
    static let decimals = ["1.5", "-2.25", "0.0", "3.0"]
    static let strings = [#""J""#, #""a1""#, #""""#, #""é""#, #""O'Brien""#, #""^J.n""#, #""an""#, #""Joe1""#]
    static let ops = ["$gt", "$gte", "$lt", "$lte", "$ne", "$eq"]

    static let coordinates = ["3", "-97.2", "3.5", "-96.7", "0", "89.5", "-180", "45.25"]

    static func point(_ r: inout SplitMix64) -> String {
        #"{"__type": "GeoPoint", "latitude": \#(r.pick(coordinates)), "longitude": \#(r.pick(coordinates))}"#
    }

    static func leaf(_ r: inout SplitMix64) -> String {
        switch r.int(0...15) {
        case 0: return #""age": {"\#(r.pick(ops))": \#(r.pick(ints))}"#
        case 1: return #""age": \#(r.pick(ints))"#
        case 2: return #""score": {"\#(r.pick(ops))": \#(r.pick(decimals + ints))}"#
        case 3: return #""name": \#(r.pick(strings))"#
        case 4: return #""name": {"\#(r.pick(["$in", "$nin"]))": [\#(r.pick(strings)), \#(r.pick(strings))]}"#
        case 5: return #""tags": {"\#(r.pick(["$all", "$in"]))": [\#(r.pick(strings))]}"#
        case 6: return #""name": {"$regex": \#(r.pick(strings))\#(r.chance(0.3) ? #", "$options": "i""# : "")}"#
        case 7:
            return
                #""city": {"$inQuery": {"className": "City", "where": {"population": {"$gt": \#(r.pick(ints))}}}}"#
        case 8:
            return
                #""created": {"\#(r.pick(ops))": {"__type": "Date", "iso": "2023-01-0\#(r.int(1...9))T00:00:00.000Z"}}"#
        case 9: return #""name": {"$exists": \#(r.pick(["true", "false"]))}, "tags": \#(r.pick(strings))"#
        case 10: return #""age": {"$in": [\#(r.pick(ints)), \#(r.pick(ints))]}"#
        case 12:
            return #""location": {"$within": {"$box": [\#(point(&r)), \#(point(&r))]}}"#
        case 13:
            return #""location": {"$nearSphere": \#(point(&r)), "$maxDistanceInKilometers": \#(r.pick(ints))}"#
        case 14:
            let center = "[\(r.pick(coordinates)), \(r.pick(coordinates))]"
            return #""location": {"$geoWithin": {"$centerSphere": [\#(center), \#(r.pick(decimals))]}}"#
        case 15:
            return #""location": {"$nearSphere": \#(point(&r)), "$minDistance": \#(r.pick(decimals))}"#
        default: return #""score": {"$gte": \#(r.pick(decimals)), "$lt": \#(r.pick(ints))}"#
        }
    }

    static func whereObject(_ r: inout SplitMix64, depth: Int = 0) -> String {
        if depth < 2, r.chance(0.25) {
            return #"{"$or": [\#(whereObject(&r, depth: depth + 1)), \#(whereObject(&r, depth: depth + 1))]}"#
        }
        return "{" + (0..<r.int(1...2)).map { _ in leaf(&r) }.joined(separator: ", ") + "}"
    }

    static func request(_ r: inout SplitMix64) -> String {
        let object = whereObject(&r)
        switch r.int(0...3) {
        case 0: return object
        case 1: return #"{"where": \#(object), "limit": \#(r.int(0...30))}"#
        case 2: return #"{"where": \#(object), "order": "-score", "count": 1}"#
        default: return #"{"where":\#(object)}"#
        }
    }

    /// `count` random requests, those `keeping` keeps that have a skeleton, each with the same
    /// request's value tokens swapped for others of their kind.
    static func pairs(seed: UInt64, count: Int, keeping: (String) -> Bool) -> [(String, String)] {
        var random = SplitMix64(seed: seed)
        var out: [(String, String)] = []
        for _ in 0..<count {
            let text = request(&random)
            guard keeping(text), let skeleton = JSONSkeleton(text) else { continue }
            out.append((text, swapLiterals(text, skeleton, &random)))
        }
        return out
    }

    /// The text with each value token replaced by another of the same kind, or kept (a third of
    /// them: tokens that are not parameters, a class name or a limit, then often stay the same).
    static func swapLiterals(_ text: String, _ skeleton: JSONSkeleton, _ r: inout SplitMix64) -> String {
        let ints = [
            "0", "1", "-1", "99", "-0", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "123456789012345678", "1234567890123456789", "9999999999999999999", "1700000000001",
            "90", "-90", "180", "-181", "45",
        ]
        let decimals = [
            "0.5", "-0.0", "2.25", "123456789.123456789123", "0.1", String(repeating: "9", count: 400) + ".5",
            "89.99", "-90.0", "179.5", "180.000001", "-3.5",
        ]
        let strings = [
            #""a""#, #""""#, #""x\"y""#, #""\u00e9""#, #""\n""#, #""--; DROP TABLE x""#, "\"\u{1F600}\"", #""(""#,
            #""[a-""#, #""2023-01-01T00:00:00.000Z""#, #""-score""#, #""City""#, #""i""#, #""mx""#, #""GeoPoint""#,
            "\"" + String(repeating: "z", count: 3000) + "\"", #""\\Qab\\E""#, #""^\\Qab\\E""#,
        ]
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var copied = 0
        for l in skeleton.literals {
            out += bytes[copied..<l.start]
            copied = l.end
            if r.chance(0.33) {
                out += bytes[l.start..<l.end]
                continue
            }
            let pool =
                switch l.kind {
                case .string: strings
                case .integer: ints
                case .decimal: decimals
                }
            out += Array(r.pick(pool).utf8)
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }
}
