import Testing

/// `quarry run` over a small data file: output forms, ordering, paging, projection.
@Suite struct RunTests {
    let data: DataFixture
    init() throws { data = try DataFixture(DataFixture.contacts) }

    func run(_ options: [String], _ query: String, stdin: String = "") -> Outcome {
        quarry(["run", "--data", data.path, "--class", "Contact"] + options + [query], stdin: stdin)
    }

    @Test func printsMatchesAsNDJSONInResultOrder() {
        let r = run([], "age > 30")
        #expect(r.status == 0)
        #expect(r.err.isEmpty)
        #expect(
            r.out == """
                {"objectId":"c1","name":"Ann","age":31,"score":7,"address":{"__type":"Pointer","className":"Address","objectId":"a1"}}
                {"objectId":"c3","name":"Cid","age":40,"score":7,"address":{"__type":"Pointer","className":"Address","objectId":"a2"}}

                """)
    }

    @Test func idsAndCount() {
        #expect(run(["--ids"], "score >= 8").out == "c2\nc4\n")
        #expect(run(["--count"], "score >= 8").out == "2\n")
        #expect(run(["--count"], "age = 99").out == "0\n")
    }

    @Test(arguments: ["-score,name", "score DESC, name", "score desc,name ASC"])
    func orderInParseAndSQLStyle(_ spec: String) {
        #expect(run(["--order", spec, "--ids"], "score > 0").outLines == ["c2", "c4", "c1", "c3"])
    }

    @Test func orderThroughAPointer() {
        #expect(run(["--order", "address.city", "--ids"], "address IS NOT NULL").outLines == ["c3", "c1"])
    }

    @Test func limitAndSkipPageTheOrderedResults() {
        #expect(
            run(["--order", "name", "--skip", "1", "--limit", "2", "--ids"], "score > 0").outLines == ["c3", "c4"])
        #expect(run(["--limit", "0", "--ids"], "score > 0").out == "")
    }

    @Test func keysProjectTheObjects() {
        #expect(
            run(["--keys", "name", "--order", "-age"], "age >= 31").outLines == [
                #"{"objectId":"c3","name":"Cid"}"#,
                #"{"objectId":"c1","name":"Ann"}"#,
            ])
    }

    @Test func includeEmbedsThePointedToObject() {
        #expect(
            run(["--include", "address"], "name = 'Ann'").outLines == [
                #"{"objectId":"c1","name":"Ann","age":31,"score":7,"address":{"__type":"Object","className":"Address","objectId":"a1","city":"Dallas"}}"#
            ])
    }

    @Test func formatJSONIsAParseResultsDocument() {
        #expect(
            run(["--format", "json", "--keys", "name"], "score = 7").out == """
                {"results":[
                {"objectId":"c1","name":"Ann"},
                {"objectId":"c3","name":"Cid"}
                ]}

                """)
        #expect(run(["--format", "json"], "score = 1").out == "{\"results\":[]}\n")
    }

    @Test func formatTableAlignsColumns() {
        #expect(
            run(["--format", "table"], "score <= 8").out == """
                objectId | name |  age | score | address
                ---------+------+------+-------+-----------
                c1       | Ann  |   31 |     7 | Address:a1
                c3       | Cid  |   40 |     7 | Address:a2
                c4       | Dee  | null |     8 |
                (3 rows)

                """)
    }

    @Test func queryFromStandardInput() {
        let r = run(["--ids"], "-", stdin: "name = 'bob'\n")
        #expect(r.status == 0)
        #expect(r.out == "c2\n")
    }

    @Test func doubleDashLetsAQueryStartWithADash() {
        let r = quarry(["run", "--data", data.path, "--class", "Contact", "--ids", "--", "-1 < age AND age < 30"])
        #expect(r.status == 0)
        #expect(r.out == "c2\n")
    }

    @Test func classMayBeLeftOutWhenTheDataHoldsOne() throws {
        let single = try DataFixture(#"[{"objectId":"x1","n":1},{"objectId":"x2","n":2}]"#, name: "Thing.json")
        let r = quarry(["run", "--data", single.path, "--ids", "n > 1"])
        #expect(r.status == 0)
        #expect(r.out == "x2\n")
    }
}
