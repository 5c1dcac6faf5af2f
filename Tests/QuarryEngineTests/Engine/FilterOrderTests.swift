import QuarryTestSupport
import Testing

@testable import QuarryEngine

/// An AND's operands start in rank order (cheap and selective first) within each run of
/// operands that cannot throw, equal ranks in their written order, and an operand that may
/// throw stays where it was written.
@Suite struct FilterOrderTests {
    /// The order by definition: each run sorted by (rank, position).
    static func expected(_ nodes: [FilterNode]) -> [FilterNode] {
        var out: [FilterNode] = [], run: [(Int, FilterNode)] = []
        func flush() {
            out += run.sorted { ($0.1.rank, $0.0) < ($1.1.rank, $1.0) }.map(\.1)
            run = []
        }
        for (i, node) in nodes.enumerated() {
            if node.mayThrow {
                flush()
                out.append(node)
            } else {
                run.append((i, node))
            }
        }
        flush()
        return out
    }

    @Test(arguments: 0..<300) func runsAreSortedStablyByRank(seed: Int) {
        var random = RandomData(seed: UInt64(seed))
        let nodes = (0..<random.int(10)).map { i in
            FilterNode(
                label: "n\(i)", cost: random.pick([0.25, 1, 1, 35, 100]),
                selectivity: random.pick([0, 0.1, 0.5, 0.5, 1]),
                mayThrow: random.chance(25))
        }
        let order = FilterCompiler.initialOrder(nodes)
        #expect(order.map(\.label) == Self.expected(nodes).map(\.label))
    }
}
