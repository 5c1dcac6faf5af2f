import Foundation
import Testing

@testable import QuarryCLI

/// What users expect of a command-line tool: --version, "did you mean", `--data -`, one meaning
/// of --json everywhere, `--index KEY:kind` on run, explain and bench
/// (docs/ARCHITECTURE.md#the-command-line-tool).
@Suite struct CommandLineConventionTests {
    @Test func versionPrintsTheVersion() {
        let r = quarry(["--version"])
        #expect(r.status == 0)
        #expect(r.out == QuarryCommand.version + "\n")
    }

    @Test(arguments: [
        (["rnu", "--data", "x", "q"], "Error: Unknown subcommand 'rnu'. Did you mean 'run'?"),
        (["chekc", "q"], "Error: Unknown subcommand 'chekc'. Did you mean 'check'?"),
        (["explian"], "Error: Unknown subcommand 'explian'. Did you mean 'explain'?"),
        (["shel"], "Error: Unknown subcommand 'shel'. Did you mean 'shell'?"),
        (
            ["frobnicate"],
            "Error: Unknown subcommand 'frobnicate'. The subcommands are check, run, translate, explain, import, serve, bench, shell."
        ),
        (
            ["run", "--data", "d.json", "--formt", "csv", "q"],
            "Error: Unknown option '--formt'. Did you mean '--format'?"
        ),
        (["check", "--dialcet", "sql", "q"], "Error: Unknown option '--dialcet'. Did you mean '--dialect'?"),
        (["check", "--zzzzzzzz", "q"], "Error: Unknown option '--zzzzzzzz'"),
    ])
    func typosGetASuggestionAndStatus2(_ args: [String], _ firstLine: String) {
        let r = quarry(args)
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.err.split(separator: "\n").first.map(String.init) == firstLine)
    }

    @Test func dataFromStandardInput() {
        let r = quarry(
            ["run", "--data", "-", "--class", "P", "--ids", "age > 1"],
            stdin: #"[{"objectId":"a","age":1},{"objectId":"b","age":2}]"#)
        #expect(r.status == 0)
        #expect(r.out == "b\n")
        let check = quarry(
            ["check", "--data", "-", "--class", "P", "nosuch = 1"], stdin: #"[{"objectId":"a","age":1}]"#)
        #expect(check.status == 1)
        #expect(check.err.hasPrefix("error[query.unknown-column]"))
    }

    @Test func dataAndQueryCannotBothBeStandardInput() {
        for command in ["run", "explain", "check"] {
            let r = quarry([command, "--data", "-", "-"], stdin: "[]")
            #expect(r.status == 2, "\(command)")
            #expect(r.err.contains("--data - and the query '-' both read standard input"), "\(command)")
        }
    }

    @Test func malformedDataOnStandardInputIsStatus3() {
        let r = quarry(["run", "--data", "-", "age > 1"], stdin: "[{")
        #expect(r.status == 3)
        #expect(r.err.contains("<stdin>"))
    }

    /// Success and failure alike are one JSON document on stdout, nothing on stderr.
    @Test func jsonMeansTheSameOnEverySubcommand() throws {
        let file = try DataFixture(DataFixture.contacts)
        let store = NSTemporaryDirectory() + "quarry-json-\(UUID().uuidString).db"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let data = ["--data", file.path, "--class", "Contact"]
        let cases: [([String], String)] = [
            (["check", "--json", "age > 30"], #"{"ok":true,"dialect":"sql","canonical":"age > 30"}"#),
            (
                ["translate", "--json", "--to", "json"] + data + ["age > 30"],
                #"{"ok":true,"from":"sql","to":"json","translation":"{\"age\":{\"$gt\":30}}"}"#
            ),
            (["run", "--json", "--ids"] + data + ["age > 30"], #"{"ids":["c1","c3"]}"#),
            (["run", "--json", "--count"] + data + ["age > 30"], #"{"count":2}"#),
            (
                ["import", "--json", "--data", file.path, "--store", "sqlite:" + store],
                "{\"ok\":true,\"store\":\"\(store)\",\"objects\":6,\"classes\":{\"Contact\":4,\"Address\":2}}"
            ),
        ]
        for (args, expected) in cases {
            let r = quarry(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.out == expected + "\n", "\(args)")
            #expect(r.err.isEmpty, "\(args)")
        }
        let records = quarry(["run", "--json"] + data + ["age > 39"])
        #expect(records.out.hasPrefix("{\"results\":[\n{\"objectId\":\"c3\""))
        let plan = quarry(["explain", "--json"] + data + ["age > 39"])
        #expect(plan.out.hasPrefix("{"))
        let bench = quarry(["bench", "--json", "--repeat", "1"] + data + ["age > 39"])
        #expect(bench.out.hasPrefix("[\n{\"query\":\"age > 39\""))
        for command in ["check", "translate", "run", "explain", "bench"] {
            var args = [command, "--json"] + (command == "check" ? [] : data)
            if command == "translate" { args += ["--to", "json"] }
            if command == "bench" { args += ["--repeat", "1"] }
            let r = quarry(args + ["age >"])
            #expect(r.status == 1, "\(command)")
            #expect(r.err.isEmpty, "\(command)")
            let failure =
                command == "bench"
                ? #"{"query":"age >","ok":false,"errors":[{"code":"# : #"{"ok":false,"errors":[{"code":"#
            #expect(r.out.contains(failure), "\(command): \(r.out)")
        }
    }

    @Test func indexKindsAreAcceptedAlikeByRunExplainAndBench() throws {
        let file = try DataFixture(DataFixture.contacts)
        let data = ["--data", file.path, "--class", "Contact", "--index", "name:hash", "--index", "age:ordered"]
        #expect(quarry(["run", "--ids"] + data + ["name = 'Ann'"]).out == "c1\n")
        #expect(quarry(["explain"] + data + ["name = 'Ann'"]).out.contains("name"))
        let bench = quarry(["bench", "--repeat", "1"] + data + ["name = 'Ann'"])
        #expect(bench.status == 0)
        #expect(bench.out.contains("indexes: name, age"))
        for command in ["run", "explain", "bench"] {
            let r = quarry([command, "--data", file.path, "--class", "Contact", "--index", "age:btree", "age > 1"])
            #expect(r.status == 2, "\(command)")
            #expect(
                r.err.hasPrefix("Error: --index age:btree: 'btree' is not an index kind; use hash, ordered or geo"),
                "\(command)")
        }
    }

    @Test func benchReportsABadQueryAndRunsTheOthers() throws {
        let file = try DataFixture(DataFixture.contacts)
        let r = quarry(
            ["bench", "--repeat", "1", "--data", file.path, "--class", "Contact", "age > 30", "age >", "score = 7"])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error[syntax."))
        #expect(r.out.contains("| `age > 30` |"))
        #expect(r.out.contains("| `score = 7` |"))
        #expect(r.out.contains("- `age >`: failed (syntax."))
    }

    @Test func completionScriptsAreGenerated() {
        for shell in ["bash", "zsh", "fish"] {
            let r = quarry(["--generate-completion-script", shell])
            #expect(r.status == 0, "\(shell)")
            #expect(r.out.contains("shell"), "\(shell)")
            #expect(r.out.contains("format"), "\(shell)")
        }
    }
}
