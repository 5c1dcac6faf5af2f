import Testing
@testable import QuarryData
import QuarryCore
import QuarryTestSupport

private func parse(_ text: String) throws(Diagnostic) -> JSON { try JSONParser().parse(text) }

private func failure(_ bytes: [UInt8], maxDepth: Int = 512) -> Diagnostic? {
    do {
        _ = try JSONParser(maxDepth: maxDepth).parse(bytes)
        return nil
    } catch {
        return error
    }
}

private func failure(_ text: String, maxDepth: Int = 512) -> Diagnostic? {
    failure(Array(text.utf8), maxDepth: maxDepth)
}

@Suite struct JSONParserTests {
    // MARK: Valid documents

    @Test(
        arguments: [
            ("null", JSON.null), ("true", .bool(true)), ("false", .bool(false)),
            ("0", .int(0)), ("123", .int(123)), ("-123", .int(-123)),
            ("9223372036854775807", .int(Int64.max)), ("-9223372036854775808", .int(Int64.min)),
            ("9223372036854775808", .double(9_223_372_036_854_775_808.0)),
            ("-9223372036854775809", .double(-9_223_372_036_854_775_809.0)),
            ("1.5", .double(1.5)), ("-1.5", .double(-1.5)), ("1e3", .double(1000)), ("1E+3", .double(1000)),
            ("1e-3", .double(0.001)), ("0.1", .double(0.1)), ("2.50", .double(2.5)), ("0e0", .double(0)),
            ("0.30000000000000004", .double(0.30000000000000004)),
            ("123456789012345678901234567890", .double(1.2345678901234568e29)),
            ("3.14159265358979323846264338327950288", .double(Double.pi)),
            ("2.2250738585072014e-308", .double(2.2250738585072014e-308)),
            ("5e-324", .double(Double.leastNonzeroMagnitude)), ("1e-400", .double(0)),
            ("1.7976931348623157e308", .double(Double.greatestFiniteMagnitude)),
            ("0.000001", .double(0.000001)), ("100000000000000000000000e-3", .double(1e20)),
        ] as [(String, JSON)])
    func numbersAndLiterals(text: String, expected: JSON) throws {
        #expect(try parse(text) == expected)
    }

    @Test func minusZeroKeepsItsSign() throws {
        let v = try parse("-0")
        guard case .double(let d) = v else { Issue.record("expected a double, got \(v)"); return }
        #expect(d == 0 && d.sign == .minus)
        #expect(try parse("-0.0") == .double(-0.0))
        #expect(try parse("0") == .int(0))
    }

