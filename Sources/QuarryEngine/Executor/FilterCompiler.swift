import QuarryCore

/// Compiles a normalized predicate into filter nodes over one class's columns: typed leaves
/// where the column and the literal allow, the reference evaluator for the rest.
struct FilterCompiler {
    let store: ColumnStore
    let table: ClassTable
    let limits: Limits
    let fallibility: Fallibility
    /// Inner queries that failed in this run: their leaves throw when reached.
    let failedInner: [Query: Diagnostic]
    /// An evaluation over an empty database, for the answers on missing and null operands.
    let folding: Evaluation
    /// Key resolutions and answers already worked out for this store.
    let memo: PlanningMemo
    /// The literal slots of the predicate's leaves, where the plan may read them from each
    /// execution (docs/ARCHITECTURE.md#plan-parameters); none where it may not.
    var leafSlots = LeafSlots.none
    /// Collects the checks of the slots typed leaves read (nil: leaves hold their literals).
    var parameterChecks: ParameterChecks? = nil
    /// The plan's source is chosen and reads no literal of what this compiles: a leaf on an
    /// indexed key may read its literals from each execution as any other.
    var sourceIsChosen = false

    /// A compiler whose memo and folding evaluation are its own, for a node that compiles
    /// while its plan runs: the replica's are shared by every plan and used only under the
    /// plan cache's lock (docs/ARCHITECTURE.md#concurrency).
    func owned() -> FilterCompiler {
        let memo = PlanningMemo(version: store.version)
        var fallibility = Fallibility(
            facts: MemoizedKeyFacts(facts: StoreKeyFacts(store: store, table: table), memo: memo))
        fallibility.innerSucceeds = self.fallibility.innerSucceeds
        return FilterCompiler(
            store: store, table: table, limits: limits, fallibility: fallibility, failedInner: failedInner,
            folding: Normalizer.folding(limits), memo: memo)
    }

    /// The key path resolved against the store (nil: only the reference can follow it).
    func access(_ path: FieldPath) -> KeyAccess? { memo.access(path, in: table, store: store) }

    func compile(_ p: Filter) -> FilterNode {
        switch p {
        case .constant(let b): return ConstantNode(b)
        case .leaf(let l): return leaf(l)
        case .not(let q): return NotNode(compile(q))
        case .or(let ps): return OrNode(ps.map(compile))
        case .and(let ps): return AndNode(Self.initialOrder(ps.map(compile)))
        }
    }

    /// Cheap and selective operands first, within each run of operands that cannot throw.
    static func initialOrder(_ nodes: [FilterNode]) -> [FilterNode] {
        // An insertion sort of each run, in place: stable (equal ranks keep their order), and a
        // few nodes need no sorting machinery (it was a fifth of compiling a two-leaf AND).
        var out: [FilterNode] = []
        out.reserveCapacity(nodes.count)
        var runStart = 0
        for node in nodes {
            out.append(node)
            if node.mayThrow {
                runStart = out.count
                continue
            }
            let rank = node.rank
            var i = out.count - 1
            while i > runStart, out[i - 1].rank > rank {
                out[i] = out[i - 1]
                i -= 1
            }
            out[i] = node
        }
        return out
    }

    func fallback(_ l: Leaf, selectivity: Double = 0.5) -> FilterNode {
        FallbackNode(.leaf(l), mayThrow: fallibility.mayThrow(l), selectivity: selectivity)
    }

    /// What the leaf answers for a row whose key reaches nothing, and one where it reaches
    /// null: the reference's own answer on a synthetic object (or, for the commonest leaves,
    /// its rule: `SlotAnswers.ofScalarTest`).
    func answers(_ l: Leaf, _ path: FieldPath) -> SlotAnswers? {
        let known = SlotAnswers.ofScalarTest(l, subject: path) { pattern, regexOptions, options in
            (try? memo.regex(pattern, regexOptions, options, limits)) != nil
        }
        if let known { return known }
        guard let synthetic = l.replacingSubject(path, with: Self.operand) else { return nil }
        let predicate = Filter.leaf(synthetic)
        guard let m = try? folding.evaluate(predicate, Scope(record: Self.missingOperand, className: table.name)),
            let n = try? folding.evaluate(predicate, Scope(record: Self.nullOperand, className: table.name))
        else { return nil }
        return SlotAnswers(missing: m, null: n)
    }

    /// The reference's answer for a row whose key holds `value`: for leaves whose answer is
    /// the same for every typed value of a column (a comparison with null, between types that
    /// never compare), `value` stands for them all. Nil when the reference throws.
    func answer(_ l: Leaf, _ path: FieldPath, holding value: Value) -> Bool? {
        guard case .success(let b) = outcome(l, path, holding: value) else { return nil }
        return b
    }

    /// `answer(_:_:holding:)` with the reference's error when it fails; nil when the leaf's
    /// subject cannot be replaced.
    func outcome(_ l: Leaf, _ path: FieldPath, holding value: Value) -> Result<Bool, Diagnostic>? {
        guard let synthetic = l.replacingSubject(path, with: Self.operand) else { return nil }
        let record = Record(objectId: "", fields: [("__quarry_operand", value)])
        do throws(Diagnostic) {
            return .success(try folding.evaluate(.leaf(synthetic), Scope(record: record, className: table.name)))
        } catch {
            return .failure(error)
        }
    }

    /// A value of a scalar column's type, to stand for every typed value in `answer(_:_:holding:)`.
    static func representative(_ kind: ColumnKind) -> Value? {
        switch kind {
        case .int: return .int(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .date: return .date(0)
        case .bool: return .bool(false)
        case .geoPoint: return .geoPoint(GeoPoint(latitude: 0, longitude: 0))
        default: return nil
        }
    }

    private static let operand = FieldPath(["__quarry_operand"])
    private static let missingOperand = Record(objectId: "", fields: [])
    private static let nullOperand = Record(objectId: "", fields: [("__quarry_operand", .null)])

    /// The answer for typed values where the test itself is unknown (an ordered comparison
    /// between types that never order, a string test on a number): false under `.sql`,
    /// the negation's value otherwise.
    static func unknown(_ l: Leaf) -> Bool { l.semantics == .sql ? false : l.negated }
}
