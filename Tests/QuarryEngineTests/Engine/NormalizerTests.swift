import QuarryCore
import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// Facts for tests: the listed paths reach one value per object and never a date.
private struct TestFacts: KeyFacts {
    var single: Set<FieldPath> = []
    func reachableTypes(_ path: FieldPath) -> UInt16? { single.contains(path) ? Value.int(0).typeBit : nil }
    func isSingleValued(_ path: FieldPath) -> Bool { single.contains(path) }
}

private func normalize(_ p: Filter, single: Set<FieldPath> = []) -> (Filter, [String]) {
    let facts = TestFacts(single: single)
    var n = Normalizer(facts: facts, fallibility: Fallibility(facts: facts), limits: .default)
    let out = n.normalize(p)
    return (out, n.rewrites.map(\.rule))
}

private func leaf(_ c: Condition, _ s: LeafSemantics = .predicate, negated: Bool = false) -> Filter {
    .leaf(c, negated: negated, s)
}

private func cmp(_ k: FieldPath, _ op: ComparisonOperator, _ v: Value, _ s: LeafSemantics = .predicate) -> Filter {
    leaf(.compare(.key(k), op, .literal(v), []), s)
}

private let regex = leaf(.string(.key("s"), .matches(RegexOptions(wholeString: false)), .literal("x+"), []), .sql)

