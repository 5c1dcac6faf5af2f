import Testing
@testable import QuarryCLI

/// Command-line errors exit 2 (not ArgumentParser's 64), help exits 0 on stdout.
@Suite struct UsageTests {
    @Test(arguments: [["--help"], ["run", "--help"], ["help", "translate"], ["check", "-h"], []])
    func helpGoesToStdoutWithStatus0(_ args: [String]) {
        let r = quarry(args)
        #expect(r.status == 0)
        #expect(r.out.contains("USAGE: quarry"))
        #expect(r.err.isEmpty)
    }

    @Test func rootHelpListsOnlyWorkingSubcommandsAndTheExitStatuses() {
        let help = quarry(["--help"]).out
        #expect(help.contains("  check "))
        #expect(help.contains("  run "))
        #expect(help.contains("  translate "))
        #expect(help.contains("  explain "))
        #expect(help.contains("  bench "))
        #expect(help.contains("2 usage error; 3 the data file is unreadable or malformed."))
    }

    @Test(arguments: [
        (["run", "x"], "Error: Missing expected argument '--data <file>'"),
        (["check", "--bogus", "x"], "Error: Unknown option '--bogus'"),
        (
            ["check", "--dialect", "cobol", "x"],
            "Error: The value 'cobol' is invalid for '--dialect <dialect>'. Please provide one of 'sql', 'predicate' or 'json'."
        ),
        (
            ["check", "--profile", "firebase", "x"],
            "Error: The value 'firebase' is invalid for '--profile <profile>'. Please provide one of 'exact', 'parse', 'leancloud', 'maxleap' or 'backendless'."
        ),
        (["check"], "Error: Missing expected argument '<query>'"),
        (["translate", "x"], "Error: Missing expected argument '--to <to>'"),
        (
            ["run", "--data", "d.json", "--ids", "--count", "x"],
            "Error: --ids and --count cannot be used together; choose one output."
        ),
        (
            ["run", "--data", "d.json", "--count", "--format", "table", "x"],
            "Error: --count and --format cannot be used together; choose one output."
        ),
        (["run", "--data", "d.json", "--limit", "-1", "x"], "Error: --limit must be 0 or more (got -1)."),
        (["run", "--data", "d.json", "--skip", "-5", "x"], "Error: --skip must be 0 or more (got -5)."),
        (
            ["run", "--data", "d.json", "--format", "yaml", "x"],
            "Error: The value 'yaml' is invalid for '--format <format>'. Please provide one of the following:"
        ),
        (["run", "--data", "d.json", "--limit", "ten", "x"], "Error: The value 'ten' is invalid for '--limit <n>'"),
        (["check", "-x", "q"], "Error: Unknown option '-x'"),
        (["explain", "x"], "Error: Missing expected argument '--data <file>'"),
        (["bench", "x"], "Error: Missing expected argument '--data <file>'"),
        (["run", "--data", "d.json", "--index", "x"], "Error: Missing expected argument '<query>'"),
    ])
    func usageErrorsExit2(_ args: [String], _ firstLine: String) {
        let r = quarry(args)
        #expect(r.status == 2)
        #expect(r.out.isEmpty)
        #expect(r.err.split(separator: "\n").first.map(String.init) == firstLine)
    }
}
