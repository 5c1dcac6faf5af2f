import Testing

/// `quarry explain` and `--index`: plans as text and JSON, ANALYZE, index kinds, bad specs.
@Suite struct ExplainTests {
    let data: DataFixture
    /// 300 people: enough rows for an index to beat a scan.
    let people: DataFixture
    init() throws {
        data = try DataFixture(DataFixture.contacts)
        let objects = (0..<300).map { i in
            #"{"objectId":"p\#(i)","name":"n\#(i % 50)","age":\#(i % 90),"home":{"__type":"GeoPoint","latitude":\#(Double(i % 60) - 30),"longitude":\#(i % 170)}}"#
        }
        people = try DataFixture(#"{"Person":["# + objects.joined(separator: ",") + "]}")
    }

    func explain(_ options: [String], _ query: String) -> Outcome {
        quarry(["explain", "--data", data.path, "--class", "Contact"] + options + [query])
    }

    func explainPeople(_ options: [String], _ query: String) -> Outcome {
        quarry(["explain", "--data", people.path] + options + [query])
    }

    @Test func printsThePlanTree() {
        let r = explain([], "age > 20 AND age > 30")
        #expect(r.status == 0)
        #expect(r.err.isEmpty)
        #expect(
            r.out == """
                query: Contact where age > 30 [sql] (profile exact)  (est. 2 rows)
                ├─ rewrites: 1 applied
                │  └─ range-merge: age > 20 [sql] AND age > 30 [sql] → age > 30 [sql]
                ├─ access: full scan  (est. 4 rows)
                ├─ filter: in evaluation order  (est. 2 rows)
                │  └─ age > 30 [sql]  {cost 0.25, pass 50%}  (est. 2 rows)
                └─ page: skip 0, no limit

                """)
    }

    @Test func indexesChangeTheAccessPath() {
        #expect(explainPeople([], "name = 'n7'").out.contains("access: full scan  (est. 300 rows)"))
        let r = explainPeople(["--index", "age", "--index", "name:hash"], "name = 'n7'")
        #expect(r.status == 0)
        #expect(r.out.contains("access: hash index on name = \"n7\"  (est. 6 rows)"))
        #expect(explainPeople(["--index", "age"], "age = 31").out.contains("access: ordered index on age = 31"))
        // A field of geo points gets a geo index by default.
        let geo = explainPeople(["--index", "home"], "distance(0, 10, home.latitude, home.longitude) < km(300)")
        #expect(geo.out.contains("access: geo index on home within 300000.0 m"))
    }

    @Test func analyzeAddsActualRows() {
        let r = explainPeople(["--analyze", "--index", "age:hash"], "age = 7")
        #expect(r.status == 0)
        #expect(r.out.contains("access: hash index on age = 7  (est. 4 rows)  [actual 4 rows]"))
        #expect(r.out.contains("page: skip 0, no limit  [actual 4 rows]"))
    }

    /// On a few rows a scan is cheaper than any index: the planner says so.
    @Test func tinyDataIsScanned() {
        #expect(explain(["--index", "score:hash"], "score = 7").out.contains("access: full scan  (est. 4 rows)"))
    }

    @Test func jsonForTools() {
        let r = explain(["--json"], "age = 31")
        #expect(r.status == 0)
        #expect(
            r.out.hasPrefix(
                #"{"analyzed":false,"plan":{"kind":"query","detail":"Contact where age == 31 [sql] (profile exact)""#))
    }

    @Test func runUsesIndexesAndAnswersTheSame() {
        let plain = quarry([
            "run", "--data", data.path, "--class", "Contact", "--ids", "score >= 8 OR address.city = 'Dallas'",
        ])
        let indexed = quarry([
            "run", "--data", data.path, "--class", "Contact", "--index", "score", "--index", "address.city",
            "--ids", "score >= 8 OR address.city = 'Dallas'",
        ])
        #expect(plain.status == 0 && indexed.status == 0)
        #expect(plain.outLines == ["c1", "c2", "c4"])
        #expect(indexed.out == plain.out)
    }

    @Test(arguments: ["age:btree", "a..b", ":hash", ""])
    func badIndexSpecsAreUsageErrors(spec: String) {
        let r = explain(["--index", spec], "age > 1")
        #expect(r.status == 2)
        #expect(r.err.contains("--index"))
    }

    @Test func queryErrorsAreLocated() {
        let r = explain([], "age > AND name = 'x'")
        #expect(r.status == 1)
        #expect(r.err.contains("error[syntax."))
    }
}
