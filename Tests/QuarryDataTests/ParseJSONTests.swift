import Testing
@testable import QuarryData
import QuarryCore
import QuarryTestSupport

private func decode(_ text: String) throws -> Value {
    try ParseJSON.decode(JSONParser().parse(text))
}

private func decodeFailure(_ text: String) throws -> ValueDecodingError {
    let json = try JSONParser().parse(text)
    do {
        let v = try ParseJSON.decode(json)
        Issue.record("decoded to \(v)")
        return ValueDecodingError(.data.wrapper, "")
    } catch {
        return error
    }
}

@Suite struct ParseJSONTests {
    // MARK: Every wrapper: golden decoding and encoding

    @Test(
        arguments: [
            (#"{"__type":"Date","iso":"2015-03-23T00:00:00.000Z"}"#, Value.date(1_427_068_800_000)),
            (
                #"{"__type":"GeoPoint","latitude":30.26715,"longitude":-97.74306}"#,
                .geoPoint(GeoPoint(latitude: 30.26715, longitude: -97.74306))
            ),
            (
                #"{"__type":"Pointer","className":"Address","objectId":"a1"}"#,
                .pointer(Pointer(className: "Address", objectId: "a1"))
            ),
            (
                #"{"__type":"Relation","className":"Post","objects":[{"__type":"Pointer","className":"Post","objectId":"p1"},{"__type":"Pointer","className":"Post","objectId":"p2"}]}"#,
                .relation(className: "Post", objectIds: ["p1", "p2"])
            ),
            (#"{"__type":"Bytes","base64":"AP8Q"}"#, .bytes([0x00, 0xFF, 0x10])),
            (
                #"{"__type":"File","name":"a.png","url":"http://x/a.png"}"#,
                .file(FileRef(name: "a.png", url: "http://x/a.png"))
            ),
            (
                #"{"__type":"Polygon","coordinates":[[0,0],[0,1],[1,0.5]]}"#,
                .polygon([
                    GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 1),
                    GeoPoint(latitude: 1, longitude: 0.5),
                ])
            ),
        ] as [(String, Value)])
    func wrappersDecodeAndEncodeBack(text: String, expected: Value) throws {
        let value = try decode(text)
        #expect(value == expected)
        guard case .polygon = value else {
            #expect(JSONWriter.string(ParseJSON.encode(value)) == text)
            return
        }
        // Coordinates come back as doubles.
        #expect(
            JSONWriter.string(ParseJSON.encode(value))
                == #"{"__type":"Polygon","coordinates":[[0.0,0.0],[0.0,1.0],[1.0,0.5]]}"#)
    }

    @Test func plainValuesMapToThemselves() throws {
        let v = try decode(#"{"s":"é","i":-3,"d":2.5,"b":true,"n":null,"a":[1,"x",[]],"o":{"k":{}}}"#)
        #expect(
            v
                == .object([
                    "s": "é", "i": -3, "d": 2.5, "b": true, "n": nil, "a": [1, "x", []],
                    "o": .object(["k": .object([:])]),
                ]))
    }

    @Test func decodingIsLenientWhereParseIs() throws {
        // Extra members of a wrapper are ignored; a relation may leave its objects out; a file
        // may leave out its url; GeoPoint takes integers.
        #expect(
            try decode(#"{"__type":"Pointer","className":"A","objectId":"x","extra":1}"#)
                == .pointer(Pointer(className: "A", objectId: "x")))
        #expect(try decode(#"{"__type":"Relation","className":"Post"}"#) == .relation(className: "Post", objectIds: []))
        #expect(try decode(#"{"__type":"File","name":"f.txt","url":null}"#) == .file(FileRef(name: "f.txt")))
        #expect(
            try decode(#"{"__type":"GeoPoint","latitude":-95,"longitude":200}"#)
                == .geoPoint(GeoPoint(latitude: -95, longitude: 200)))
        #expect(try decode(#"{"__type":"Bytes","base64":""}"#) == .bytes([]))
    }

    @Test func includedObjectKeepsItsMembersAndReadsSystemDates() throws {
        let text =
            #"{"__type":"Object","className":"Address","objectId":"a1","city":"Tokyo","createdAt":"2015-03-23T00:00:00.000Z","home":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#
        let v = try decode(text)
        #expect(
            v
                == .object([
                    "__type": "Object", "className": "Address", "objectId": "a1", "city": "Tokyo",
                    "createdAt": .date(1_427_068_800_000),
                    "home": .geoPoint(GeoPoint(latitude: 1, longitude: 2)),
                ]))
        #expect(
            JSONWriter.string(ParseJSON.encode(v))
                == #"{"__type":"Object","className":"Address","objectId":"a1","city":"Tokyo","createdAt":"2015-03-23T00:00:00.000Z","home":{"__type":"GeoPoint","latitude":1.0,"longitude":2.0}}"#
        )
    }

    @Test func encodingIsDeterministic() {
        let v = Value.object([
            "b": 1, "a": .date(0), "é": .null, "Z": .double(.nan),
            "rel": .relation(className: "U", objectIds: ["x"]),
        ])
        #expect(
            JSONWriter.string(ParseJSON.encode(v))
                == #"{"Z":null,"a":{"__type":"Date","iso":"1970-01-01T00:00:00.000Z"},"b":1,"rel":{"__type":"Relation","className":"U","objects":[{"__type":"Pointer","className":"U","objectId":"x"}]},"é":null}"#
        )
        #expect(JSONWriter.string(ParseJSON.encode(.file(FileRef(name: "n")))) == #"{"__type":"File","name":"n"}"#)
    }

    @Test func everyValueRoundTripsThroughText() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<500 {
            let v = randomValue(&rng, depth: 3)
            let text = JSONWriter.string(ParseJSON.encode(v))
            let back = try ParseJSON.decode(JSONParser().parse(text))
            #expect(back == v, "\(text)")
        }
    }

    @Test func deepPlainNestingDecodes() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        var v = try decode(text)
        var depth = 0
        while case .array(let items) = v, let first = items.first {
            v = first
            depth += 1
        }
        #expect(depth == 511)  // 512 arrays, the innermost empty
    }

    // MARK: Malformed wrappers: code, message, path

    @Test(
        arguments: [
            (#"{"__type":"Pointer","className":"Address"}"#, "data.wrapper", "Pointer is missing 'objectId'", ""),
            (
                #"{"__type":"Pointer","className":"Address","objectId":7}"#, "data.wrapper",
                "Pointer field 'objectId' must be a string, not a number", "objectId"
            ),
            (
                #"{"__type":"Pointer","className":"","objectId":"x"}"#, "data.wrapper",
                "Pointer field 'className' must not be empty", "className"
            ),
            (#"{"__type":"Date"}"#, "data.wrapper", "Date is missing 'iso'", ""),
            (
                #"{"__type":"Date","iso":"2015-02-30T00:00:00Z"}"#, "data.date",
                #"Date field 'iso' is not an ISO-8601 date-time: "2015-02-30T00:00:00Z" (expected e.g. 2015-03-23T00:00:00.000Z)"#,
                "iso"
            ),
            (
                #"{"__type":"Date","iso":1427068800000}"#, "data.wrapper",
                "Date field 'iso' must be a string, not a number", "iso"
            ),
            (
                #"{"__type":"GeoPoint","latitude":"30","longitude":1}"#, "data.wrapper",
                "GeoPoint field 'latitude' must be a number, not a string", "latitude"
            ),
            (#"{"__type":"GeoPoint","latitude":30}"#, "data.wrapper", "GeoPoint is missing 'longitude'", ""),
            (#"{"__type":"Relation","objects":[]}"#, "data.wrapper", "Relation is missing 'className'", ""),
            (
                #"{"__type":"Relation","className":"Post","objects":{}}"#, "data.wrapper",
                "Relation field 'objects' must be an array of Pointers, not an object", "objects"
            ),
            (
                #"{"__type":"Relation","className":"Post","objects":["p1"]}"#, "data.wrapper",
                "Relation objects must be Pointers, not a string", "objects[0]"
            ),
            (
                #"{"__type":"Relation","className":"Post","objects":[{"__type":"Pointer","className":"Post","objectId":"p1"},{"__type":"Pointer","className":"Post"}]}"#,
                "data.wrapper", "Pointer is missing 'objectId'", "objects[1]"
            ),
            (
                #"{"__type":"Relation","className":"Post","objects":[{"__type":"Pointer","className":"User","objectId":"u"}]}"#,
                "data.wrapper", "Relation to 'Post' holds a Pointer to 'User'", "objects[0]"
            ),
            (
                #"{"__type":"Bytes","base64":"Zg="}"#, "data.base64",
                "Bytes field 'base64' is not valid base64: its length 3 is not a multiple of 4 (is '=' padding missing?)",
                "base64"
            ),
            (#"{"__type":"Bytes","base64":"Zm9v\nYmFy"}"#, "data.base64", "its length 9", "base64"),
            (#"{"__type":"Bytes","base64":"Zm-v"}"#, "data.base64", "unexpected character '-' at position 2", "base64"),
            (#"{"__type":"File","url":"http://x"}"#, "data.wrapper", "File is missing 'name'", ""),
            (
                #"{"__type":"File","name":"a","url":3}"#, "data.wrapper",
                "File field 'url' must be a string, not a number", "url"
            ),
            (
                #"{"__type":"Polygon","coordinates":[[0,0],[1,1]]}"#, "data.wrapper",
                "Polygon needs at least 3 points, found 2", "coordinates"
            ),
            (
                #"{"__type":"Polygon","coordinates":[[0,0],[1,1],[2]]}"#, "data.wrapper",
                "Polygon point must be a [latitude, longitude] pair of numbers, not [2]", "coordinates[2]"
            ),
            (
                #"{"__type":"Polygon","coordinates":"0,0"}"#, "data.wrapper",
                "must be an array of [latitude, longitude] pairs, not a string", "coordinates"
            ),
            (#"{"__type":"Polygon"}"#, "data.wrapper", "Polygon is missing 'coordinates'", ""),
            (#"{"__type":"Object","objectId":"a"}"#, "data.wrapper", "Object is missing 'className'", ""),
            (
                #"{"__type":"Object","className":"A","objectId":"a","createdAt":"yesterday"}"#, "data.date",
                "Object field 'createdAt' is not an ISO-8601 date-time", "createdAt"
            ),
            (
                #"{"__type":"Widget"}"#, "data.unknown-type",
                "unknown __type 'Widget': expected one of Date, GeoPoint, Pointer, Relation, Bytes, File, Polygon, Object",
                "__type"
            ),
            (#"{"__type":7}"#, "data.unknown-type", "__type must be a string, not a number", "__type"),
            (#"{"a":[1,{"b":{"__type":"Pointer"}}]}"#, "data.wrapper", "Pointer is missing 'className'", "a[1].b"),
        ] as [(String, String, String, String)])
    func malformedWrappers(text: String, code: String, message: String, path: String) throws {
        let e = try decodeFailure(text)
        #expect(e.code == code)
        #expect(e.message.contains(message), "message was: \(e.message)")
        #expect(e.path.description == path)
    }

    @Test func errorsBecomeLocatedDiagnostics() throws {
        let text = #"{"where": {"owner": {"__type":"Pointer","className":"User","objectId":5}}}"#
        let root = try JSONParser().parseLocated(text)
        let owner = try #require(root.node(at: ["where", "owner"]))
        var caught: ValueDecodingError?
        do { _ = try ParseJSON.decode(owner.json) } catch { caught = error }
        let d = try #require(caught).diagnostic(under: ["where", "owner"], in: root)
        #expect(d.path == "where.owner.objectId")
        #expect(d.range == SourceRange(offset: 70, length: 1))
        #expect(d.code == "data.wrapper")
    }

    // MARK: Records

    @Test func recordsReadSystemDatesAndKeepFieldOrder() throws {
        let text =
            #"{"name":"Clark","objectId":"k1","createdAt":"2015-03-23T00:00:00.000Z","updatedAt":{"__type":"Date","iso":"2015-03-23T10:00:00.000Z"},"age":25,"when":{"__type":"Date","iso":"1970-01-01T00:00:00.001Z"}}"#
        let object = try #require(try JSONParser().parse(text).objectValue)
        let r = try ParseJSON.decodeRecord(object)
        #expect(r.objectId == "k1")
        #expect(r.fieldOrder == ["name", "createdAt", "updatedAt", "age", "when"])
        #expect(r["createdAt"] == .date(1_427_068_800_000))
        #expect(r["updatedAt"] == .date(1_427_104_800_000))
        #expect(r["when"] == .date(1))
        #expect(
            JSONWriter.string(ParseJSON.encode(r))
                == #"{"objectId":"k1","name":"Clark","createdAt":"2015-03-23T00:00:00.000Z","updatedAt":"2015-03-23T10:00:00.000Z","age":25,"when":{"__type":"Date","iso":"1970-01-01T00:00:00.001Z"}}"#
        )
        var out: [UInt8] = []
        ParseJSON.write(r, to: &out)
        let back = try ParseJSON.decodeRecord(#require(try JSONParser().parse(out).objectValue))
        #expect(back == r)
    }

    @Test func fieldsMissingFromFieldOrderAreStillWritten() {
        var r = Record(objectId: "x", fields: [("b", 1)])
        r.fields["a"] = "late"
        r.fields["z"] = nil
        #expect(JSONWriter.string(ParseJSON.encode(r)) == #"{"objectId":"x","b":1,"a":"late"}"#)
    }

    @Test(
        arguments: [
            (#"{"name":"x"}"#, "data.object-id", "the object has no 'objectId'", ""),
            (#"{"objectId":3}"#, "data.object-id", "must be a string, not a number", "objectId"),
            (#"{"objectId":""}"#, "data.object-id", "must not be empty", "objectId"),
            (
                #"{"objectId":"a","createdAt":"2015-13-01"}"#, "data.date",
                #"not an ISO-8601 date-time: "2015-13-01" (expected e.g. 2015-03-23T00:00:00.000Z)"#, "createdAt"
            ),
            (
                #"{"objectId":"a","updatedAt":1427068800000}"#, "data.field",
                "must be an ISO-8601 date string or a Date, not a number", "updatedAt"
            ),
            (
                #"{"objectId":"a","updatedAt":{"__type":"Date","iso":"x"}}"#, "data.date", "Date field 'iso'",
                "updatedAt.iso"
            ),
            (
                #"{"objectId":"a","address":{"__type":"Pointer","className":"Address"}}"#, "data.wrapper",
                "Pointer is missing 'objectId'", "address"
            ),
        ] as [(String, String, String, String)])
    func malformedRecords(text: String, code: String, message: String, path: String) throws {
        let object = try #require(try JSONParser().parse(text).objectValue)
        var caught: ValueDecodingError?
        do { _ = try ParseJSON.decodeRecord(object) } catch { caught = error }
        let e = try #require(caught)
        #expect(e.code == code)
        #expect(e.message.contains(message), "message was: \(e.message)")
        #expect(e.path.description == path)
    }

    @Test func missingObjectIdTakesTheDefault() throws {
        let r = try ParseJSON.decodeRecord(["name": "x"], defaultObjectId: "Thing-1")
        #expect(r.objectId == "Thing-1")
        #expect(r.fieldOrder == ["name"])
    }
}

/// A random value of every kind `ParseJSON.decode` can produce.
func randomValue(_ rng: inout SplitMix64, depth: Int) -> Value {
    func string() -> String {
        let alphabet = ["a", "B", "é", "😀", "\"", "\n", " ", "日"]
        return (0..<(1 + rng.next() % 6)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
    }
    func double() -> Double { Double(Int64(bitPattern: rng.next()) % 1_000_000) / 1000 }
    switch rng.next() % (depth > 0 ? 15 : 13) {
    case 0: return .null
    case 1: return .bool(rng.next() % 2 == 0)
    case 2: return .int(Int64(bitPattern: rng.next()) >> (rng.next() % 64))
    case 3: return .double(double() + 0.5)
    case 4: return .string(string())
    case 5: return .date(Int64(rng.next() % 253_402_300_800_000))
    case 6: return .bytes((0..<(rng.next() % 9)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    case 7: return .geoPoint(GeoPoint(latitude: double(), longitude: double()))
    case 8: return .polygon((0..<(3 + rng.next() % 3)).map { _ in GeoPoint(latitude: double(), longitude: double()) })
    case 9: return .pointer(Pointer(className: string(), objectId: string()))
    case 10: return .relation(className: string(), objectIds: (0..<(rng.next() % 3)).map { _ in string() })
    case 11: return .file(FileRef(name: string(), url: rng.next() % 2 == 0 ? nil : string()))
    case 12: return .string("__type")
    case 13: return .array((0..<(rng.next() % 4)).map { _ in randomValue(&rng, depth: depth - 1) })
    default:
        var fields: [String: Value] = [:]
        for _ in 0..<(rng.next() % 4) { fields[string()] = randomValue(&rng, depth: depth - 1) }
        if rng.next() % 4 == 0 {
            fields["__type"] = "Object"
            fields["className"] = .string(string())
            fields["objectId"] = .string(string())
            fields["createdAt"] = .date(Int64(rng.next() % 4_102_444_800_000))
        }
        return .object(fields)
    }
}