    @Test(
        arguments: [
            (#""""#, ""), (#""abc""#, "abc"),
            (#""\" \\ \/ \b \f \n \r \t""#, "\" \\ / \u{8} \u{C} \n \r \t"),
            (#""\u00e9\u00C9""#, "éÉ"), (#""\uD83D\uDE00""#, "😀"), (#""caf\u00e9 😀 é""#, "café 😀 é"),
            (#""\u0000""#, "\u{0}"), (#""a\u0041\u2028""#, "aA\u{2028}"), (#""Ünïcødé ✓ 日本""#, "Ünïcødé ✓ 日本"),
        ] as [(String, String)])
    func strings(text: String, expected: String) throws {
        #expect(try parse(text) == .string(expected))
    }

    @Test func decomposedAndPrecomposedStringsStayDistinct() throws {
        #expect(try parse(#""\u00e9""#) != parse(#""e\u0301""#))
    }

    @Test func structuresAndWhitespace() throws {
        let v = try parse(" \t\r\n{ \"a\" : [ 1 , 2.5 , { } , [ ] ] , \"b\" : { \"c\" : null } }\n")
        #expect(v == ["a": [1, 2.5, [:], []], "b": ["c": nil]])
        #expect(v["a"]?[1] == .double(2.5))
        #expect(v["b"]?["c"]?.isNull == true)
    }

    @Test func objectsKeepKeyOrder() throws {
        let v = try parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(v.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func repeatedKeyKeepsFirstPositionAndLastValue() throws {
        let v = try parse(#"{"a":1,"b":2,"a":3}"#)
        #expect(v.objectValue?.keys == ["a", "b"])
        #expect(v["a"] == .int(3))
        #expect(JSONWriter.string(v) == #"{"a":3,"b":2}"#)
    }

    @Test func escapedAndPlainSpellingsOfAKeyAreTheSameKey() throws {
        let v = try parse(#"{"a":1,"b":2,"\u0061":3,"\u00e9":4,"é":5}"#)
        #expect(v.objectValue?.keys == ["a", "b", "é"])
        #expect(v["a"] == .int(3))
        #expect(v["é"] == .int(5))
        // Canonically equivalent but different scalars: two keys.
        #expect(try parse(#"{"\u00e9":1,"e\u0301":2}"#).objectValue?.count == 2)
    }

    @Test func largeObjectsLookUpAndDeduplicateByIndex() throws {
        let members = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let v = try parse("{\(members),\"k7\":\"again\"}")
        #expect(v.objectValue?.count == 40)
        #expect(v["k39"] == .int(39))
        #expect(v["k7"] == .string("again"))
        #expect(v.objectValue?.keys.firstIndex(of: "k7") == 7)
    }

    @Test func byteOrderMarkIsSkippedAtTheStartOnly() throws {
        #expect(try JSONParser().parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
        #expect(failure([0x5B, 0xEF, 0xBB, 0xBF, 0x5D])?.code == "json.syntax")
    }

    @Test func depthLimitIsInclusive() throws {
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try parse(ok).arrayValue != nil)
        #expect(try JSONParser(maxDepth: 3).parse("[{\"a\":[1]}]") == [["a": [1]]])
        let d = try #require(failure("[{\"a\":[[1]]}]", maxDepth: 3))
        #expect(d.code == "json.depth")
        #expect(d.range == SourceRange(offset: 7, length: 1))
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 200_000)
        let d = try #require(failure(deep))
        #expect(d.code == "json.depth")
        #expect(d.range?.offset == 512)
        #expect(d.message.contains("512"))
    }

    // MARK: Invalid documents: code, location, message

    @Test(
        arguments: [
            ("", "json.syntax", 0, "expected a value but found the end of the input"),
            ("   ", "json.syntax", 3, "expected a value but found the end of the input"),
            (
                "[1,]", "json.syntax", 3,
                "expected a value after ',' but found ']' (JSON does not allow trailing commas)"
            ),
            (#"{"a":1,}"#, "json.syntax", 7, "trailing commas"),
            ("[1 2]", "json.syntax", 3, "expected ',' or ']' after an array element but found '2'"),
            (#"{"a":1 "b":2}"#, "json.syntax", 7, "expected ',' or '}' after an object member but found '\"'"),
            (#"{"a" 1}"#, "json.syntax", 5, "expected ':' after the object key but found '1'"),
            ("{1:2}", "json.syntax", 1, "expected a string key or '}' but found '1'"),
            (#"{"a":}"#, "json.syntax", 5, "expected a value but found '}'"),
            ("[1] x", "json.syntax", 4, "expected the end of the input after the JSON value but found 'x'"),
            ("[1", "json.syntax", 2, "expected ',' or ']' after an array element but found the end of the input"),
            (#"{"a":1"#, "json.syntax", 6, "but found the end of the input"),
            ("// c\n1", "json.syntax", 0, "(JSON has no comments)"),
            ("[1,/*x*/2]", "json.syntax", 3, "(JSON has no comments)"),
            ("'a'", "json.syntax", 0, "a single quote (JSON strings use double quotes)"),
            ("NaN", "json.syntax", 0, "expected a value but found 'NaN'"),
            ("-Infinity", "json.number", 1, "expected a digit after '-' but found 'Infinity'"),
            ("tru", "json.syntax", 0, "found 'tru'"),
            ("True", "json.syntax", 0, "found 'True'"),
            ("nulls", "json.syntax", 4, "expected the end of the input"),
            (".5", "json.syntax", 0, "expected a value but found '.'"),
            ("+1", "json.syntax", 0, "expected a value but found '+'"),
            ("\u{0B}1", "json.syntax", 0, "the control character U+000B"),
            ("\u{A0}1", "json.syntax", 0, "'\u{A0}' (U+00A0)"),
            ("01", "json.number", 0, "a number may not have leading zeros"),
            ("-012", "json.number", 0, "leading zeros"),
            ("-", "json.number", 1, "expected a digit after '-' but found the end of the input"),
            ("1.", "json.number", 2, "expected a digit after the decimal point"),
            ("1.e5", "json.number", 2, "expected a digit after the decimal point but found 'e5'"),
            ("1e", "json.number", 2, "expected a digit in the exponent"),
            ("1e+", "json.number", 3, "expected a digit in the exponent"),
            ("1e400", "json.number", 0, "too large"),
            ("-1e400", "json.number", 0, "too large"),
            ("0x10", "json.syntax", 1, "found 'x10'"),
            (#""abc"#, "json.string", 0, "unterminated string"),
            ("\"a\nb\"", "json.string", 2, "a line break must be written \\n inside a string"),
            ("\"a\tb\"", "json.string", 2, "a tab must be written \\t"),
            ("\"\u{1}\"", "json.string", 1, "the control character U+0001 must be escaped"),
            (#""\x""#, "json.string", 1, "invalid escape sequence: expected one of"),
            (#""\U0041""#, "json.string", 1, "invalid escape sequence"),
            (#""\u12""#, "json.string", 1, "expected 4 hexadecimal digits after '\\u'"),
            (#""\uZZZZ""#, "json.string", 1, "expected 4 hexadecimal digits"),
            (#""\uD800""#, "json.string", 1, "lone surrogate \\uD800"),
            (#""\uD800\u0041""#, "json.string", 1, "must be followed by a low surrogate"),
            (#""\uDC00\uD800""#, "json.string", 1, "lone surrogate \\uDC00"),
            (#""\"#, "json.string", 0, "unterminated string"),
        ] as [(String, String, Int, String)])
    func invalidDocuments(text: String, code: String, offset: Int, message: String) throws {
        let d = try #require(failure(text), "'\(text)' should be rejected")
        #expect(d.code == code)
        #expect(d.range?.offset == offset)
        #expect(d.message.contains(message), "message was: \(d.message)")
    }

    @Test(
        arguments: [
            ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong '/'
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 2),  // overlong three-byte form
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),  // UTF-8-encoded surrogate U+D800
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),  // above U+10FFFF
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0x80, 0x22], 1),  // lone continuation byte
            ([0x22, 0xE2, 0x82, 0x22], 3),  // truncated: the quote cannot continue it
            ([0x22, 0xE2, 0x82], 1),  // truncated by the end of the input
            ([0x22, 0x61, 0xC3], 2),
        ] as [([UInt8], Int)])
    func invalidUTF8IsLocated(bytes: [UInt8], offset: Int) throws {
        let d = try #require(failure(bytes))
        #expect(d.code == "json.utf8")
        #expect(d.range == SourceRange(offset: offset, length: 1))
        #expect(d.message.hasPrefix("invalid UTF-8"))
    }

    @Test func invalidUTF8InsideAnEscapedStringIsLocatedToo() throws {
        let d = try #require(failure([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22]))  // "\n\xC3("
        #expect(d.code == "json.utf8")
        #expect(d.range?.offset == 4)
    }

    @Test func errorRangeCoversTheOffendingToken() throws {
        #expect(failure("[1, NaN]")?.range == SourceRange(offset: 4, length: 3))
        #expect(failure("0123")?.range == SourceRange(offset: 0, length: 4))
        #expect(failure("[\"\\q\"]")?.range == SourceRange(offset: 2, length: 2))
        #expect(failure("[\"\\uD800\"]")?.range == SourceRange(offset: 2, length: 6))
    }

    @Test func diagnosticsRenderWithLineAndColumn() throws {
        let text = "{\n  \"a\": [1,\n        2,]\n}"
        let d = try #require(failure(text))
        let rendered = SourceText(text).render(d)
        #expect(rendered.contains(" --> 3:11"), "\(rendered)")
        #expect(rendered.hasPrefix("error[json.syntax]: expected a value after ','"))
    }

    // MARK: Numbers: fast path against the correctly rounded reference

    @Test func decimalNumbersRoundCorrectly() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<20_000 {
            let digits = Int(rng.next() % 19) + 1
            var mantissa = ""
            for i in 0..<digits { mantissa += String(i == 0 ? rng.next() % 9 + 1 : rng.next() % 10) }
            let point = Int(rng.next() % UInt64(digits + 1))
            let intPart = point == 0 ? "0" : String(mantissa.prefix(point))
            var text = point == digits ? mantissa : intPart + "." + mantissa.dropFirst(point)
            if rng.next() % 2 == 0 { text += "e\(Int(rng.next() % 61) - 30)" }
            if rng.next() % 3 == 0 { text = "-" + text }
            let parsed = try parse(text)
            let reference = try #require(Double(text))
            if case .int(let i) = parsed {
                #expect(Double(i) == reference && !text.contains(".") && !text.contains("e"))
            } else {
                #expect(parsed == .double(reference), "\(text)")
            }
        }
    }

    @Test func everyDoubleSurvivesWriteThenParse() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let back = try parse(JSONWriter.string(.double(d)))
            #expect(back == .double(d), "\(d)")
        }
    }

    // MARK: Located parsing

    @Test func locatedNodesPointAtMembersAndElements() throws {
        let text = """
            {"where": {"$or": [{"a": 1},
                               {"score": {"$gt": "x"}}]},
             "limit": 10}
            """
        let root = try JSONParser().parseLocated(text)
        let source = SourceText(text)
        let node = try #require(root.node(at: ["where", "$or", 1, "score", "$gt"]))
        #expect(node.range == SourceRange(offset: 66, length: 3))
        let pos = source.position(ofByte: node.range.offset)
        #expect((pos.line, pos.column) == (2, 38))
        let member = try #require(root.member("limit"))
        #expect(source.position(ofByte: member.keyRange.offset).line == 3)
        #expect(root.node(at: ["where", "$or", 2]) == nil)
        #expect(root.nearestRange(of: ["where", "$or", 0, "missing"]) == root.node(at: ["where", "$or", 0])?.range)
        #expect(root.json == (try parse(text)))
    }

    @Test func locatedParsingCollapsesRepeatedKeysLikeTheTree() throws {
        let text = #"{"a":1,"b":2,"a":[3]}"#
        let root = try JSONParser().parseLocated(text)
        #expect(root.json == (try parse(text)))
        #expect(root["a"]?.range == SourceRange(offset: 17, length: 3))
        #expect(root.member("a")?.keyRange == SourceRange(offset: 13, length: 3))
    }

    /// Objects of up to eight keys are searched for a repeated key pairwise, larger ones by
    /// fingerprint: the same members either way, the later value in the first key's place, and
    /// keys compared by their bytes (`é` precomposed and decomposed are two keys).
    @Test(arguments: [3, 8, 9, 40])
    func locatedParsingCollapsesRepeatedKeysAtAnySize(keys: Int) throws {
        let parts =
            (0..<keys).map { "\"k\($0)\":\($0)" } + [#""k1":"again""#, "\"\u{e9}\":1", "\"e\u{301}\":2"]
        let text = "{" + parts.joined(separator: ",") + "}"
        let root = try JSONParser().parseLocated(text)
        #expect(root.json == (try parse(text)))
        guard case .object(let members) = root.kind else {
            Issue.record("not an object")
            return
        }
        // By their bytes: Swift's `==` holds the two spellings of é equal.
        #expect(
            members.map { Array($0.key.utf8) }
                == ((0..<keys).map { "k\($0)" } + ["\u{e9}", "e\u{301}"]).map { Array($0.utf8) })
        #expect(root["k1"]?.json == .string("again"))
    }

    @Test func locatedParsingReportsTheSameErrors() throws {
        for text in ["[1,]", "{\"a\":01}", "\"\\uD800\""] {
            var located: Diagnostic?
            do { _ = try JSONParser().parseLocated(text) } catch { located = error }
            #expect(located == failure(text))
        }
    }

    @Test func pathsPrintLikeParseErrorLocations() {
        #expect(JSONPath(["where", "$or", 1, "score", "$gt"]).description == "where.$or[1].score.$gt")
        #expect(JSONPath([0, "a.b", "", "x y"]).description == #"[0]["a.b"][""]["x y"]"#)
        #expect(JSONPath().appending(key: "a").appending(index: 2).description == "a[2]")
    }
}
