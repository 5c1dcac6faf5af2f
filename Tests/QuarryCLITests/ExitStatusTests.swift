@testable import QuarryCLI
import Testing

/// Each exit status of docs/ARCHITECTURE.md#exit-statuses with the exact report that goes with it.
@Suite struct ExitStatusTests {
    let data: DataFixture
    init() throws { data = try DataFixture(DataFixture.contacts) }

    @Test func invalidQueryExits1WithACompilerStyleDiagnostic() {
        let r = quarry(["run", "--data", data.path, "--class", "Contact", "age > AND name = 'x'"])
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(
            r.err == """
                error[syntax.unexpected-token]: expected a value after '>' but found 'AND'
                 --> 1:7
                  |
                1 | age > AND name = 'x'
                  |       ^^^

                """)
    }

    @Test func diagnosticsLocateOnTheRightLineOfAMultiLineQuery() {
        let r = quarry(["check", "-"], stdin: "age > 20\n  AND name = 'x\n")
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error[lex.unterminated-string]"))
        #expect(r.err.contains(" --> 2:14\n"))
        #expect(r.err.contains("2 |   AND name = 'x\n"))
    }

    @Test func unknownColumnAgainstTheDataExits1WithAHint() {
        let r = quarry(["check", "--data", data.path, "--class", "Contact", "agee > 2"])
        #expect(r.status == 1)
        #expect(
            r.err == """
                error[query.unknown-column]: unknown column 'agee' in class Contact; did you mean 'age'?
                 --> 1:1
                  |
                1 | agee > 2
                  | ^^^^
                  = note: columns of Contact: objectId, name, age, score, address

                """)
    }

    @Test func severalClassesWithoutClassIsAUsageErrorListingThem() {
        let r = quarry(["run", "--data", data.path, "age > 1"])
        #expect(r.status == 2)
        #expect(
            r.err.hasPrefix(
                "Error: the data in \(data.path) holds several classes (Contact, Address); choose one with --class\nUsage: quarry run "
            ))
    }

    /// Several `--index` options are declared together; a refused one is still named with its
    /// own error, and nothing runs.
    @Test func aMisspelledIndexAmongSeveralIsAUsageErrorNamingIt() {
        let r = quarry([
            "run", "--data", data.path, "--class", "Contact", "--index", "age", "--index", "nmae:hash", "age > 1",
        ])
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("Error: --index nmae:hash: no object of Contact has a field 'nmae' to index\n"))
        let ok = quarry([
            "run", "--data", data.path, "--class", "Contact", "--index", "age", "--index", "name:hash", "--count",
            "age > 1",
        ])
        #expect(ok.status == 0)
    }

    @Test func unknownClassIsAUsageError() {
        let r = quarry(["run", "--data", data.path, "--class", "Person", "age > 1"])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("Error: the data in \(data.path) has no class 'Person'; it holds Contact, Address\n"))
    }

    @Test func argumentsNeedThePredicateDialect() {
        let r = quarry(["check", "--arg", "1", "age > 1"])
        #expect(r.status == 2)
        #expect(
            r.err.hasPrefix(
                "Error: --arg only applies to --dialect predicate (NSPredicate placeholders and $variables); the dialect here is sql\n"
            ))
    }

    @Test func missingDataFileExits3() {
        let r = quarry(["run", "--data", data.directory + "/none.json", "age > 1"])
        #expect(r.status == 3)
        #expect(
            r.err
                == "error[data.io]: cannot read the file: No such file or directory\n --> \(data.directory)/none.json\n"
        )
    }

    @Test func malformedValueExits3NamingFileClassObjectAndField() throws {
        let bad = try DataFixture(
            """
            {"Contact": [
              {"objectId": "c1", "born": {"__type": "Date", "iso": "2015-03-23T00:00:00.000Z"}},
              {"objectId": "c2", "born": {"__type": "Date", "iso": "yesterday"}}
            ]}
            """)
        let r = quarry(["run", "--data", bad.path, "age > 1"])
        #expect(r.status == 3)
        #expect(
            r.err == """
                error[data.date]: class 'Contact', object #2 (objectId 'c2'), field 'born.iso': Date field 'iso' is not an ISO-8601 date-time: "yesterday" (expected e.g. 2015-03-23T00:00:00.000Z)
                 --> \(bad.path):3:56

                """)
    }

    @Test func truncatedJSONExits3() throws {
        let bad = try DataFixture(#"{"Contact": [{"objectId": "c1"},"#)
        let r = quarry(["run", "--data", bad.path, "age > 1"])
        #expect(r.status == 3)
        #expect(
            r.err
                == "error[json.syntax]: class 'Contact', object #2: expected a value but found the end of the input\n --> \(bad.path):1:33\n"
        )
    }

    @Test func queryErrorsAsJSON() {
        let r = quarry(["run", "--json", "--data", data.path, "--class", "Contact", "name = 'é' AND (age >"])
        #expect(r.status == 1)
        #expect(r.err.isEmpty)
        #expect(
            r.out
                == #"{"ok":false,"errors":[{"code":"syntax.unexpected-end","message":"expected a value after '>' but found the end of the query","line":1,"column":22,"offset":21,"length":0}]}"#
                + "\n")
    }

    @Test func dataErrorsAsJSON() throws {
        let bad = try DataFixture(#"[{"objectId": "x", "p": {"__type": "Pointer", "className": "A"}}]"#, name: "T.json")
        let r = quarry(["run", "--json", "--data", bad.path, "p = 1"])
        #expect(r.status == 3)
        #expect(
            r.out
                == #"{"ok":false,"errors":[{"code":"data.wrapper","message":"class 'T', object #1 (objectId 'x'), field 'p': Pointer is missing 'objectId'","file":"\#(bad.path)","line":1,"column":25,"class":"T","object":1,"objectId":"x","field":"p"}]}"#
                + "\n")
    }

    @Test func standardInputMustBeUTF8() {
        let out = Capture(), err = Capture()
        let console = Console(output: out, error: err, readInput: { _ in [0x61, 0xFF, 0x3D, 0x31] })
        #expect(QuarryTool.run(["check", "-"], console: console) == 1)
        #expect(err.text == "error[input.encoding]: standard input is not valid UTF-8\n")
    }
}

extension ExitStatusTests {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "cannot read standard input: Input/output error" }
    }

    @Test func unreadableStandardInputIsReported() {
        let out = Capture(), err = Capture()
        let console = Console(output: out, error: err, readInput: { _ in throw Unreadable() })
        #expect(QuarryTool.run(["check", "-"], console: console) == 1)
        #expect(err.text == "error[input.read]: cannot read standard input: Input/output error\n")
    }
}
