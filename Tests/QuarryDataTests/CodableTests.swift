import Foundation
import QuarryCore
import QuarryData
import Testing

/// `ValueDecoder`/`ValueEncoder` and the Parse REST form of `Record: Codable`
/// (docs/API.md#codable, docs/API.md#parse-rest-json).
@Suite struct CodableTests {
    /// One value of every kind, with the edge cases of each.
    static let everyKind: [(String, Value)] = [
        ("null", .null), ("yes", .bool(true)), ("no", .bool(false)),
        ("zero", .int(0)), ("max", .int(.max)), ("min", .int(.min)),
        ("half", .double(0.5)), ("negativeZero", .double(-0.0)), ("tiny", .double(5e-324)),
        ("huge", .double(1.7976931348623157e308)),
        ("text", .string("naïve e\u{301} 🧭 ｶﾀｶﾅ \"q\" \\ \n\t\u{0}")), ("empty", .string("")),
        ("when", .date(1_427_068_800_123)), ("before1970", .date(-1)), ("farFuture", .date(253_402_300_799_999)),
        ("bytes", .bytes([0, 1, 254, 255])), ("noBytes", .bytes([])),
        ("place", .geoPoint(GeoPoint(latitude: -33.5, longitude: 151.25))),
        (
            "area",
            .polygon([
                GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 1, longitude: 0),
                GeoPoint(latitude: 0, longitude: 1),
            ])
        ),
        ("owner", .pointer(Pointer(className: "_User", objectId: "u1"))),
        ("friends", .relation(className: "_User", objectIds: ["u1", "u2"])),
        ("file", .file(FileRef(name: "a.png", url: "https://x/a.png"))), ("bareFile", .file(FileRef(name: "b"))),
        ("list", .array([.int(1), .string("two"), .array([]), .object([:]), .null])), ("noList", .array([])),
        (
            "nested",
            .object(["a": .object(["b": .array([.date(0), .pointer(Pointer(className: "C", objectId: "c"))])])])
        ),
        ("noObject", .object([:])), ("ключ 🔑", .string("unicode key")),
    ]

    static let record = Record(
        objectId: "r1",
        fields: [("createdAt", .date(1_427_068_800_000)), ("updatedAt", .date(1_427_068_800_001))] + everyKind)

    /// Value equality treats 0.0 and -0.0 as equal; the sign must survive too.
    static func sameBits(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameBits)
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { sameBits(v, $0) } ?? false }
        default: return a == b
        }
    }

    @Test func recordsRoundTripThroughJSONEncoderAndDecoder() throws {
        let data = try JSONEncoder().encode(Self.record)
        let back = try JSONDecoder().decode(Record.self, from: data)
        #expect(back.objectId == "r1")
        #expect(Set(back.fieldOrder) == Set(Self.record.fieldOrder))
        for (name, value) in Self.record.fields {
            #expect(back.fields[name].map { Self.sameBits($0, value) } == true, "\(name)")
        }
        // What the coders write is Parse's form: `Record(json:)` reads it.
        let read = try Record(json: String(decoding: data, as: UTF8.self))
        for (name, value) in Self.record.fields {
            #expect(read.fields[name].map { Self.sameBits($0, value) } == true, "\(name)")
        }
    }

    @Test func parseDateRulesOneForEveryDate() throws {
        let record = Record(
            objectId: "a",
            fields: [("createdAt", .date(0)), ("due", .date(0)), ("nested", .object(["at": .date(0)]))])
        #expect(
            record.json
                == #"{"objectId":"a","createdAt":"1970-01-01T00:00:00.000Z","due":{"__type":"Date","iso":"1970-01-01T00:00:00.000Z"},"nested":{"at":{"__type":"Date","iso":"1970-01-01T00:00:00.000Z"}}}"#
        )
        // Either form reads back as a date, for createdAt and updatedAt.
        let wrapped = try Record(
            json: #"{"objectId":"a","createdAt":{"__type":"Date","iso":"1970-01-01T00:00:00.000Z"}}"#)
        #expect(wrapped.fields["createdAt"] == .date(0))
        #expect(try Record(json: record.json) == record)
        #expect(try Value(json: Value.date(0).json) == .date(0))
    }

    @Test func nonFiniteDoublesAreTheCodersToHandle() throws {
        let record = Record(
            objectId: "n", fields: [("nan", .double(.nan)), ("inf", .double(.infinity)), ("ninf", .double(-.infinity))])
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(record) }
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        let back = try decoder.decode(Record.self, from: encoder.encode(record))
        #expect(back.fields["nan"]?.numericValue?.isNaN == true)
        #expect(back.fields["inf"] == .double(.infinity))
        #expect(back.fields["ninf"] == .double(-.infinity))
        // `json` writes what JSON can hold.
        #expect(record.json == #"{"objectId":"n","nan":null,"inf":null,"ninf":null}"#)
    }

    @Test func everyValueRoundTripsThroughValueEncoderAndDecoder() throws {
        for (name, value) in Self.everyKind {
            let decoded = try ValueDecoder().decode(Value.self, from: value)
            #expect(Self.sameBits(try ValueEncoder().encode(decoded), value), "\(name)")
        }
        let object = Value.object(Self.record.fields.merging(["objectId": "r1"]) { a, _ in a })
        let record = try ValueDecoder().decode(Record.self, from: object)
        #expect(record.objectId == "r1")
        #expect(record.fields == Self.record.fields)
        #expect(try ValueEncoder().encodeRecord(Self.record) == Self.record)
        #expect(try ValueEncoder().encodeRecord(object).fields == Self.record.fields)
    }

    struct Address: Codable, Equatable {
        var city: String
        var zip: Int?
    }

    struct Contact: Codable, Equatable {
        var objectId: String
        var createdAt: Date
        var name: String
        var age: Int8
        var big: Int64
        var small: Int64
        var unsigned: UInt64
        var score: Double
        var ratio: Float
        var negativeZero: Double
        var nan: Double
        var inf: Double
        var married: Bool
        var photo: Data
        var raw: [UInt8]
        var home: GeoPoint
        var boss: Pointer?
        var resume: FileRef
        var tags: [String]
        var empty: [Int]
        var address: Address
        var history: [Address]
        var scores: [String: Double]
        var anything: Value
        var nickname: String?

        static func == (a: Contact, b: Contact) -> Bool {
            a.objectId == b.objectId && a.createdAt == b.createdAt && a.name == b.name && a.age == b.age
                && a.big == b.big && a.small == b.small && a.unsigned == b.unsigned && a.score == b.score
                && a.ratio == b.ratio && a.negativeZero.bitPattern == b.negativeZero.bitPattern && a.nan.isNaN
                && b.nan.isNaN && a.inf == b.inf && a.married == b.married && a.photo == b.photo && a.raw == b.raw
                && a.home == b.home && a.boss == b.boss && a.resume == b.resume && a.tags == b.tags
                && a.empty == b.empty && a.address == b.address && a.history == b.history && a.scores == b.scores
                && a.anything == b.anything && a.nickname == b.nickname
        }
    }

    static let contact = Contact(
        objectId: "c1", createdAt: Date(millisecondsSince1970: 1_427_068_800_123), name: "Zoë 🧭", age: -128,
        big: .max, small: .min, unsigned: UInt64(Int64.max), score: 9.5, ratio: 0.25, negativeZero: -0.0, nan: .nan,
        inf: -.infinity, married: false, photo: Data([0xFF, 0, 7]), raw: [],
        home: GeoPoint(latitude: 10, longitude: 20),
        boss: Pointer(className: "Contact", objectId: "c0"), resume: FileRef(name: "cv.pdf"), tags: ["a", "ä"],
        empty: [], address: Address(city: "Austin", zip: nil), history: [Address(city: "Dallas", zip: 75201)],
        scores: ["math": 1, "art": -2.5],
        anything: .polygon([
            GeoPoint(latitude: 0, longitude: 0),
            GeoPoint(latitude: 1, longitude: 1), GeoPoint(latitude: 0, longitude: 1),
        ]), nickname: nil)

    @Test func swiftTypesRoundTripThroughRecords() throws {
        let record = try ValueEncoder().encodeRecord(Self.contact)
        #expect(record.objectId == "c1")
        #expect(record.fieldOrder.first == "createdAt")
        #expect(record.fields["createdAt"] == .date(1_427_068_800_123))
        #expect(record.fields["photo"] == .bytes([0xFF, 0, 7]))
        #expect(record.fields["boss"] == .pointer(Pointer(className: "Contact", objectId: "c0")))
        #expect(record.fields["home"] == .geoPoint(GeoPoint(latitude: 10, longitude: 20)))
        #expect(record.fields["address"] == .object(["city": "Austin"]))
        #expect(record.fields["nickname"] == nil)
        let back = try ValueDecoder().decode(Contact.self, from: record)
        #expect(back == Self.contact)
    }

    @Test func wrapperValuesReadAsPlainStructsAndArrays() throws {
        struct Place: Decodable { var latitude: Double; var longitude: Double }
        struct Link: Decodable { var className: String; var objectId: String }
        #expect(
            try ValueDecoder().decode(Place.self, from: .geoPoint(GeoPoint(latitude: 1, longitude: 2))).longitude == 2)
        #expect(
            try ValueDecoder().decode(Link.self, from: .pointer(Pointer(className: "C", objectId: "x"))).objectId == "x"
        )
        let polygon = Value.polygon([
            GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 1, longitude: 1),
            GeoPoint(latitude: 0, longitude: 1),
        ])
        #expect(try ValueDecoder().decode([GeoPoint].self, from: polygon).count == 3)
        let relation = Value.relation(className: "U", objectIds: ["a", "b"])
        #expect(
            try ValueDecoder().decode([Pointer].self, from: relation) == [
                Pointer(className: "U", objectId: "a"), Pointer(className: "U", objectId: "b"),
            ])
        // An integral double reads as an integer; 2.5 does not.
        #expect(try ValueDecoder().decode(Int.self, from: .double(3)) == 3)
        #expect(throws: Diagnostic.self) { try ValueDecoder().decode(Int.self, from: .double(2.5)) }
    }

    /// Each failure names the coding path, in `path` and in the message.
    @Test func decodingErrorsCarryTheCodingPath() throws {
        let base: [String: Value] = [
            "objectId": "c1", "createdAt": .date(0), "name": "n", "age": 1, "big": 1, "small": 1, "unsigned": 1,
            "score": 1, "ratio": 1, "negativeZero": 0, "nan": 0, "inf": 0, "married": true, "photo": .bytes([]),
            "raw": .bytes([]), "home": .geoPoint(GeoPoint(latitude: 0, longitude: 0)),
            "resume": .file(FileRef(name: "f")),
            "tags": [], "empty": [], "address": .object(["city": "x"]), "history": [], "scores": .object([:]),
            "anything": .null,
        ]
        #expect(throws: Never.self) { try ValueDecoder().decode(Contact.self, from: .object(base)) }
        let cases: [(String, Value?, String, String)] = [
            ("age", 300, "age", "the number 300 does not fit Int8"),
            ("name", nil, "name", "the field 'name' is missing"),
            ("name", .null, "name", "expected a string, found null"),
            ("married", "yes", "married", #"expected a bool, found a string ("yes")"#),
            ("createdAt", "2015-01-01", "createdAt", #"expected a date, found a string ("2015-01-01")"#),
            ("unsigned", -1, "unsigned", "the number -1 does not fit UInt64"),
            ("address", .object(["city": 5]), "address.city", "expected a string, found an int (5)"),
            ("history", [.object(["city": "a"]), .object([:])], "history[1].city", "the field 'city' is missing"),
            ("tags", ["a", .bool(true)], "tags[1]", "expected a string, found a bool (true)"),
            ("scores", .object(["x": "high"]), "scores.x", #"expected a number, found a string ("high")"#),
            ("home", .int(3), "home", "expected a geo point, found an int (3)"),
            ("ratio", .double(1e300), "ratio", "the number 1e+300 does not fit Float"),
        ]
        for (field, value, path, reason) in cases {
            var fields = base
            fields[field] = value
            do {
                _ = try ValueDecoder().decode(
                    Contact.self,
                    from: Record(
                        objectId: "c1", fields: fields.filter { $0.key != "objectId" }.map { ($0.key, $0.value) }),
                    className: "Contact")
                Issue.record("expected data.decode for \(field)")
            } catch {
                #expect(error.code == "data.decode")
                #expect(error.path == path)
                #expect(error.message == "cannot decode object 'c1' of Contact as Contact at \(path): \(reason)")
            }
        }
    }

    @Test func encodingErrors() throws {
        struct Big: Encodable { var objectId = "b"; var n: UInt64 = UInt64(Int64.max) + 1 }
        do {
            _ = try ValueEncoder().encodeRecord(Big())
            Issue.record("expected data.encode")
        } catch {
            #expect(error.code == "data.encode")
            #expect(error.path == "n")
        }
        struct Far: Encodable { var objectId = "f"; var at = Date(timeIntervalSince1970: .infinity) }
        #expect(throws: Diagnostic.self) { try ValueEncoder().encodeRecord(Far()) }
        struct NoId: Encodable { var name = "x" }
        do {
            _ = try ValueEncoder().encodeRecord(NoId())
            Issue.record("expected data.object-id")
        } catch {
            #expect(error.code == "data.object-id")
        }
        #expect(try ValueEncoder().encodeRecord(NoId(), defaultObjectId: "d").objectId == "d")
        struct OffGlobe: Encodable { var objectId = "g"; var at = GeoPoint(latitude: 91, longitude: 0) }
        do {
            _ = try ValueEncoder().encodeRecord(OffGlobe())
            Issue.record("expected data.geo-range")
        } catch {
            #expect(error.code == "data.geo-range")
            #expect(error.path == "at.latitude")
        }
        do {
            _ = try ValueEncoder().encodeRecord([1, 2])
            Issue.record("expected data.encode")
        } catch {
            #expect(error.message == "cannot store Array<Int> as an object: it encodes as a array")
        }
    }

    @Test func recordJSONErrorsAreLocated() throws {
        do {
            _ = try Record(json: #"{"objectId":"a","when":{"__type":"Date","iso":"soon"}}"#)
            Issue.record("expected data.date")
        } catch {
            #expect(error.code == "data.date")
            #expect(error.path == "when.iso")
            #expect(error.range != nil)
        }
        #expect(throws: Diagnostic.self) { try Record(json: "[1]") }
        #expect(throws: Diagnostic.self) { try Record(json: #"{"objectId":"a",}"#) }
        // Through a foreign decoder the error is a DecodingError at the coding path.
        do {
            _ = try JSONDecoder().decode([Record].self, from: Data(#"[{"objectId":"a"},{"objectId":7}]"#.utf8))
            Issue.record("expected a DecodingError")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["1", "objectId"])
        }
    }

    @Test func foundationConversions() {
        let date = Date(millisecondsSince1970: 1_427_068_800_123)
        #expect(Value(date) == .date(1_427_068_800_123))
        #expect(Value.date(-1).dateValue == Date(timeIntervalSince1970: -0.001))
        #expect(Value(Date(timeIntervalSince1970: .nan)) == nil)
        #expect(Value(Date.distantFuture) != nil)
        #expect(Value(Data([1])) == .bytes([1]))
        #expect(Value.string("x").dateValue == nil)
    }
}
