import QuarryCore
import Testing
@testable import QuarryPredicate

@Suite struct SubstitutionTests {
    @Test func bindsFreeVariables() throws {
        let p = try PredicateFormat.parse("age > $min AND name IN $names AND $x.a == 1")
        let bound = try p.substituting(["min": 18, "names": ["a", "b"], "x": .object(["a": 1])])
        #expect(
            bound
                == .and([
                    cmp(key("age"), .gt, lit(18)),
                    leaf(.inCollection(key("name"), .list([lit("a"), lit("b")]), [])),
                    cmp(.member(lit(.object(["a": 1])), FieldPath("a")), .eq, lit(1)),
                ]))
    }

    @Test func leavesQuantifierAndSubqueryVariablesAlone() throws {
        let p = try PredicateFormat.parse("SUBQUERY(items, $x, $x.price > $x).@count > 0 AND ANY tags == $x")
        let bound = try p.substituting(["x": 5])
        #expect(
            bound
                == .and([
                    cmp(
                        .aggregate(
                            .count,
                            .subquery(
                                key("items"), variable: "x",
                                cmp(.member(.variable("x"), FieldPath("price")), .gt, .variable("x")))),
                        .gt, lit(0)),
                    quantified(.any, key("tags")) { .compare($0, .eq, lit(5), []) },
                ]))
    }

    @Test func aMissingVariableIsAnError() throws {
        let p = try PredicateFormat.parse("a == $one OR b == $two OR c == $one")
        #expect(throws: Diagnostics.self) { try p.substituting(["two": 2]) }
        do {
            _ = try p.substituting([:])
        } catch {
            #expect(error.all.map(\.code) == ["variable.unbound", "variable.unbound"])
            #expect(
                error.all.map(\.message) == [
                    "no value was given for the variable $one",
                    "no value was given for the variable $two",
                ])
        }
        let partial = try p.substituting(["two": 2], leavingUnbound: true)
        #expect(
            partial
                == .or([
                    cmp(key("a"), .eq, .variable("one")), cmp(key("b"), .eq, lit(2)),
                    cmp(key("c"), .eq, .variable("one")),
                ]))
    }

    @Test func betweenAVariableNeedsTwoElements() throws {
        let p = try PredicateFormat.parse("age BETWEEN $range")
        #expect(try p.substituting(["range": [18, 30]]) == leaf(.between(key("age"), lower: lit(18), upper: lit(30))))
        #expect(throws: Diagnostics.self) { try p.substituting(["range": [1, 2, 3]]) }
        #expect(throws: Diagnostics.self) { try p.substituting(["range": 5]) }
    }

    @Test func variablesGivenToParseAreBoundWithLocations() throws {
        let p = try PredicateFormat.parse("age BETWEEN $r AND name == $n", variables: ["r": [1, 2], "n": "x"])
        #expect(p == .and([leaf(.between(key("age"), lower: lit(1), upper: lit(2))), cmp(key("name"), .eq, lit("x"))]))
        #expect(failure("age > $nope", variables: ["n": 1]) == "variable.unbound@1:7")
        // A SUBQUERY variable is bound by the SUBQUERY, not by the map.
        let s = try PredicateFormat.parse("SUBQUERY(a, $n, $n > 1).@count > 0", variables: [:])
        #expect(
            s
                == cmp(
                    .aggregate(.count, .subquery(key("a"), variable: "n", cmp(.variable("n"), .gt, lit(1)))), .gt,
                    lit(0)))
    }

    @Test func substitutionAgreesWithParseTimeBinding() throws {
        let text = "age > $a AND tags CONTAINS $b AND score BETWEEN $c"
        let vars: [String: Value] = ["a": 1, "b": "x", "c": [1, 2]]
        #expect(try PredicateFormat.parse(text).substituting(vars) == PredicateFormat.parse(text, variables: vars))
    }
}
