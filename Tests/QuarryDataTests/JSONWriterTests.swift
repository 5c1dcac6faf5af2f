import Testing
@testable import QuarryData
import QuarryCore
import QuarryTestSupport

@Suite struct JSONWriterTests {
    @Test(
        arguments: [
            (JSON.null, "null"), (true, "true"), (false, "false"),
            (0, "0"), (-7, "-7"), (.int(Int64.max), "9223372036854775807"), (.int(Int64.min), "-9223372036854775808"),
            (0.1, "0.1"), (100.0, "100.0"), (1e20, "1e+20"), (1e-5, "1e-05"), (-0.0, "-0.0"),
            (.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"),
            (.double(.nan), "null"), (.double(.infinity), "null"), (.double(-.infinity), "null"),
            ("", #""""#), ("a\"b\\c/", #""a\"b\\c/""#), ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
            ("\u{0}\u{1F}\u{7F}", #""\u0000\u001f\#u{7F}""#), ("é😀\u{2028}", "\"é😀\u{2028}\""),
            ([], "[]"), ([:], "{}"),
            (["b": 1, "a": [true, nil, 1.5, "x"]], #"{"b":1,"a":[true,null,1.5,"x"]}"#),
        ] as [(JSON, String)])
    func compactOutput(json: JSON, expected: String) {
        #expect(JSONWriter.string(json) == expected)
        #expect(json.description == expected)
    }

    @Test func writtenTextParsesBackToTheSameTree() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let tree = randomJSON(&rng, depth: 4)
            let text = JSONWriter.string(tree)
            #expect(try JSONParser().parse(text) == tree, "\(text)")
        }
    }

    @Test func parseThenWriteIsIdempotent() throws {
        let inputs = [
            #" { "z" : [ 1 , -0 , 2.50 , 1E2 , "\u00e9\/" ] , "a" : { } } "#,
            #"[9223372036854775808, 123456789012345678901234567890, 1e-7, "\ud83d\ude00"]"#,
        ]
        for input in inputs {
            let once = JSONWriter.string(try JSONParser().parse(input))
            let twice = JSONWriter.string(try JSONParser().parse(once))
            #expect(once == twice)
        }
        #expect(JSONWriter.string(try JSONParser().parse(inputs[0])) == #"{"z":[1,-0.0,2.5,100.0,"é/"],"a":{}}"#)
    }

    @Test func writerAgreesWithDiagnosticQuoting() {
        for s in ["plain", "quote\" back\\slash", "line\nbreak\ttab", "\u{1}\u{1F}", "ünï 😀"] {
            #expect(JSONWriter.string(.string(s)) == JSONText.quote(s))
        }
    }
}

/// A random tree over every JSON shape, including strings that need escaping.
func randomJSON(_ rng: inout SplitMix64, depth: Int) -> JSON {
    let pick = rng.next() % (depth > 0 ? 8 : 6)
    switch pick {
    case 0: return .null
    case 1: return .bool(rng.next() % 2 == 0)
    case 2: return .int(Int64(bitPattern: rng.next()) >> (rng.next() % 64))
    case 3:
        let d = Double(bitPattern: rng.next())
        return .double(d.isFinite ? d : Double(rng.next() % 1000) / 8)
    case 4, 5:
        let alphabet: [String] = ["a", "Z", "é", "😀", "\"", "\\", "\n", "\u{1}", " ", "/", "\u{2028}", "日"]
        return .string((0..<(rng.next() % 8)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined())
    case 6:
        return .array((0..<(rng.next() % 5)).map { _ in randomJSON(&rng, depth: depth - 1) })
    default:
        var o = JSONObject()
        for _ in 0..<(rng.next() % 5) {
            let key = ["id", "k\(rng.next() % 4)", "ünï", "", "a.b"][Int(rng.next() % 5)]
            o[key] = randomJSON(&rng, depth: depth - 1)
        }
        return .object(o)
    }
}
