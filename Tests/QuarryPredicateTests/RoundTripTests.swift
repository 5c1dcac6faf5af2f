import QuarryCore
import Testing
import QuarryTestSupport
@testable import QuarryPredicate

@Suite struct RoundTripTests {
    /// `parse(print(ir)) == ir` over a seeded corpus of IR in the subset the parser produces.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func parseOfPrintIsIdentity(seed: UInt64) throws {
        var gen = RandomIR(seed: seed, subset: .predicateFormat(withArguments: false))
        for i in 0..<1000 {
            let ir = gen.filter()
            let text = try PredicateFormat.print(ir)
            let back: Filter
            do {
                back = try PredicateFormat.parse(text, limits: Limits(maxNestingDepth: 1000))
            } catch {
                Issue.record("seed \(seed) #\(i): \(text)\n\(error)")
                continue
            }
            #expect(back == ir, "seed \(seed) #\(i): \(text)")
        }
    }

    /// The same with values only `%@` can carry (dates, pointers, objects), inner queries and
    /// keys that are not identifiers (`%K`).
    @Test(arguments: [11, 12, 13] as [UInt64])
    func parseOfPrintWithArgumentsIsIdentity(seed: UInt64) throws {
        var gen = RandomIR(seed: seed, subset: .predicateFormat(withArguments: true))
        for i in 0..<1000 {
            let ir = gen.filter()
            let (text, args) = try PredicateFormat.printWithArguments(ir)
            let back: Filter
            do {
                back = try PredicateFormat.parse(text, arguments: args, limits: Limits(maxNestingDepth: 1000))
            } catch {
                Issue.record("seed \(seed) #\(i): \(text) \(args)\n\(error)")
                continue
            }
            #expect(back == ir, "seed \(seed) #\(i): \(text)")
        }
    }

    /// Printing is stable: the canonical text of a parsed text parses to the same IR and
    /// prints to itself.
    @Test func printOfParseIsStable() throws {
        let texts =
            (LoweringTests.comparisons + LoweringTests.compounds + LoweringTests.strings
            + LoweringTests.quantifiers + LoweringTests.collections + LoweringTests.expressions
            + LoweringTests.literals).filter { $0.arguments.isEmpty }.map(\.text)
        for text in texts {
            let ir = try PredicateFormat.parse(text)
            let canonical = try PredicateFormat.print(ir)
            let again = try PredicateFormat.parse(canonical)
            #expect(again == ir, "\(text) → \(canonical)")
            #expect(try PredicateFormat.print(again) == canonical, "\(text)")
        }
    }

    @Test func theCorpusCoversEveryConstruct() {
        var gen = RandomIR(seed: 1, subset: .predicateFormat(withArguments: false))
        var seen = Set<String>()
        for _ in 0..<1000 { gen.filter().collectShapes(into: &seen) }
        let expected: Set<String> = [
            "constant", "and", "or", "not", "compare", "between", "inCollection", "isNull", "string", "quantified",
            "literal", "key", "variable", "evaluatedObject", "member", "list", "arithmetic", "negate", "function",
            "aggregate", "index", "subquery", "cast",
        ]
        #expect(expected.subtracting(seen).isEmpty, "missing: \(expected.subtracting(seen))")
    }
}

extension Filter {
    /// The case names of the filters, conditions and expressions in the predicate.
    func collectShapes(into seen: inout Set<String>) {
        IRNode.filter(self).forEach(innerQueries: false) { node, _ in
            let described: String
            switch node {
            case .filter(let f): described = "\(f)"
            case .condition(let c): described = "\(c)"
            case .expr(let e): described = "\(e)"
            case .leaf, .query: return true
            }
            let name = described.prefix { $0 != "(" }
            seen.insert(String(name.split(separator: ".").last ?? name))
            return true
        }
    }
}
