import Testing

@Suite struct CheckTests {
    @Test func printsTheCanonicalForm() {
        let r = quarry(["check", "AGE>20 and NAME like 'J%'"])
        #expect(r.status == 0)
        #expect(r.out == "AGE > 20 AND NAME LIKE 'J%'\n")
    }

    @Test func jsonSuccessCarriesTheCanonicalForm() {
        let r = quarry(["check", "--json", "name = 'x''y'"])
        #expect(r.status == 0)
        #expect(r.out == #"{"ok":true,"dialect":"sql","canonical":"name = 'x''y'"}"# + "\n")
    }

    @Test func jsonFailureHasTheContractShape() {
        let r = quarry(["check", "--json", "age > AND name = 'x'"])
        #expect(r.status == 1)
        #expect(r.err.isEmpty)
        #expect(
            r.out
                == #"{"ok":false,"errors":[{"code":"syntax.unexpected-token","message":"expected a value after '>' but found 'AND'","line":1,"column":7,"offset":6,"length":3}]}"#
                + "\n")
    }

    @Test func jsonOffsetsCountUnicodeScalars() {
        // 'é' is two UTF-8 bytes but one scalar: the bad token starts at scalar 10, column 11.
        let r = quarry(["check", "--json", "name = 'é' ) "])
        #expect(r.status == 1)
        #expect(r.out.contains(#""line":1,"column":12,"offset":11,"length":1"#))
    }

    @Test func withDataTheClassComesFromTheFile() throws {
        let single = try DataFixture(
            #"[{"objectId":"x1","born":{"__type":"Date","iso":"2015-03-23T00:00:00.000Z"}}]"#, name: "Person.json")
        #expect(quarry(["check", "--data", single.path, "born > '23-Mar-2015'"]).status == 0)
        let r = quarry(["check", "--data", single.path, "bornn > 1"])
        #expect(r.status == 1)
        #expect(
            r.err.hasPrefix(
                "error[query.unknown-column]: unknown column 'bornn' in class Person; did you mean 'born'?\n"))
    }

    @Test func profileRulesApply() {
        #expect(quarry(["check", "--dialect", "predicate", "name ENDSWITH 'x'"]).status == 0)
        let r = quarry(["check", "--dialect", "predicate", "--profile", "parse", "name ENDSWITH 'x'"])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error[profile.unsupported]"))
    }
}

/// `--arg` and `--var` bind NSPredicate placeholders and variables (docs/ARCHITECTURE.md#bindings).
@Suite struct PredicateBindingTests {
    let data: DataFixture
    init() throws { data = try DataFixture(DataFixture.contacts) }

    func run(_ options: [String], _ query: String) -> Outcome {
        quarry(
            ["run", "--data", data.path, "--class", "Contact", "--dialect", "predicate", "--ids"] + options + [query])
    }

    @Test func argumentsBindInOrderAndKeyTakesAString() {
        let r = run(["--arg", #""score""#, "--arg", "7", "--arg", #""A""#], "%K == %@ AND name BEGINSWITH %@")
        #expect(r.status == 0)
        #expect(r.out == "c1\n")
    }

    @Test func numericPlaceholdersAndNegativeValues() {
        #expect(run(["--arg", "30", "--arg", "-1"], "age > %d AND score > %d").out == "c1\nc3\n")
    }

    @Test func typedArgumentsUseParseWrappers() {
        let pointer = #"{"__type":"Pointer","className":"Address","objectId":"a2"}"#
        #expect(run(["--arg", pointer], "address == %@").out == "c3\n")
    }

    @Test func arrayArgumentIsAnAggregate() {
        #expect(run(["--arg", #"["Ann","bob"]"#], "name IN %@").out == "c1\nc2\n")
    }

    @Test func variablesBindByName() {
        #expect(run(["--var", "min=31", "--var", "$name=\"Cid\""], "age >= $min AND name != $name").out == "c1\n")
    }

    @Test func missingArgumentIsALocatedQueryError() {
        let r = run([], "name == %@")
        #expect(r.status == 1)
        #expect(
            r.err.hasPrefix(
                "error[argument.missing]: argument 1 is missing: the format uses 1 argument but 0 were given\n --> 1:9\n"
            ))
    }

    @Test func unboundVariableIsAnError() {
        let r = run(["--var", "other=1"], "age > $min")
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error[variable."))
    }

    @Test(arguments: [
        (
            ["--arg", "Tom"],
            "Error: --arg 1 is not JSON: expected a value but found 'Tom' (a string needs JSON quotes: '\"Tom\"')"
        ),
        (
            ["--arg", #"{"__type":"Date","iso":"soon"}"#],
            "Error: --arg 1: iso: Date field 'iso' is not an ISO-8601 date-time: \"soon\" (expected e.g. 2015-03-23T00:00:00.000Z)"
        ),
        (["--var", "min"], "Error: --var 'min' needs the form NAME=JSON, e.g. --var 'minAge=21'"),
        (
            ["--var", "1x=2"],
            "Error: --var '1x=2': '1x' is not a variable name (letters, digits and '_', not starting with a digit)"
        ),
        (["--var", "a=1", "--var", "a=2"], "Error: --var binds $a twice"),
    ])
    func badBindingsAreUsageErrors(_ options: [String], _ firstLine: String) {
        let r = run(options, "name == 'x'")
        #expect(r.status == 2)
        #expect(r.err.split(separator: "\n").first.map(String.init) == firstLine)
    }
}
