import QuarryCore
import QuarryEngine
import QuarryTestSupport
import Testing

/// The byte-level reader of stored documents (docs/STORAGE.md#reading-rows) against the
/// writer and the full decoder: every value comes back exactly, and a document that is not
/// one is the store's corruption error, never a crash or a wrong record.
@Suite struct StoredRecordReaderTests {
    static let code = DiagnosticCode(rawValue: "test.corrupt")

    func read(_ record: Record) throws -> Record {
        var bytes: [UInt8] = []
        StoredRecordCodec.write(record, to: &bytes)
        return try bytes.withUnsafeBufferPointer {
            try StoredRecordReader.record($0, objectId: record.objectId, corruption: Self.code)
        }
    }

    func read(_ text: String, fields: Set<String>? = nil) throws -> Record {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer {
            try StoredRecordReader.record($0, objectId: "o1", fields: fields, corruption: Self.code)
        }
    }

    /// Rows read one after another with the names of the rows before (FieldNames) come back
    /// as they do alone, whatever changes from row to row: names added, dropped, reordered or
    /// repeated, escaped, `objectId` in the document, some names not wanted.
    @Test(arguments: [nil, ["b", "c", "é"]] as [Set<String>?])
    func rowsSharingNamesComeBackAsAlone(fields: Set<String>?) throws {
        let rows = [
            #"[["a",1],["b","x"],["c",true]]"#, #"[["a",2],["b","y"],["c",false]]"#, #"[["a",3],["b","z"]]"#,
            #"[["a",4],["b","w"],["c",null],["d",5]]"#, #"[["b","v"],["a",6]]"#, #"[]"#, #"[["a",7],["a",8],["c",1]]"#,
            #"[["\u0061",9],["b","u"]]"#, #"[["objectId","zz"],["a",10],["b","t"],["c",2]]"#,
            #"[["é",11],["b","s"],["c",3]]"#, #"[["a",12],["b","r"],["c",4]]"#, #"[["a",12],["b","r"],["c",4]]"#,
            // After two rows of one order, rows that leave it part way: another name, a name
            // again, `objectId`, an early end, one more name.
            #"[["a",13],["x","q"],["c",5]]"#, #"[["a",12],["b","r"],["c",4]]"#, #"[["a",12],["b","r"],["c",4]]"#,
            #"[["a",14],["a",15],["c",6]]"#, #"[["a",12],["b","r"],["c",4]]"#, #"[["a",12],["b","r"],["c",4]]"#,
            #"[["a",16],["objectId","p"],["b","o"],["c",7]]"#, #"[["a",12],["b","r"],["c",4]]"#,
            #"[["a",12],["b","r"],["c",4]]"#, #"[["a",17]]"#, #"[["a",12],["b","r"],["c",4]]"#,
            #"[["a",12],["b","r"],["c",4]]"#, #"[["a",18],["b","n"],["c",8],["e",9]]"#,
        ]
        let names = StoredRecordReader.FieldNames()
        for text in rows + rows.reversed() {
            let bytes = Array(text.utf8)
            let shared = try bytes.withUnsafeBufferPointer {
                try StoredRecordReader.record($0, objectId: "o1", fields: fields, names: names, corruption: Self.code)
            }
            let alone = try read(text, fields: fields)
            #expect(shared == alone, "\(text)")
            #expect(shared.fieldOrder == alone.fieldOrder, "\(text)")
        }
    }

    /// Doubles of every shape: the short decimals read without parsing text, and the ones
    /// left to the parser (16 and 17 digits, exponents, subnormals, infinities, NaN).
    @Test func everyDoubleComesBackBitForBit() throws {
        var rng = SplitMix64(seed: 7)
        var doubles: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.2, 0.3, 58.29, -96.967772, 3.228735, 123456789012345.6, 1e-05, 1e22, 1e23,
            9_007_199_254_740_993, 5e-324, -5e-324, .leastNormalMagnitude, .greatestFiniteMagnitude,
            .infinity, -.infinity, .nan, 0.000_001_5, 999_999_999_999_999, 1.7976931348623157e308,
        ]
        for _ in 0..<20_000 {
            doubles.append(Double(bitPattern: rng.next()))
            // Decimals of 1 to 17 digits with the point anywhere.
            let digits = Int(rng.next() % 17) + 1
            var m: UInt64 = 0
            for _ in 0..<digits { m = m * 10 + rng.next() % 10 }
            let scale = Int(rng.next() % UInt64(digits + 1))
            let text = (rng.next() % 2 == 0 ? "-" : "") + Self.withPoint(String(m), at: scale)
            doubles.append(Double(text)!)
        }
        for d in doubles {
            let back = try read(
                Record(
                    objectId: "o",
                    fields: [
                        ("d", .double(d)),
                        ("p", .geoPoint(GeoPoint(latitude: d.isFinite ? max(-90, min(90, d)) : 0, longitude: 1.5))),
                    ]))
            guard case .double(let r)? = back["d"] else {
                Issue.record("\(d) came back as \(String(describing: back["d"]))")
                continue
            }
            #expect(r.bitPattern == d.bitPattern || (r.isNaN && d.isNaN), "\(d) came back as \(r)")
        }
    }

    static func withPoint(_ digits: String, at scale: Int) -> String {
        guard scale > 0 else { return digits }
        let padded = String(repeating: "0", count: max(0, scale - digits.count + 1)) + digits
        return String(padded.dropLast(scale)) + "." + String(padded.suffix(scale))
    }

    /// Random records of every value kind read back equal to what was written, in field order.
    @Test func randomRecordsRoundTrip() throws {
        var data = RandomData(seed: 11)
        for i in 0..<3_000 {
            var fields: [(String, Value)] = []
            for k in 0..<data.int(12) {
                if let v = data.value(data.int(8)) { fields.append(("f\(k)", v)) }
            }
            let record = Record(objectId: "o\(i)", fields: fields)
            let back = try read(record)
            #expect(back.fieldOrder == record.fieldOrder)
            for name in record.fieldOrder {
                #expect(Self.same(back.fields[name]!, record.fields[name]!), "\(name): \(record.fields[name]!)")
            }
        }
    }

    /// Equality that holds NaN equal to itself and tells -0.0 from 0.
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.array(let xs), .array(let ys)): return xs.count == ys.count && zip(xs, ys).allSatisfy { same($0, $1) }
        default: return a == b
        }
    }

    @Test func onlyTheWantedFieldsAreKept() throws {
        let r = try read(#"[["a",1],["b",["a",[1,["d","2.5"]]]],["c","x"]]"#, fields: ["a", "c"])
        #expect(r.fieldOrder == ["a", "c"])
        #expect(r["a"] == .int(1))
        #expect(r["c"] == .string("x"))
    }

    /// Damaged documents are the store's corruption error naming the object.
    @Test(arguments: [
        "", "[", "[[\"a\",1]", "[[\"a\",1]]x", "{\"a\":1}", "[[\"a\"]]", "[[1,2]]", "[[\"a\",[\"zz\",1]]]",
        "[[\"a\",[\"d\",\"1.5.5\"]]]", "[[\"a\",99999999999999999999]]", "[[\"a\",\"\\ud800\"]]",
        "[[\"a\",[\"d\",\"abc\"]]]",
    ])
    func damagedDocumentsAreCorruption(_ text: String) {
        #expect {
            try read(text)
        } throws: { error in
            guard let d = error as? Diagnostic else { return false }
            return d.code == Self.code.rawValue && d.message.contains("o1")
        }
    }
}
