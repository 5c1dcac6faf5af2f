import Testing
@testable import QuarryParseREST
import QuarryCore

/// Bad REST JSON: each mistake is a diagnostic with its code, Parse's numeric code, the JSON
/// path and the bytes it concerns. Never a crash, never a silent guess.
@Suite struct DecodeDiagnosticTests {
    struct Case: Sendable, CustomStringConvertible {
        var json: String
        var code: String
        var parseCode: Int
        var path: String?
        /// The text the diagnostic's range covers.
        var snippet: String?
        var description: String { json }
    }

    static let cases: [Case] = [
        Case(json: #"{"a":"#, code: "json.syntax", parseCode: 107, path: nil, snippet: nil),
        Case(json: #"[1]"#, code: "json.where", parseCode: 107, path: nil, snippet: "[1]"),
        Case(
            json: #"{"a":{"$foo":1}}"#, code: "json.unknown-operator", parseCode: 107, path: "where.a.$foo",
            snippet: #""$foo""#),
        Case(
            json: #"{"$where":"1"}"#, code: "json.unknown-operator", parseCode: 105, path: "where.$where",
            snippet: #""$where""#),
        Case(json: #"{"a":{"$in":5}}"#, code: "json.operand", parseCode: 107, path: "where.a.$in", snippet: "5"),
        Case(
            json: #"{"a":{"$regex":"x","$options":"gi"}}"#, code: "json.regex-options", parseCode: 102,
            path: "where.a.$options", snippet: #""gi""#),
        Case(json: #"{"a":{"$regex":5}}"#, code: "json.operand", parseCode: 107, path: "where.a.$regex", snippet: "5"),
        Case(
            json: #"{"a":{"$options":"i"}}"#, code: "json.operator", parseCode: 102, path: "where.a.$options",
            snippet: #""$options""#),
        Case(json: #"{"1a":1}"#, code: "json.key-name", parseCode: 105, path: "where.1a", snippet: #""1a""#),
        Case(json: #"{"a b":{"$gt":1}}"#, code: "json.key-name", parseCode: 105, path: "where.a b", snippet: #""a b""#),
        Case(
            json: #"{"p":{"__type":"Pointer","className":"Post"}}"#, code: "json.pointer", parseCode: 106,
            path: "where.p",
            snippet: #"{"__type":"Pointer","className":"Post"}"#),
        Case(
            json: #"{"p":{"$in":[{"__type":"Pointer","className":"Post","objectId":7}]}}"#, code: "json.pointer",
            parseCode: 106, path: "where.p.$in[0].objectId", snippet: "7"),
        Case(
            json: #"{"a":{"__type":"Widget"}}"#, code: "json.value", parseCode: 107, path: "where.a.__type",
            snippet: #""Widget""#),
        Case(json: #"{"where":{},"limit":-1}"#, code: "json.limit", parseCode: 117, path: "limit", snippet: "-1"),
        Case(
            json: #"{"where":{},"limit":"ten"}"#, code: "json.limit", parseCode: 117, path: "limit", snippet: #""ten""#),
        Case(json: #"{"where":{},"skip":1.5}"#, code: "json.skip", parseCode: 118, path: "skip", snippet: "1.5"),
        Case(json: #"{"where":{},"skip":-3}"#, code: "json.skip", parseCode: 118, path: "skip", snippet: "-3"),
        Case(json: #"{"$or":{"a":1}}"#, code: "json.compound", parseCode: 102, path: "where.$or", snippet: #"{"a":1}"#),
        Case(json: #"{"$or":[{"a":1},7]}"#, code: "json.where", parseCode: 102, path: "where.$or[1]", snippet: "7"),
        Case(json: #"{"$or":[]}"#, code: "json.compound", parseCode: 102, path: "where.$or", snippet: "[]"),
        Case(json: #"{"$nor":"x"}"#, code: "json.compound", parseCode: 102, path: "where.$nor", snippet: #""x""#),
        Case(json: #"{"arr":[2,3]}"#, code: "json.exact-match", parseCode: 102, path: "where.arr", snippet: "[2,3]"),
        Case(json: #"{"o":{"x":1}}"#, code: "json.exact-match", parseCode: 102, path: "where.o", snippet: #"{"x":1}"#),
        Case(
            json: #"{"a":{"$lt":1,"b":2}}"#, code: "json.exact-match", parseCode: 102, path: "where.a",
            snippet: #"{"$lt":1,"b":2}"#),
        Case(
            json: #"{"$or":[{"a":1},{"score":{"$gt":true}}]}"#, code: "json.operand", parseCode: 107,
            path: "where.$or[1].score.$gt", snippet: "true"),
        Case(
            json: #"{"d":{"$gt":{"$relativeTime":"soon"}}}"#, code: "json.relative-time", parseCode: 107,
            path: "where.d.$gt", snippet: #"{"$relativeTime":"soon"}"#),
        Case(
            json: #"{"d":{"$eq":{"$relativeTime":"now"}}}"#, code: "json.relative-time", parseCode: 107,
            path: "where.d.$eq", snippet: nil),
        Case(
            json:
                #"{"l":{"$within":{"$box":[{"__type":"GeoPoint","latitude":0,"longitude":170},{"__type":"GeoPoint","latitude":10,"longitude":-170}]}}}"#,
            code: "json.geo-box", parseCode: 102, path: "where.l.$within", snippet: nil),
        Case(
            json: #"{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":91,"longitude":0}}}"#, code: "json.geo-range",
            parseCode: 107, path: "where.l.$nearSphere", snippet: #"{"__type":"GeoPoint","latitude":91,"longitude":0}"#),
        Case(
            json: #"{"l":{"$nearSphere":5}}"#, code: "json.operand", parseCode: 107, path: "where.l.$nearSphere",
            snippet: "5"),
        Case(
            json: #"{"l":{"$maxDistance":1}}"#, code: "json.operator", parseCode: 102, path: "where.l.$maxDistance",
            snippet: #""$maxDistance""#),
        Case(
            json:
                #"{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":1},"$maxDistance":1,"$maxDistanceInMiles":2}}"#,
            code: "json.operator", parseCode: 102, path: "where.l.$maxDistanceInMiles", snippet: "2"),
        Case(
            json: #"{"l":{"$geoWithin":{"$polygon":[[0,0],[1,1]]}}}"#, code: "json.operand", parseCode: 107,
            path: "where.l.$geoWithin", snippet: nil),
        Case(
            json: #"{"l":{"$geoWithin":{"$centerSphere":[[0,0],"far"]}}}"#, code: "json.operand", parseCode: 107,
            path: "where.l.$geoWithin.$centerSphere[1]", snippet: #""far""#),
        Case(
            json: #"{"p":{"$inQuery":{"where":{}}}}"#, code: "json.subquery", parseCode: 102, path: "where.p.$inQuery",
            snippet: #"{"where":{}}"#),
        // Without `where` (or without `className`) an inner query is parse-server's "improper usage".
        Case(
            json: #"{"p":{"$inQuery":{"className":"Post"}}}"#, code: "json.subquery", parseCode: 102,
            path: "where.p.$inQuery",
            snippet: #"{"className":"Post"}"#),
        Case(
            json: #"{"p":{"$notInQuery":{"className":"Post","limit":3}}}"#, code: "json.subquery", parseCode: 102,
            path: "where.p.$notInQuery", snippet: #"{"className":"Post","limit":3}"#),
        Case(
            json: #"{"p":{"$select":{"query":{"className":"T"},"key":"k"}}}"#, code: "json.subquery", parseCode: 102,
            path: "where.p.$select.query", snippet: #"{"className":"T"}"#),
        Case(
            json: #"{"p":{"$dontSelect":{"query":{"where":{}},"key":"k"}}}"#, code: "json.subquery", parseCode: 102,
            path: "where.p.$dontSelect.query", snippet: #"{"where":{}}"#),
        Case(
            json: #"{"p":{"$inQuery":{"className":"Post","where":{},"hint":"x"}}}"#, code: "json.subquery",
            parseCode: 102,
            path: "where.p.$inQuery.hint", snippet: #""hint""#),
        Case(
            json: #"{"p":{"$select":{"query":{"className":"T","where":{}},"key":"k","x":1}}}"#, code: "json.subquery",
            parseCode: 102,
            path: "where.p.$select", snippet: nil),
        Case(
            json: #"{"p":{"$inQuery":{"className":"Post","where":{"1x":1}}}}"#, code: "json.key-name", parseCode: 105,
            path: "where.p.$inQuery.where.1x", snippet: #""1x""#),
        Case(
            json: #"{"p":{"$inQuery":{"className":"Po st","where":{}}}}"#, code: "json.class-name", parseCode: 103,
            path: "where.p.$inQuery.className", snippet: #""Po st""#),
        Case(
            json: #"{"where":{},"limt":5}"#, code: "json.parameter", parseCode: 102, path: "limt", snippet: #""limt""#),
        Case(
            json: #"{"where":{},"order":"-"}"#, code: "json.key-name", parseCode: 105, path: "order[0]",
            snippet: #""-""#),
        Case(
            json: #"{"where":{},"order":"$score"}"#, code: "json.order", parseCode: 105, path: "order[0]", snippet: nil),
        Case(
            json: #"{"where":{},"include":"*"}"#, code: "json.include", parseCode: 102, path: "include[0]", snippet: nil
        ),
        Case(
            json: #"{"where":{},"count":"yes"}"#, code: "json.parameter", parseCode: 107, path: "count",
            snippet: #""yes""#),
        // `where` holding a non-object is a field named where, so this is an exact array match.
        Case(json: #"{"where":[]}"#, code: "json.exact-match", parseCode: 102, path: "where.where", snippet: "[]"),
        Case(
            json: #"{"a":{"$exists":"yes"}}"#, code: "json.operand", parseCode: 107, path: "where.a.$exists",
            snippet: #""yes""#),
        Case(json: #"{"a":{"$size":-1}}"#, code: "json.operand", parseCode: 107, path: "where.a.$size", snippet: nil),
        Case(
            json: #"{"a":{"$size":2.5}}"#, code: "json.operand", parseCode: 107, path: "where.a.$size", snippet: "2.5"),
        Case(
            json: #"{"a":{"$text":{"$search":{"$term":5}}}}"#, code: "json.operand", parseCode: 107,
            path: "where.a.$text.$search.$term", snippet: "5"),
        Case(
            json: #"{"a":{"$text":{"$search":{}}}}"#, code: "json.operand", parseCode: 107,
            path: "where.a.$text.$search", snippet: "{}"),
        Case(
            json: #"{"$relatedTo":{"object":{"__type":"Pointer","className":"U","objectId":"u"}}}"#,
            code: "json.related-to",
            parseCode: 102, path: "where.$relatedTo", snippet: nil),
        Case(
            json: #"{"$relatedTo":{"object":"u1","key":"likes"}}"#, code: "json.pointer", parseCode: 106,
            path: "where.$relatedTo.object", snippet: #""u1""#),
    ]

    @Test(arguments: cases)
    func reported(_ c: Case) throws {
        let d = diagnostics { () throws(Diagnostics) in try ParseWhere.parse(c.json, className: "T") }
        try #require(d.count == 1, "\(d)")
        #expect(d[0].code == c.code)
        #expect(d[0].parseCode == c.parseCode)
        #expect(d[0].path == c.path)
        #expect(!d[0].message.isEmpty)
        let range = try #require(d[0].range, "every decoded diagnostic has a range")
        if let snippet = c.snippet {
            let bytes = Array(c.json.utf8)
            #expect(String(decoding: bytes[range.offset..<range.end], as: UTF8.self) == snippet)
        }
    }

    @Test func malformedJSONCarriesLineAndColumn() {
        let text = "{\n  \"a\": [1, 2,]\n}"
        let d = diagnostics { () throws(Diagnostics) in try ParseWhere.parse(text, className: "T") }
        #expect(d.map(\.parseCode) == [107])
        let position = SourceText(text).position(ofByte: d[0].range?.offset ?? -1)
        #expect(position.line == 2)
    }

    @Test func severalMistakesAtOnce() {
        let d = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(#"{"a":{"$in":1},"b":{"$bad":2},"$or":3}"#, className: "T")
        }
        #expect(d.map(\.path) == ["where.a.$in", "where.b.$bad", "where.$or"])
    }

    @Test func nestingBeyondTheCaps() {
        var limits = Limits.default
        limits.maxNestingDepth = 4
        var json = #"{"a":1}"#
        for _ in 0..<5 { json = #"{"$or":[\#(json)]}"# }
        let d = diagnostics { () throws(Diagnostics) in try ParseWhere.parse(json, className: "T", limits: limits) }
        #expect(d.map(\.code) == ["limit.nesting"])
        #expect(d.first?.path == "where.$or[0].$or[0].$or[0].$or[0].$or")
        // Far deeper JSON stops in the parser, before any recursion of ours.
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let parser = diagnostics { () throws(Diagnostics) in try ParseWhere.parse(#"{"a":\#(deep)}"#, className: "T") }
        #expect(parser.map(\.code) == ["json.depth"])
    }

    @Test func queryLengthCap() {
        var limits = Limits.default
        limits.maxQueryLength = 10
        let d = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(#"{"abc":"defgh"}"#, className: "T", limits: limits)
        }
        #expect(d.map(\.code) == ["limit.query-length"])
    }

    @Test func inListCap() {
        var limits = Limits.default
        limits.maxInListSize = 2
        let d = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(#"{"a":{"$in":[1,2,3]}}"#, className: "T", limits: limits)
        }
        #expect(d.map(\.code) == ["limit.in-list"])
        #expect(d.first?.path == "where.a.$in")
    }

    @Test func profileErrorsPointAtTheRequest() {
        let d = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(#"{"where":{},"limit":1001}"#, className: "T", profile: .parse)
        }
        #expect(d.map(\.parseCode) == [117])
        #expect(d.first?.range == SourceRange(offset: 20, length: 4))
        let geoOr = diagnostics { () throws(Diagnostics) in
            try ParseWhere.parse(
                #"{"$or":[{"l":{"$nearSphere":{"__type":"GeoPoint","latitude":1,"longitude":1}}},{"a":1}]}"#,
                className: "T", profile: .leancloud)
        }
        #expect(geoOr.map(\.code) == ["json.compound-geo"])
        #expect(geoOr.first?.path == "where.$or[0].l.$nearSphere")
    }

    @Test func renderedLikeACompiler() throws {
        let text = #"{"score":{"$gt":true}}"#
        let d = try #require(diagnostics { () throws(Diagnostics) in try ParseWhere.parse(text, className: "T") }.first)
        let rendered = SourceText(text).render(d)
        #expect(rendered.hasPrefix("error[json.operand](107): $gt compares numbers"))
        #expect(rendered.contains(" --> where.score.$gt at 1:17"))
        #expect(rendered.contains("^^^^"))
    }
}
