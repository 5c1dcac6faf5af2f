import Testing
import QuarryTestSupport
import QuarryCore
import QuarrySQL

/// parse(print(ir)) == ir and print(parse(print(ir))) == print(ir) over generated IR.
@Suite struct RoundTripTests {
    static let casesPerChunk = 500

    @Test(arguments: 0..<6)
    func untyped(chunk: Int) {
        check(chunk: chunk, typed: false, className: nil, schema: nil)
    }

    @Test(arguments: 0..<2)
    func typedWithSchema(chunk: Int) {
        check(chunk: chunk, typed: true, className: "T", schema: RandomIR.sqlSchema)
    }

    private func check(chunk: Int, typed: Bool, className: String?, schema: (any Schema)?) {
        var failures = 0
        for i in 0..<Self.casesPerChunk where failures < 3 {
            let seed = UInt64(chunk * Self.casesPerChunk + i) &+ (typed ? 1 << 32 : 0)
            var generator = RandomIR(seed: seed, subset: .sqlWhere(typed: typed))
            let ir = generator.filter()
            do {
                let text = try SQLWhere.print(ir)
                let back = try SQLWhere.parse(text, className: className, schema: schema)
                if back != ir {
                    failures += 1
                    Issue.record("seed \(seed): \(text)\n  ir:   \(ir)\n  back: \(back)")
                    continue
                }
                let again = try SQLWhere.print(back)
                if again != text {
                    failures += 1
                    Issue.record("seed \(seed): print is not stable:\n  \(text)\n  \(again)")
                }
            } catch {
                failures += 1
                Issue.record("seed \(seed): \(error)\n  ir: \(ir)")
            }
        }
    }

    @Test func corpusCoversEveryLeafKind() {
        var seen: Set<String> = []
        func visit(_ p: Filter) {
            switch p {
            case .and(let ps), .or(let ps): ps.forEach(visit)
            case .leaf(let l):
                switch l.condition {
                case .compare(_, _, .literal(.date), _), .compare(.literal(.date), _, _, _): seen.insert("date")
                case .compare: seen.insert("compare")
                case .between: seen.insert("between")
                case .inCollection: seen.insert("in")
                case .isNull: seen.insert("isNull")
                case .string: seen.insert("like")
                case .geo(.distance): seen.insert("distance")
                case .geo(.withinPolygon): seen.insert("within")
                case .select: seen.insert("select")
                default: seen.insert("other")
                }
                if l.negated { seen.insert("negated") }
            case .constant: seen.insert("constant")
            case .not: seen.insert("not")
            }
        }
        for seed in 0..<300 {
            var g = RandomIR(seed: UInt64(seed), subset: .sqlWhere(typed: false))
            visit(g.filter())
        }
        #expect(
            seen == [
                "date", "compare", "between", "in", "isNull", "like", "distance", "within", "select",
                "negated", "constant",
            ])
    }
}
