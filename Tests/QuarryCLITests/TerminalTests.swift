import Foundation
import Testing

/// The real `quarry` executable under a pseudo-terminal and through pipes
/// (docs/ARCHITECTURE.md#terminals-and-pipes, docs/ARCHITECTURE.md#the-shell).
@Suite struct TerminalTests {
    static let up = "\u{1B}[A", left = "\u{1B}[D", ctrlA = "\u{01}", ctrlE = "\u{05}", ctrlC = "\u{03}",
        ctrlD = "\u{04}"

    @Test func runPrintsATableOnATerminalAndNDJSONInAPipe() throws {
        let file = try DataFixture(DataFixture.contacts)
        let args = ["run", "--data", file.path, "--class", "Contact", "--order", "objectId", "score = 7"]
        let tty = try PseudoTerminal(args, directory: file.directory)
        #expect(tty.finish() == 0)
        #expect(tty.text.contains("\u{1B}[1mobjectId | name | age | score | address"))
        #expect(tty.text.contains("c3       | Cid  |  40 |     7 | Address:a2"))
        #expect(tty.text.contains("(2 rows)"))

        let noColor = try PseudoTerminal(args, environment: ["NO_COLOR": "1"], directory: file.directory)
        #expect(noColor.finish() == 0)
        #expect(noColor.text.hasPrefix("objectId | name | age | score | address"))
        #expect(!noColor.text.contains("\u{1B}"))

        let piped = try Executables.runPiped(args, input: "", directory: file.directory)
        #expect(piped.status == 0)
        #expect(piped.out.hasPrefix(#"{"objectId":"c1","name":"Ann""#))
        #expect(!piped.out.contains("\u{1B}"))
    }

    @Test func diagnosticsAreColouredOnATerminalOnly() throws {
        let dir = try DataFixture("[]")
        let tty = try PseudoTerminal(["check", "age > AND x = 1"], directory: dir.directory)
        #expect(tty.finish() == 1)
        #expect(tty.text.contains("\u{1B}[1;31merror[syntax.unexpected-token]"))
        let piped = try Executables.runPiped(["check", "age > AND x = 1"], input: "", directory: dir.directory)
        #expect(piped.status == 1)
        #expect(piped.err.hasPrefix("error[syntax.unexpected-token]: expected"))
    }

    /// Typing at the prompt: editing keys, history recall, Ctrl-C drops a line, Ctrl-D ends.
    @Test func theShellEditsLinesAndRecallsHistory() throws {
        let file = try DataFixture(DataFixture.contacts)
        let history = file.directory + "/history"
        let tty = try PseudoTerminal(
            ["shell", "--data", file.path, "--class", "Contact", "--format", "csv"],
            environment: ["QUARRY_HISTORY": history, "NO_COLOR": "1"], directory: file.directory)
        #expect(tty.waitFor("quarry Contact> "))
        // "scor = 9", then Ctrl-A, right ×4, insert "e": "score = 9".
        tty.type("scor = 9" + Self.ctrlA + "\u{1B}[C\u{1B}[C\u{1B}[C\u{1B}[C" + "e\r")
        #expect(tty.waitFor("c2,bob,25,9"))
        // Up recalls it; backspace and a new digit: "score = 8".
        tty.type(Self.up + "\u{7F}8\r")
        #expect(tty.waitFor("c4,Dee,,8"))
        // A line dropped with Ctrl-C runs nothing.
        tty.type("age > 1" + Self.ctrlC)
        #expect(tty.waitFor("^C"))
        // Up twice is the first query again; Ctrl-E, left and Ctrl-K cut its "9".
        tty.type(Self.up + Self.up + Self.ctrlE + Self.left + "\u{0B}7\r")
        #expect(tty.waitFor("c3,Cid,40,7"))
        tty.type("age >\r")
        #expect(tty.waitFor("error[syntax."))
        tty.type(Self.ctrlD)
        #expect(tty.finish() == 0)
        #expect(!tty.text.contains("age > 1\r\nobjectId"))
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved == "score = 9\nscore = 8\nscore = 7\nage >\n")
    }

    @Test func theShellReadsAPipeOneQueryALine() throws {
        let file = try DataFixture(DataFixture.contacts)
        let r = try Executables.runPiped(
            ["shell", "--data", file.path, "--class", "Contact", "--format", "csv"],
            input: "score = 9\nage >\n.format ndjson\nname = 'Dee'\n", directory: file.directory)
        #expect(r.status == 1)
        #expect(
            r.out == "objectId,name,age,score\r\nc2,bob,25,9\r\n"
                + #"{"objectId":"c4","name":"Dee","age":null,"score":8}"# + "\n")
        #expect(r.err.hasPrefix("error[syntax."))
        #expect(!r.out.contains("quarry Contact>"))
    }

    @Test func versionFromTheExecutable() throws {
        let dir = try DataFixture("[]")
        let r = try Executables.runPiped(["--version"], input: "", directory: dir.directory)
        #expect(r.status == 0)
        #expect(r.out.split(separator: ".").count == 3)
    }
}
