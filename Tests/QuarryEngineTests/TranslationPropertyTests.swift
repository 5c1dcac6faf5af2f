import Quarry
import QuarryTestSupport
import Testing

/// Every dialect pair, on random queries and random data: a query written in one dialect is
/// translated into another, the translation compiles there against the same schema, and both
/// select the same objects (reference evaluator), unless the translation is refused as
/// `translate.inexpressible`.
@Suite struct TranslationPropertyTests {
    static let pairs: [(Dialect, Dialect)] = Dialect.allCases.flatMap { a in
        Dialect.allCases.filter { $0 != a }.map { (a, $0) }
    }

    static let typedKeys: [FieldPath] = ["s", "n", "d", "arr", "ref", "ref.x", "refs", "refs.x", "g"]
    static let mixedKeys: [FieldPath] = ["a", "b", "ref.x", "refs.x", "refs"]

    /// How many source queries must translate, per pair (a little below what the rules reach
    /// with these seeds, so that a rule that stops applying shows up).
    static let minimumWithSchema: [String: Int] = [
        "sql→predicate": 95, "sql→json": 80, "predicate→sql": 190, "predicate→json": 240, "json→sql": 240,
        "json→predicate": 210,
    ]

    /// With the data as schema (what `quarry translate --data` does).
    @Test(arguments: pairs)
    func translationsCompileAndKeepTheResults(_ from: Dialect, _ to: Dialect) throws {
        var rng = SplitMix64(seed: 0x7A11 &+ UInt64(Self.pairs.firstIndex { $0 == (from, to) } ?? 0))
        var sources = 0, translated = 0
        for _ in 0..<25 {
            let db = SemanticsConversionPropertyTests.typedDatabase(&rng)
            for _ in 0..<40 {
                let p = SemanticsConversionPropertyTests.randomFilter(
                    &rng, keys: Self.typedKeys, semantics: [from.semantics])
                let options = CompileOptions(schema: db)
                guard let (text, _) = Self.source(p, in: from, on: db, options) else { continue }
                sources += 1
                if try check(text, from, to, db, options, exact: false) { translated += 1 }
            }
        }
        let name = "\(from)→\(to)"
        #expect(translated >= Self.minimumWithSchema[name] ?? 0, "\(name): \(translated) of \(sources) translated")
    }

    /// With `exact` and no schema the translation holds on any data: here fields that mix
    /// values of every type, arrays, nulls and dangling pointers.
    @Test(arguments: pairs)
    func exactTranslationsHoldOnAnyData(_ from: Dialect, _ to: Dialect) throws {
        var rng = SplitMix64(seed: 0xE8AC7 &+ UInt64(Self.pairs.firstIndex { $0 == (from, to) } ?? 0))
        for _ in 0..<25 {
            let db = SemanticsConversionPropertyTests.mixedDatabase(&rng)
            for _ in 0..<40 {
                let p = SemanticsConversionPropertyTests.randomFilter(
                    &rng, keys: Self.mixedKeys, semantics: [from.semantics])
                guard let (text, _) = Self.source(p, in: from, on: db, CompileOptions()) else { continue }
                _ = try check(text, from, to, db, CompileOptions(), exact: true)
            }
        }
    }

    /// The random IR as text a user of `dialect` could write (it prints, and compiles back
    /// under `options`), with the objects it selects; nil when it does not or fails to run.
    static func source(_ p: Filter, in dialect: Dialect, on db: Database, _ options: CompileOptions) -> (
        String, [String]
    )? {
        guard let text = try? dialect.print(p, className: "T", schema: options.schema),
            let query = try? dialect.compile(text, className: "T", options: options),
            let ids = try? ReferenceEvaluator(database: db).run(query).objectIds
        else { return nil }
        return (text, ids)
    }

    /// Translates `text`; a translation must compile in `to` and select what the source does.
    /// Returns whether it translated.
    private func check(
        _ text: String, _ from: Dialect, _ to: Dialect, _ db: Database, _ options: CompileOptions,
        exact: Bool
    ) throws -> Bool {
        let expected = try ReferenceEvaluator(database: db).run(from.compile(text, className: "T", options: options))
            .objectIds
        let out: String
        do {
            out = try from.translate(text, to: to, className: "T", options: options, exact: exact)
        } catch {
            #expect(error.all.allSatisfy { $0.code == "translate.inexpressible" }, "\(from) \(text) → \(to): \(error)")
            return false
        }
        let target: Query
        do {
            target = try to.compile(out, className: "T", options: options)
        } catch {
            Issue.record("\(from) \(text) → \(to) \(out) does not compile: \(error)")
            return true
        }
        let actual = try ReferenceEvaluator(database: db).run(target).objectIds
        #expect(actual == expected, "\(from) \(text) → \(to) \(out)")
        return true
    }
}
