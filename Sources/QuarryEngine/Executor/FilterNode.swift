import QuarryCore

/// A compiled filter: narrows a batch of rows to those that satisfy its part of the predicate.
/// Leaves test typed columns in tight loops; AND, OR and NOT combine them. Every node counts
/// the rows it sees and keeps (and, under EXPLAIN ANALYZE, the time it takes).
///
/// A node evaluates exactly the rows the reference evaluator would evaluate it on: AND hands
/// each operand the rows the earlier ones kept, OR the rows the earlier ones rejected.
class FilterNode {
    /// What the node tests, for EXPLAIN (rendered on demand: planning should not pay for it).
    var label: String { labelText ?? labelPredicate.map(PredicateText.render) ?? "" }
    private let labelText: String?
    private let labelPredicate: Filter?
    /// Per-row cost on realm-core's scale (an integer comparison is 0.25, a regex 100).
    let cost: Double
    /// Estimated share of rows that pass.
    var selectivity: Double
    /// Whether evaluating it may throw (see `Fallibility`).
    var mayThrow: Bool

    /// The source text of the leaf the node tests, which locates the errors it raises.
    final let sourceRange: SourceRange?

    final var rowsIn = 0
    final var rowsOut = 0
    final var elapsed: Duration = .zero

    init(label: String, cost: Double, selectivity: Double, mayThrow: Bool) {
        labelText = label
        labelPredicate = nil
        sourceRange = nil
        self.cost = cost
        self.selectivity = selectivity
        self.mayThrow = mayThrow
    }

    init(describing predicate: Filter, cost: Double, selectivity: Double, mayThrow: Bool) {
        labelText = nil
        labelPredicate = predicate
        if case .leaf(let leaf) = predicate { sourceRange = leaf.range } else { sourceRange = nil }
        self.cost = cost
        self.selectivity = selectivity
        self.mayThrow = mayThrow
    }

    var children: [FilterNode] { [] }

    /// Expected work per row entering the node, on the `cost` scale.
    var expectedCost: Double { cost }

    final func run(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        rowsIn += b.count
        do throws(Diagnostic) {
            if ctx.run.timing {
                let start = ContinuousClock.now
                defer { elapsed += ContinuousClock.now - start }
                try refine(&b, ctx)
            } else {
                try refine(&b, ctx)
            }
        } catch {
            throw error.located(at: sourceRange)
        }
        rowsOut += b.count
    }

    /// Narrows the batch. Subclasses override.
    func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {}

    /// How many rows of `range` (all live) the node keeps, counted without listing them; nil
    /// when the node cannot count so (the batch is then filtered). What a plain count of one
    /// range test over its own column reads (docs/ARCHITECTURE.md#counting).
    func count(_ range: Range<Int>, _ ctx: ExecContext) -> Int? { nil }

    final func resetCounters() {
        rowsIn = 0
        rowsOut = 0
        elapsed = .zero
        for child in children { child.resetCounters() }
    }

    /// The order of operands that tends to do the least work: cheap and selective first
    /// (cost over the share of rows removed).
    final var rank: Double {
        let pass = rowsIn >= 512 ? Double(rowsOut) / Double(rowsIn) : selectivity
        return cost / Swift.max(0.01, 1 - pass)
    }
}

final class ConstantNode: FilterNode {
    let value: Bool
    init(_ value: Bool) {
        self.value = value
        super.init(label: value ? "TRUE" : "FALSE", cost: 0, selectivity: value ? 1 : 0, mayThrow: false)
    }
    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        if !value { b.removeAll() }
    }

    override func count(_ range: Range<Int>, _ ctx: ExecContext) -> Int? { value ? range.count : 0 }
}

/// A part the fast path does not compile, evaluated row by row by the reference evaluator on
/// the stored record: always correct, never fast.
final class FallbackNode: FilterNode {
    let predicate: Filter
    init(_ predicate: Filter, mayThrow: Bool, selectivity: Double = 0.5) {
        self.predicate = predicate
        super.init(describing: predicate, cost: 200, selectivity: selectivity, mayThrow: mayThrow)
    }
    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let p = predicate
        try b.refineThrowing { (_, r) throws(Diagnostic) in try ctx.evaluate(p, row: r) }
    }
}

/// A leaf whose preparation failed (an inner query over its row limit, an invalid regex): it
/// throws that error on the first row that reaches it, where the reference would.
final class ThrowingNode: FilterNode {
    let error: Diagnostic
    init(_ leaf: Leaf, error: Diagnostic) {
        self.error = error
        super.init(describing: .leaf(leaf), cost: 0, selectivity: 0, mayThrow: true)
    }
    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        if b.count > 0 { throw error }
    }
}

