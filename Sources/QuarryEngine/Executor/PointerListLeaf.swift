import QuarryCore

/// Leaves over a pointer-list column (arrays of pointers, relations): membership of some
/// element in an inner query's rows, SQL's IS NULL (an empty list) and the size. A dangling
/// element is a pointer like any other (docs/SEMANTICS.md): in no inner query's results, and
/// compared with literals by the reference, which has its objectId.
final class PointerListLeaf: KeyLeaf {
    enum Test {
        /// Some element among the rows of an inner query (`inQuery`).
        case inner(Query)
        /// No element at all (SQL `isNull`: pointers are never null).
        case empty
        /// Exactly this many elements.
        case size(Int32)
        /// Some element passes: an existing target in `rows` (or, with `flip`, not in it); a
        /// row with a dangling element goes to the reference.
        case members(RowSet, flip: Bool)
    }

    let lists: PointerListColumn
    let test: Test
    /// `.sql`: an element must pass with the negation applied to it.
    let perElementNegation: Bool
    /// Otherwise: the answer is `(some element passes) != resultNegation`.
    let resultNegation: Bool

    /// - Parameter invertResult: Parse's `$ne` / `$nin`: no element equals, the membership test
    ///   with the result inverted.
    init(
        _ leaf: Leaf, access: KeyAccess, lists: PointerListColumn, test: Test, invertResult: Bool = false,
        answers: SlotAnswers
    ) {
        self.lists = lists
        self.test = test
        let existential: Bool
        switch test {
        case .inner, .members: existential = true
        case .empty, .size: existential = false
        }
        perElementNegation = existential && leaf.semantics == .sql && leaf.negated
        resultNegation = (existential ? leaf.semantics != .sql && leaf.negated : leaf.negated) != invertResult
        super.init(leaf, access: access, answers: answers, cost: 5, selectivity: 0.2)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let en = perElementNegation, rn = resultNegation
        try lists.starts.withUnsafeBufferPointer { (starts) throws(Diagnostic) in
            try lists.counts.withUnsafeBufferPointer { (counts) throws(Diagnostic) in
                try lists.targets.withUnsafeBufferPointer { (targets) throws(Diagnostic) in
                    switch test {
                    case .size(let n):
                        try drive(&b, ctx) { t in (counts[t] == n) != rn }
                    case .empty:
                        try drive(&b, ctx) { t in (counts[t] == 0) != rn }
                    case .members(let set, let flip):
                        try driveDeciding(&b, ctx) { t in
                            let start = Int(starts[t])
                            var passes = false
                            for e in start..<start + Int(counts[t]) {
                                let target = Int(targets[e])
                                if target < 0 { return 2 }
                                if (set.contains(target) != flip) != en { passes = true }
                            }
                            return passes != rn ? 1 : 0
                        }
                    case .inner(let q):
                        let set =
                            ctx.run.innerRowSet(q, targetClass: lists.targetClass) ?? RowSet(rows: [], capacity: 0)
                        try drive(&b, ctx) { t in
                            let start = Int(starts[t])
                            for e in start..<start + Int(counts[t]) {
                                if set.contains(Int(targets[e])) != en { return !rn }
                            }
                            return rn
                        }
                    }
                }
            }
        }
    }
}
