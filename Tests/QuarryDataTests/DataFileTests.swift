import Foundation
import Testing
@testable import QuarryData
import QuarryCore

private func load(
    _ text: String, file: String = "data.json", className: String = "Thing",
    format: DataFile.Format = .auto
) throws(DataFileError) -> Database {
    try DataFile.load(bytes: Array(text.utf8), fileName: file, className: className, format: format)
}

private func loadFailure(
    _ text: String, file: String = "data.json", className: String = "Thing",
    format: DataFile.Format = .auto
) -> DataFileError? {
    do {
        _ = try load(text, file: file, className: className, format: format)
        return nil
    } catch {
        return error
    }
}

private let samplePath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Samples/sample.json").path

@Suite struct DataFileTests {
    // MARK: The bundled sample

    @Test func sampleDatabaseLoads() throws {
        let db = try DataFile.load(path: samplePath)
        #expect(db.classNames == ["Address", "Contact", "PhoneBook", "Friend", "Order"])
        #expect(db.classNames.map { db[$0]?.records.count ?? -1 } == [4, 6, 2, 4, 5])
        let contact = try #require(db["Contact"])
        #expect(contact.records.map(\.objectId) == ["k1", "k2", "k3", "k4", "k5", "k6"])
        #expect(contact.fieldTypes["address"] == .pointer(to: "Address"))
        #expect(contact.fieldTypes["tags"] == .array(of: .string))
        #expect(contact.fieldTypes["createdAt"] == .date)
        #expect(contact.record("k3")?["title"] == "Café owner")
        #expect(contact.record("k6")?["address"] == nil)
        #expect(contact.record("k6")?["email"] == .null)
        let k1 = try #require(contact.record("k1"))
        guard case .pointer(let address)? = k1["address"] else { Issue.record("k1.address is not a pointer"); return }
        #expect(db.resolve(address)?["city"] == "Smallville")
        #expect(db["PhoneBook"]?.fieldTypes["contacts"] == .relation(to: "Contact"))
        guard case .array(let contacts)? = db["PhoneBook"]?.record("pb1")?["contacts"] else {
            Issue.record("pb1.contacts is not an array")
            return
        }
        #expect(contacts.count == 5)
        #expect(
            db["Friend"]?.record("f1")?["coordinates"] == .geoPoint(GeoPoint(latitude: 30.26715, longitude: -97.74306)))
        #expect(db["Friend"]?.record("f4")?["coordinates"] == nil)
        #expect(db["Order"]?.record("o2")?["updated"] == .date(1_427_068_800_000))
        #expect(db["Order"]?.record("o3")?["orderAmount"] == .double(100.5))
        #expect(db["Order"]?.record("o5")?["orderAmount"] == .null)
        #expect(db["Order"]?.record("o5")?["updated"] == nil)
    }

    @Test func sampleRecordsWriteBackAndReload() throws {
        let db = try DataFile.load(path: samplePath)
        for name in db.classNames {
            var lines: [UInt8] = []
            for r in db[name]?.records ?? [] {
                ParseJSON.write(r, to: &lines)
                lines.append(0x0A)
            }
            let again = try DataFile.load(bytes: lines, fileName: "\(name).ndjson", className: name, format: .ndjson)
            #expect(again[name]?.records == db[name]?.records)
        }
    }

    // MARK: Layouts

    @Test func arrayOfObjectsGoesIntoTheCallersClass() throws {
        let db = try load(#"[{"objectId":"a","n":1},{"objectId":"b","n":2}]"#, className: "Item")
        #expect(db.classNames == ["Item"])
        #expect(db["Item"]?.records.map(\.objectId) == ["a", "b"])
    }

    @Test func parseExportWithResultsAndCount() throws {
        let db = try load(#"{"results":[{"objectId":"a"},{"objectId":"b"}],"count":2}"#, className: "Item")
        #expect(db.classNames == ["Item"])
        #expect(db["Item"]?.records.count == 2)
        #expect(try load(#"{"count":1,"results":[{"objectId":"a"}]}"#)["Thing"]?.records.count == 1)
    }

    @Test func ndjsonIsDetectedByContent() throws {
        let text =
            "\u{FEFF}{\"objectId\":\"a\",\"n\":1}\r\n\n{\"objectId\":\"b\",\"createdAt\":\"2015-03-23T00:00:00Z\"}\n"
        let db = try load(text, className: "Item")
        #expect(db["Item"]?.records.map(\.objectId) == ["a", "b"])
        #expect(db["Item"]?.record("b")?["createdAt"] == .date(1_427_068_800_000))
    }

    @Test func ndjsonIsDetectedByExtension() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-datafile-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Single.ndjson")
        try Data(#"{"tags":["x"],"objectId":"only"}"#.utf8).write(to: file)
        let db = try DataFile.load(path: file.path)
        #expect(db.classNames == ["Single"])
        #expect(db["Single"]?.record("only")?["tags"] == ["x"])
    }

    @Test func emptyClassesAndEmptyDatabases() throws {
        #expect(try load(#"{"A":[],"B":[{"objectId":"b"}]}"#).classNames == ["A", "B"])
        #expect(try load("{}").classNames.isEmpty)
        #expect(try load("[]").classNames == ["Thing"])
        #expect(try load("", format: .ndjson)["Thing"]?.records.isEmpty == true)
    }

    @Test func missingObjectIdsAreGeneratedFromClassAndPosition() throws {
        let db = try load(#"[{"n":1},{"objectId":"x"},{"n":3}]"#, className: "Item")
        #expect(db["Item"]?.records.map(\.objectId) == ["Item-1", "x", "Item-3"])
    }

    @Test(arguments: [
        ("data/Contact.json", "Contact"), ("Contact.ndjson", "Contact"), ("x.tar.gz", "x.tar"),
        (".hidden", ".hidden"), ("noext", "noext"), ("/a/b/", "b"),
    ])
    func defaultClassNameIsTheFileBaseName(path: String, expected: String) {
        #expect(DataFile.defaultClassName(forPath: path) == expected)
    }

    // MARK: Errors name the file, line:column, class, object and field

    @Test func wrapperErrorNamesEverything() throws {
        let text = """
            {"Contact": [
              {"objectId": "k1"},
              {"objectId": "k2"},
              {"objectId": "k3", "name": "Ken",
               "address": {"__type": "Pointer", "className": "Address"}}
            ]}
            """
        let e = try #require(loadFailure(text))
        #expect(
            e.description
                == "data.json:5:15: class 'Contact', object #3 (objectId 'k3'), field 'address': Pointer is missing 'objectId'"
        )
        #expect(e.code == "data.wrapper")
        #expect((e.className, e.objectIndex, e.objectId, e.field) == ("Contact", 3, "k3", "address"))
    }

    @Test(
        arguments: [
            (
                #"{"A":[{"objectId":"a","d":{"__type":"Date","iso":"2015-02-30"}}]}"#,
                #"data.json:1:50: class 'A', object #1 (objectId 'a'), field 'd.iso': Date field 'iso' is not an ISO-8601 date-time: "2015-02-30" (expected e.g. 2015-03-23T00:00:00.000Z)"#
            ),
            (
                #"{"A":[{"objectId":"a"},{"objectId":"b","createdAt":"soon"}]}"#,
                #"data.json:1:52: class 'A', object #2 (objectId 'b'), field 'createdAt': not an ISO-8601 date-time: "soon" (expected e.g. 2015-03-23T00:00:00.000Z)"#
            ),
            (
                #"{"A":[{"objectId":"a","p":[1,{"__type":"Polygon","coordinates":[[0,0]]}]}]}"#,
                "data.json:1:64: class 'A', object #1 (objectId 'a'), field 'p[1].coordinates': Polygon needs at least 3 points, found 1"
            ),
            (
                #"{"A":[{"objectId":"a"},{"objectId":"b"},{"objectId":"a"}]}"#,
                "data.json:1:53: class 'A', object #3 (objectId 'a'), field 'objectId': objectId 'a' is already used by object #1"
            ),
            (
                #"[{"n":1},{"objectId":"Thing-1"}]"#,
                "data.json:1:22: class 'Thing', object #2 (objectId 'Thing-1'), field 'objectId': objectId 'Thing-1' is already used by object #1"
            ),
            (
                #"{"A":[{"objectId":7}]}"#,
                "data.json:1:19: class 'A', object #1, field 'objectId': must be a string, not a number"
            ),
            (
                #"{"A":[{"objectId":"a"},42]}"#,
                "data.json:1:24: class 'A', object #2: expected an object but found a number"
            ),
            (
                #"{"A":[{"objectId":"a" "b":1}]}"#,
                "data.json:1:23: class 'A', object #1: expected ',' or '}' after an object member but found '\"'"
            ),
            (
                #"{"A":[{"objectId":"a"} {"objectId":"b"}]}"#,
                "data.json:1:24: class 'A': expected ',' or ']' after an object but found '{'"
            ),
            (
                #"{"A":[{"objectId":"a"},]}"#,
                "data.json:1:24: class 'A': expected an object after ',' but found ']' (JSON does not allow trailing commas)"
            ),
            (
                #"{"A":{"objectId":"a"}}"#,
                "data.json:1:6: expected an array of objects for class 'A' but found an object"
            ),
            (
                #"{"objectId":"a","n":1}"#,
                "data.json:1:13: expected an array of objects for class 'objectId' but found a string (a file of one object a line needs a .ndjson name)"
            ),
            (#"{"A":[],"A":[]}"#, "data.json:1:9: class 'A' appears twice in the file"),
            (
                #"{"A":[],}"#,
                "data.json:1:9: expected a class name after ',' but found '}' (JSON does not allow trailing commas)"
            ),
            (
                #"{"count":2,"A":[]}"#,
                "data.json:1:10: expected an array of objects for class 'count' but found a number"
            ),
            (#"{"results":[],"Thing":[]}"#, "data.json:1:15: class 'Thing' appears twice in the file"),
            (#"{"":[]}"#, "data.json:1:2: a class name must not be empty"),
            (#"{"A":[]"#, "data.json:1:8: expected ',' or '}' after a class but found the end of the input"),
            (#"{"A":[]} []"#, "data.json:1:10: expected the end of the input after the JSON value but found '['"),
            (
                "\"hello\"",
                #"data.json:1:1: expected an object of classes ({"Class": [objects…]}), an array of objects, {"results": [objects…]} or one object a line (NDJSON), but found a string"#
            ),
            (
                "  \n ",
                "data.json:2:2: the file is empty: expected an object of classes ({\"Class\": [objects…]}), an array of objects, {\"results\": [objects…]} or one object a line (NDJSON)"
            ),
            (
                "[{\"objectId\":\"a\",\"s\":\"caf\u{E9}\u{1}\"}]",
                "data.json:1:27: class 'Thing', object #1: the control character U+0001 must be escaped inside a string"
            ),
        ] as [(String, String)])
    func errorsAreLocatedAndNamed(text: String, expected: String) throws {
        let e = try #require(loadFailure(text), "should fail: \(text)")
        #expect(e.description == expected)
    }

    @Test func ndjsonErrorsNameTheLine() throws {
        let text = "{\"objectId\":\"a\"}\n\n{\"objectId\":}\n"
        let e = try #require(loadFailure(text, file: "rows.ndjson", format: .ndjson))
        #expect(e.description == "rows.ndjson:3:13: class 'Thing', object #2: expected a value but found '}'")
        #expect(e.code == "json.syntax")
        let notObject = try #require(loadFailure("{\"objectId\":\"a\"}\n[1]\n", file: "rows.ndjson"))
        #expect(
            notObject.description == "rows.ndjson:2:1: class 'Thing', object #2: expected an object but found an array")
    }

    @Test func nestingLimitAppliesToTheWholeDocument() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let e = try #require(loadFailure(#"{"A":[{"objectId":"a","x":\#(deep)}]}"#))
        #expect(e.code == "json.depth")
        #expect(e.message == "arrays and objects are nested deeper than the limit of 512")
        #expect((e.className, e.objectIndex) == ("A", 1))
        // The object and the two layers around it count: 509 more arrays fit, 510 do not.
        let fits = String(repeating: "[", count: 509) + String(repeating: "]", count: 509)
        #expect(try load(#"{"A":[{"objectId":"a","x":\#(fits)}]}"#)["A"]?.records.count == 1)
    }

    @Test func unreadableFiles() throws {
        do {
            _ = try DataFile.load(path: "/nonexistent/quarry/data.json")
            Issue.record("should fail")
        } catch {
            #expect(error.code == "data.io")
            #expect(
                error.description == "/nonexistent/quarry/data.json: cannot read the file: No such file or directory")
        }
        do {
            _ = try DataFile.load(path: "/tmp")
            Issue.record("a directory should fail")
        } catch {
            #expect(error.code == "data.io")
        }
    }
}