/// AND: each operand narrows what the previous ones kept. Operands inside a run of
/// operands that cannot throw are reordered as the scan goes by their measured pass rate
/// (realm-core's adaptive order); nothing moves across an operand that may throw.
final class AndNode: FilterNode {
    private(set) var operands: [FilterNode]
    private var batches = 0

    init(_ operands: [FilterNode]) {
        self.operands = operands
        super.init(
            label: "AND", cost: operands.reduce(0) { $0 + $1.cost },
            selectivity: operands.reduce(1) { $0 * $1.selectivity },
            mayThrow: operands.contains { $0.mayThrow })
    }

    override var children: [FilterNode] { operands }

    override var expectedCost: Double {
        var total = 0.0, reaching = 1.0
        for o in operands {
            total += reaching * o.expectedCost
            reaching *= o.selectivity
        }
        return total
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        for operand in operands {
            if b.count == 0 { break }
            try operand.run(&b, ctx)
        }
        batches += 1
        if batches & 7 == 0 { adapt() }
    }

    private func adapt() {
        var start = 0
        while start < operands.count {
            var end = start
            while end < operands.count, !operands[end].mayThrow { end += 1 }
            if end - start > 1 { operands[start..<end].sort { $0.rank < $1.rank } }
            start = end + 1
        }
    }
}

/// OR: each operand sees the rows no earlier operand accepted; a row passes when one does.
final class OrNode: FilterNode {
    let operands: [FilterNode]
    private var remaining = Batch()
    private var work = Batch()
    private let marks = RowMarks()

    init(_ operands: [FilterNode]) {
        self.operands = operands
        super.init(
            label: "OR", cost: operands.reduce(0) { $0 + $1.cost },
            selectivity: Swift.min(1, operands.reduce(0) { $0 + $1.selectivity }),
            mayThrow: operands.contains { $0.mayThrow })
    }

    override var children: [FilterNode] { operands }

    override var expectedCost: Double {
        var total = 0.0, reaching = 1.0
        for o in operands {
            total += reaching * o.expectedCost
            reaching *= 1 - o.selectivity
        }
        return total + 1
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let marks = self.marks
        marks.ensure(ctx.table.rowCount)
        remaining.assign(b)
        do throws(Diagnostic) {
            for operand in operands {
                if remaining.count == 0 { break }
                work.assign(remaining)
                try operand.run(&work, ctx)
                if work.count == 0 { continue }
                work.forEach { marks.set($0) }
                remaining.refine { _, r in !marks.contains(r) }
            }
        } catch {
            // The plan outlives a failed run: rows left marked would pass its next run unread.
            b.forEach { marks.clear($0) }
            throw error
        }
        b.refine { _, r in marks.contains(r) }
        b.forEach { marks.clear($0) }
    }
}

/// NOT of a part whose own negation is not logical NOT (SQL leaves): the rows the part
/// rejects.
final class NotNode: FilterNode {
    let operand: FilterNode
    private var work = Batch()
    private let marks = RowMarks()

    init(_ operand: FilterNode) {
        self.operand = operand
        super.init(label: "NOT", cost: operand.cost, selectivity: 1 - operand.selectivity, mayThrow: operand.mayThrow)
    }

    override var children: [FilterNode] { [operand] }

    override var expectedCost: Double { operand.expectedCost + 1 }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let marks = self.marks
        marks.ensure(ctx.table.rowCount)
        work.assign(b)
        try operand.run(&work, ctx)
        work.forEach { marks.set($0) }
        b.refine { _, r in !marks.contains(r) }
        work.forEach { marks.clear($0) }
    }
}

/// One bit per row of a class, cleared again after each use.
final class RowMarks {
    private var words: UnsafeMutablePointer<UInt64>
    private var capacity: Int

    init() {
        capacity = 0
        words = .allocate(capacity: 1)
    }
    deinit { words.deallocate() }

    func ensure(_ rows: Int) {
        let n = (rows + 63) >> 6
        guard n > capacity else { return }
        words.deallocate()
        words = .allocate(capacity: n)
        words.initialize(repeating: 0, count: n)
        capacity = n
    }
    @inline(__always) func set(_ r: Int) { words[r >> 6] |= 1 << UInt64(r & 63) }
    @inline(__always) func clear(_ r: Int) { words[r >> 6] &= ~(1 << UInt64(r & 63)) }
    @inline(__always) func contains(_ r: Int) -> Bool { words[r >> 6] & (1 << UInt64(r & 63)) != 0 }
}