@Suite struct NormalizerTests {
    @Test func rangesMerge() {
        #expect(normalize(.and([cmp("a", .gt, 5), cmp("a", .gt, 10)])) == (cmp("a", .gt, 10), ["range-merge"]))
        #expect(
            normalize(.and([cmp("a", .ge, 5), cmp("a", .lt, 9.5), cmp("a", .le, 20)])).0
                == .and([cmp("a", .ge, 5), cmp("a", .lt, 9.5)]))
        #expect(normalize(.and([cmp("a", .eq, 7), cmp("a", .gt, 3), cmp("a", .ne, 4)])).0 == cmp("a", .eq, 7))
    }

    @Test func contradictions() {
        #expect(normalize(.and([cmp("a", .gt, 10), cmp("a", .lt, 5)])) == (.constant(false), ["contradiction"]))
        #expect(normalize(.and([cmp("a", .eq, 1), cmp("a", .eq, 2)])).0 == .constant(false))
        #expect(normalize(.and([cmp("a", .eq, 1), cmp("a", .ne, 1)])).0 == .constant(false))
        #expect(normalize(.and([cmp("a", .gt, 3), cmp("a", .lt, 3)])).0 == .constant(false))
    }

    /// Under `.sql` a key reaching several values (an array) satisfies `a > 10 AND a < 5`
    /// with different elements: merging needs the data to say it reaches one value.
    @Test func sqlRangesMergeOnlyForSingleValuedKeys() throws {
        let p = Filter.and([cmp("a", .gt, 10, .sql), cmp("a", .lt, 5, .sql)])
        #expect(normalize(p).0 == p)
        #expect(normalize(p, single: ["a"]).0 == .constant(false))
        let db = database(("T", [record("t", ["a": [20, 1]])]))
        #expect(try ids(db, "T", p) == ["t"])
    }

    /// Strings are ordered by scalars except under `.sql`, where a string may be read as a date.
    @Test func stringBoundsMergeOutsideSQL() {
        #expect(normalize(.and([cmp("s", .gt, "a"), cmp("s", .gt, "b")])).0 == cmp("s", .gt, "b"))
        let sql = Filter.and([cmp("s", .gt, "a", .sql), cmp("s", .gt, "b", .sql)])
        #expect(normalize(sql, single: ["s"]).0 == sql)
    }

    @Test func equalitiesBecomeInLists() {
        let p = Filter.or([
            cmp("a", .eq, 1, .sql), cmp("b", .eq, 9, .sql), cmp("a", .eq, 2, .sql),
            leaf(.inCollection(.key("a"), .list([.literal(3), .literal(1)]), []), .sql),
        ])
        let merged = leaf(.inCollection(.key("a"), .list([.literal(1), .literal(2), .literal(3)]), []), .sql)
        #expect(normalize(p) == (.or([merged, cmp("b", .eq, 9, .sql)]), ["or-to-in"]))
        // Different semantics or options stay apart.
        let q = Filter.or([cmp("a", .eq, 1, .sql), cmp("a", .eq, 2, .document)])
        #expect(normalize(q).0 == q)
    }

    @Test(arguments: [
        ("abc%", StringOperator.beginsWith, "abc", "like-to-prefix"),
        ("%abc", .endsWith, "abc", "like-to-suffix"),
        ("%abc%", .contains, "abc", "like-to-contains"),
        ("a\\%b%", .beginsWith, "a%b", "like-to-prefix"),
    ])
    func likePatternsWithoutInnerWildcards(pattern: String, op: StringOperator, literal: String, rule: String) {
        let p = leaf(.string(.key("s"), .like(.sql(escape: "\\")), .literal(.string(pattern)), .caseInsensitive), .sql)
        let expected = leaf(.string(.key("s"), op, .literal(.string(literal)), .caseInsensitive), .sql)
        #expect(normalize(p) == (expected, [rule]))
    }

    /// The byte-level reading of a pattern with a wildcard only at its ends gives what its
    /// tokens give, for random patterns of every syntax (wildcards, escapes, non-ASCII and
    /// combining characters); it reads a good share of them.
    @Test func plainAffixPatternsReadAsTheirTokens() {
        var rng = SplitMix64(seed: 7)
        let pieces = ["%", "_", "*", "?", "\\", "!", "a", "b", "é", "e\u{301}", " ", "z"]
        let syntaxes: [LikeSyntax] = [.sql(escape: nil), .sql(escape: "\\"), .sql(escape: "!"), .glob]
        var plain = 0
        for _ in 0..<1500 {
            let pattern = (0..<Int.random(in: 0...5, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                .joined()
            for syntax in syntaxes {
                guard let fast = Normalizer.plainAffixLike(pattern, syntax) else { continue }
                plain += 1
                let tokenized = Normalizer.tokenizedSimpleLike(pattern, syntax)
                #expect(tokenized.map { "\($0.0) \($0.1) \($0.2)" } == "\(fast.0) \(fast.1) \(fast.2)", "\(pattern)")
            }
        }
        #expect(plain > 150)
    }

    @Test func likePatternsWithInnerWildcardsStay() {
        for pattern in ["a_c%", "a%c", "abc"] {
            let p = leaf(.string(.key("s"), .like(.sql(escape: nil)), .literal(.string(pattern)), []), .sql)
            #expect(normalize(p).0 == p)
        }
    }

    @Test func notGoesToTheLeavesWhereNegationIsLogical() {
        let p = Filter.not(.and([cmp("a", .eq, 1), cmp("b", .eq, 2, .document)]))
        let expected = Filter.or([
            leaf(.compare(.key("a"), .eq, .literal(1), []), negated: true),
            leaf(.compare(.key("b"), .eq, .literal(2), []), .document, negated: true),
        ])
        #expect(normalize(p) == (expected, ["not-pushdown"]))
        // A SQL comparison keeps its NOT: NOT (a > 5) also holds where a is null.
        let sql = Filter.not(cmp("a", .gt, 5, .sql))
        #expect(normalize(sql).0 == sql)
        // ...but a SQL IS NULL flips.
        #expect(normalize(.not(leaf(.isNull(.key("a")), .sql))).0 == leaf(.isNull(.key("a")), .sql, negated: true))
    }

    @Test func sqlNegatedComparisonsBecomeTheOppositeOperator() {
        let p = leaf(.compare(.key("a"), .gt, .literal(5), []), .sql, negated: true)
        #expect(normalize(p) == (cmp("a", .le, 5, .sql), ["negation-to-operator"]))
    }

    @Test func literalsMoveRight() {
        let p = leaf(.compare(.literal(5), .lt, .key("a"), []))
        #expect(normalize(p) == (cmp("a", .gt, 5), ["operand-swap"]))
    }

    @Test func constantsFold() {
        #expect(normalize(leaf(.compare(.literal(5), .gt, .literal(3), []), .sql)).0 == .constant(true))
        #expect(normalize(.and([cmp("a", .eq, 1), .constant(true)])).0 == cmp("a", .eq, 1))
        #expect(normalize(.or([cmp("a", .eq, 1), .constant(true)])).0 == .constant(true))
        #expect(normalize(.and([.constant(false), regex])).0 == .constant(false))
    }

    /// The reference evaluates a regex before a later FALSE (and may fail on it): such an AND
    /// keeps the regex.
    @Test func foldingNeverSkipsWhatMayThrow() {
        #expect(normalize(.and([regex, .constant(false)])).0 == .and([regex, .constant(false)]))
        let p = Filter.and([cmp("a", .gt, 5), regex, cmp("a", .gt, 10)])
        #expect(normalize(p).0 == p)
    }

    @Test func duplicatesAndTautologies() {
        #expect(
            normalize(.and([cmp("a", .eq, 1), cmp("b", .eq, 1), cmp("a", .eq, 1)])).0
                == .and([cmp("a", .eq, 1), cmp("b", .eq, 1)]))
        let p = leaf(.compare(.key("a"), .eq, .literal(1), []), .document)
        let notP = leaf(.compare(.key("a"), .eq, .literal(1), []), .document, negated: true)
        #expect(normalize(.or([p, notP])).0 == .constant(true))
        #expect(normalize(.and([p, notP])).0 == .constant(false))
        #expect(normalize(.and([cmp("a", .eq, 1), .and([cmp("b", .eq, 2), cmp("c", .eq, 3)])])).1 == ["flatten"])
    }

    /// Runs longer than `Normalizer.shortRun` find duplicates, groups and `!=` leaves by hashing
    /// instead of pairwise: the same rewrites as a short run's (a text of thousands of ORs took
    /// a second to normalize pairwise).
    @Test func longRunsMergeAsShortOnesDo() {
        // An OR of 40 equalities on `a` (each value twice) and 20 on distinct keys.
        var disjuncts: [Filter] = []
        for i in 0..<40 { disjuncts.append(cmp("a", .eq, .int(Int64(i % 20)), .sql)) }
        for i in 0..<20 { disjuncts.insert(cmp(FieldPath("k\(i)"), .eq, 1, .sql), at: 3 * i) }
        let merged = leaf(.inCollection(.key("a"), .list((0..<20).map { .literal(.int(Int64($0))) }), []), .sql)
        let (or, orRules) = normalize(.or(disjuncts))
        guard case .or(let parts) = or else {
            Issue.record("\(or)")
            return
        }
        #expect(parts.count == 21)
        #expect(parts.contains(merged))
        #expect(parts.filter { $0 != merged } == (0..<20).map { cmp(FieldPath("k\($0)"), .eq, 1, .sql) })
        #expect(orRules.contains("or-to-in"))
        // An AND of 25 leaves (20 keys, a duplicate twice, three ranges on `a` that merge), then
        // with `b = 4` and a `b !=` that contradicts it or that it makes redundant.
        var conjuncts: [Filter] = (0..<20).map { cmp(FieldPath("k\($0)"), .gt, 1) }
        conjuncts += [cmp("k3", .gt, 1), cmp("a", .ge, 5), cmp("a", .lt, 9), cmp("a", .gt, 7), cmp("k3", .gt, 1)]
        #expect(
            normalize(.and(conjuncts)).0
                == .and(
                    (0..<20).map { cmp(FieldPath("k\($0)"), .gt, 1) } + [
                        cmp("a", .gt, 7), cmp("a", .lt, 9),
                    ]))
        #expect(normalize(.and(conjuncts + [cmp("b", .eq, 4), cmp("b", .ne, 4)])).0 == .constant(false))
        #expect(
            normalize(.and(conjuncts + [cmp("b", .eq, 4), cmp("b", .ne, 5)])).0
                == .and(
                    (0..<20).map {
                        cmp(FieldPath("k\($0)"), .gt, 1)
                    } + [cmp("a", .gt, 7), cmp("a", .lt, 9), cmp("b", .eq, 4)]))
    }

    /// Normalized predicates select exactly what the originals select, on random data with
    /// the store's facts.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func normalizedPredicatesAgreeWithTheOriginals(seed: UInt64) {
        var random = RandomData(seed: seed)
        let db = random.database(items: 40, others: 6)
        let store = ColumnStore(database: db)
        let facts = StoreKeyFacts(store: store, table: store.table("Item")!)
        let reference = ReferenceEvaluator(database: db, now: { 0 }, random: { 0.5 })
        for _ in 0..<300 {
            let q = random.query(depth: 3)
            var n = Normalizer(facts: facts, fallibility: Fallibility(facts: facts), limits: .default)
            var normalized = q
            normalized.predicate = n.normalize(q.predicate)
            let before = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(q) }
            let after = EngineAgreementTests.outcome { () throws(Diagnostic) in try reference.run(normalized) }
            #expect(
                before == after, "\(PredicateText.render(q.predicate)) → \(PredicateText.render(normalized.predicate))")
        }
    }
}
