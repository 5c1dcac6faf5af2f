import Testing

@testable import QuarryCLI

/// `--format`'s golden outputs, the terminal/pipe default, and colour
/// (docs/ARCHITECTURE.md#output-formats, docs/ARCHITECTURE.md#terminals-and-pipes).
@Suite struct OutputFormatTests {
    static let data = """
        [{"objectId":"a","name":"Ann, \\"A\\"","age":31,"tags":["x","y"]},
         {"objectId":"b","name":"Bo|b","age":null},
         {"objectId":"c","name":"Cy\\nline","age":7.5}]
        """

    func run(_ format: String?, terminal: Bool = false, environment: [String: String] = [:], extra: [String] = [])
        throws -> Outcome
    {
        let file = try DataFixture(Self.data, name: "T.json")
        let args =
            ["run", "--data", file.path, "--order", "objectId"] + (format.map { ["--format", $0] } ?? []) + extra
        return quarry(args + ["objectId != 'z'"], terminal: terminal, environment: environment)
    }

    @Test func ndjson() throws {
        let r = try run("ndjson")
        #expect(r.status == 0)
        #expect(
            r.out == """
                {"objectId":"a","name":"Ann, \\"A\\"","age":31,"tags":["x","y"]}
                {"objectId":"b","name":"Bo|b","age":null}
                {"objectId":"c","name":"Cy\\nline","age":7.5}

                """)
    }

    @Test func json() throws {
        let r = try run("json")
        #expect(
            r.out == """
                {"results":[
                {"objectId":"a","name":"Ann, \\"A\\"","age":31,"tags":["x","y"]},
                {"objectId":"b","name":"Bo|b","age":null},
                {"objectId":"c","name":"Cy\\nline","age":7.5}
                ]}

                """)
    }

    @Test func table() throws {
        let r = try run("table")
        #expect(
            r.out == """
                objectId | name     |  age | tags
                ---------+----------+------+-----------
                a        | Ann, "A" |   31 | ["x", "y"]
                b        | Bo|b     | null |
                c        | Cy\\nline |  7.5 |
                (3 rows)

                """)
    }

    @Test func box() throws {
        let r = try run("box")
        #expect(
            r.out == """
                ┌──────────┬──────────┬──────┬────────────┐
                │ objectId │ name     │ age  │ tags       │
                ├──────────┼──────────┼──────┼────────────┤
                │ a        │ Ann, "A" │   31 │ ["x", "y"] │
                │ b        │ Bo|b     │ null │            │
                │ c        │ Cy\\nline │  7.5 │            │
                └──────────┴──────────┴──────┴────────────┘

                """)
    }

    @Test func csv() throws {
        let r = try run("csv")
        #expect(
            r.out
                == "objectId,name,age,tags\r\na,\"Ann, \"\"A\"\"\",31,\"[\"\"x\"\", \"\"y\"\"]\"\r\nb,Bo|b,,\r\nc,\"Cy\nline\",7.5,\r\n"
        )
    }

    @Test func markdown() throws {
        let r = try run("markdown")
        #expect(
            r.out == """
                | objectId | name | age | tags |
                | --- | --- | ---: | --- |
                | a | Ann, "A" | 31 | ["x", "y"] |
                | b | Bo\\|b | null |  |
                | c | Cy<br>line | 7.5 |  |

                """)
    }

    @Test func aTerminalGetsATableAndAPipeNDJSON() throws {
        #expect(try run(nil, terminal: true).out.hasPrefix("\u{1B}[1mobjectId | name"))
        #expect(try run(nil, terminal: true, environment: ["NO_COLOR": "1"]).out.hasPrefix("objectId | name"))
        #expect(try run(nil, terminal: false).out.hasPrefix(#"{"objectId":"a""#))
    }

    @Test func colourFollowsTheTerminalNoColorAndTheOption() throws {
        let bold = "\u{1B}[1m"
        #expect(try run("table", terminal: true).out.contains(bold))
        #expect(!(try run("table", terminal: true, environment: ["NO_COLOR": "1"]).out.contains(bold)))
        // An empty NO_COLOR does not count (no-color.org).
        #expect(try run("table", terminal: true, environment: ["NO_COLOR": ""]).out.contains(bold))
        #expect(!(try run("table", terminal: false).out.contains(bold)))
        #expect(try run("table", terminal: false, extra: ["--color", "always"]).out.contains(bold))
        #expect(!(try run("table", terminal: true, extra: ["--color", "never"]).out.contains(bold)))
    }

    @Test func diagnosticsAreColouredOnlyOnATerminalWithoutNoColor() {
        let coloured = quarry(["check", "age > AND x = 1"], terminal: true)
        #expect(coloured.status == 1)
        #expect(coloured.err.hasPrefix("\u{1B}[1;31merror[syntax.unexpected-token]\u{1B}[0m\u{1B}[1m: expected"))
        #expect(coloured.err.contains("\u{1B}[1;31m^^^\u{1B}[0m"))
        let plain = quarry(["check", "age > AND x = 1"], terminal: true, environment: ["NO_COLOR": "yes"])
        #expect(plain.err.hasPrefix("error[syntax.unexpected-token]: expected"))
        #expect(!plain.err.contains("\u{1B}"))
        #expect(!quarry(["check", "age > AND x = 1"]).err.contains("\u{1B}"))
        #expect(quarry(["check", "--color", "always", "age > AND x = 1"]).err.contains("\u{1B}[1;31m"))
    }

    @Test func jsonConflictsWithAnotherFormat() throws {
        let r = try run("csv", extra: ["--json"])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("Error: --json prints JSON; it cannot be used with --format csv."))
    }
}
