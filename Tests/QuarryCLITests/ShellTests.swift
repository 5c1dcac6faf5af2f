import Testing

@testable import QuarryCLI

/// `quarry shell` fed a script (docs/ARCHITECTURE.md#the-shell): queries and dot-commands one a
/// line, errors reported without ending the session.
@Suite struct ShellTests {
    func shell(_ script: String, _ extra: [String] = [], terminal: Bool = false) throws -> Outcome {
        let file = try DataFixture(DataFixture.contacts)
        return quarry(["shell", "--data", file.path, "--class", "Contact"] + extra, stdin: script, terminal: terminal)
    }

    @Test func eachLineIsAQueryAnsweredInTurn() throws {
        let r = try shell("age > 30\n.format csv\nscore = 9\n.mode box\n.fromat\n")
        #expect(r.status == 1)
        #expect(
            r.out == """
                {"objectId":"c1","name":"Ann","age":31,"score":7,"address":{"__type":"Pointer","className":"Address","objectId":"a1"}}
                {"objectId":"c3","name":"Cid","age":40,"score":7,"address":{"__type":"Pointer","className":"Address","objectId":"a2"}}
                objectId,name,age,score\r
                c2,bob,25,9\r

                """)
        #expect(r.err == "error: unknown command '.fromat'; did you mean '.format'? (.help lists the commands)\n")
    }

    @Test func anErrorInOneLineDoesNotEndTheShell() throws {
        let r = try shell("age >\nname = 'Dee'\nnosuch = 1\n")
        #expect(r.status == 1)
        #expect(r.outLines == [#"{"objectId":"c4","name":"Dee","age":null,"score":8}"#])
        #expect(r.err.hasPrefix("error[syntax."))
        #expect(r.err.contains("error[query.unknown-column]"))
    }

    @Test func aCleanScriptExits0() throws {
        let r = try shell("score = 8\n\n-- a comment\n.quit\nage > 1\n")
        #expect(r.status == 0)
        #expect(r.outLines.count == 1)
        #expect(r.err.isEmpty)
    }

    @Test func dialectClassProfileAndIndexSwitch() throws {
        let script = """
            .dialect predicate
            name BEGINSWITH[c] 'a'
            .dialect json
            {"score":{"$gte":9}}
            .dialect sql
            .class Address
            city = 'Austin'
            .class Adress
            .index city:hash
            .show
            .profile parse
            .profile nosuch
            """
        let r = try shell(script + "\n", ["--format", "csv"])
        #expect(
            r.err == """
                error: there is no class 'Adress'; did you mean 'Address'?
                error: .profile takes one of exact, parse, leancloud, maxleap, backendless (got 'nosuch')

                """)
        #expect(
            r.out == """
                objectId,name,age,score,address\r
                c1,Ann,31,7,Address:a1\r
                objectId,name,age,score\r
                c2,bob,25,9\r
                objectId,city\r
                a2,Austin\r
                class: Address
                dialect: sql
                profile: exact
                format: csv
                explain: off
                timer: off
                indexes: Address.city:hash

                """)
    }

    @Test func explainAndTimer() throws {
        let r = try shell(
            ".index age\n.explain on\nage = 31\n.explain analyze\nage = 31\n.explain off\n.timer on\nage = 31\n")
        #expect(r.status == 0)
        #expect(r.out.components(separatedBy: "access: ").count == 3, "\(r.out)")
        #expect(r.out.components(separatedBy: "[actual").count > 1, "\(r.out)")
        #expect(
            r.out.hasSuffix(
                #"{"objectId":"c1","name":"Ann","age":31,"score":7,"address":{"__type":"Pointer","className":"Address","objectId":"a1"}}"#
                    + "\n"))
        #expect(r.err.hasPrefix("time: compile "))
    }

    @Test func jsonAnswersAndErrorsOnStdout() throws {
        let r = try shell("score = 9\nage >\n.format csv\nage > 1 AND score = 9\n", ["--json"])
        #expect(r.status == 1)
        #expect(r.err.isEmpty)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "{\"results\":[")
        #expect(lines.contains { $0.hasPrefix(#"{"ok":false,"errors":[{"code":"syntax."#) })
        #expect(lines.contains(#"{"ok":false,"errors":[{"code":"usage","message":"--json keeps the format json"}]}"#))
    }

    @Test func aStoreIsQueriedAndExplainedToo() throws {
        let file = try DataFixture(DataFixture.contacts)
        let store = "sqlite:" + file.directory + "/s.db"
        #expect(quarry(["import", "--data", file.path, "--store", store]).status == 0)
        let r = quarry(
            ["shell", "--store", store, "--class", "Contact", "--format", "csv"],
            stdin: "score = 9\n.index age\n.explain on\nage > 30\n.explain analyze\nage > 30\n")
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("objectId,name,age,score\r\nc2,bob,25,9\r\nbackend: sqlite\nsql: SELECT"))
        #expect(r.err == "error: .explain analyze runs on the in-memory engine; it is not available with --store\n")
    }

    @Test func theShellNeedsDataFromAFile() {
        let r = quarry(["shell", "--data", "-"], stdin: "age > 1\n")
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("Error: the shell reads its queries from standard input; give --data a file"))
    }

    @Test func lineEditsApplyAsTyped() {
        var edit = LineEdit()
        for s in "age > 3".unicodeScalars { edit.insert(s) }
        edit.moveLeft()
        edit.deleteBackward()
        edit.deleteBackward()
        edit.insert("<")
        #expect(edit.text == "age <3")
        edit.cursor = 0
        edit.deleteForward()
        #expect(edit.text == "ge <3")
        edit.cursor = edit.scalars.count
        edit.deleteWordBackward()
        #expect(edit.text == "ge ")
    }
}
