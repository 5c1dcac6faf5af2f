import QuarryCore

/// The literals of a plan's shape that its compiled filter reads from each execution instead
/// of holding them (docs/ARCHITECTURE.md#plan-parameters). A cached plan runs for other
/// literals of its shape when every literal that differs is one of these and is accepted by
/// its slot's check; the plan itself is never changed.
struct PlanParameters {
    /// The literals the plan was made for, in `PlanShape` order, in the form its normalized
    /// predicate holds them (`forms`).
    let literals: [Value]
    /// The slots the filter reads from the execution's literals, each with the check a new
    /// literal in it must pass (it must make the same kind of typed test).
    let checks: SlotChecks
    /// How a query's literals become the ones the normalized predicate holds.
    let forms: LiteralForms

    init(literals: [Value], checks: SlotChecks, forms: LiteralForms = .identity) {
        self.literals = literals
        self.checks = checks
        self.forms = forms
    }

    static var none: PlanParameters { PlanParameters(literals: [], checks: SlotChecks(slots: 0)) }

    /// The literals the plan reads from the execution for a query's `new` literals of its
    /// shape (in their normalized form); nil when the plan does not answer them.
    func bind(_ new: [Value]) -> [Value]? {
        guard !checks.isEmpty, new.count == literals.count, let new = forms.apply(new) else { return nil }
        for i in new.indices where !PlanShape.sameLiteral(new[i], literals[i]) {
            guard let check = checks[i], check(new[i]) else { return nil }
        }
        return new
    }
}

/// Each slot's check of a new literal (nil: the slot is not read from the execution). A plan's
/// slots are few and numbered from 0: an array, where a dictionary hashed each slot and grew
/// by rehashing as a filter's leaves added their checks one by one.
struct SlotChecks {
    private var checks: [((Value) -> Bool)?]
    /// How many slots have a check.
    private(set) var count = 0

    /// - Parameter slots: the plan's literal count (a slot past it makes room for itself).
    init(slots: Int) { checks = Array(repeating: nil, count: slots) }

    var isEmpty: Bool { count == 0 }

    subscript(slot: Int) -> ((Value) -> Bool)? {
        get { slot < checks.count ? checks[slot] : nil }
        set {
            if slot >= checks.count { checks += Array(repeating: nil, count: slot + 1 - checks.count) }
            count += (newValue == nil ? 0 : 1) - (checks[slot] == nil ? 0 : 1)
            checks[slot] = newValue
        }
    }

    /// The slots that have a check, in order.
    var slots: [Int] { checks.indices.filter { checks[$0] != nil } }

    /// Takes `other`'s checks of the slots that have none here.
    mutating func merge(_ other: SlotChecks) {
        for slot in other.checks.indices where self[slot] == nil {
            if let check = other.checks[slot] { self[slot] = check }
        }
    }
}

/// How a query's literals become the literals its normalized predicate holds in the same slots
/// (docs/ARCHITECTURE.md#plan-parameters): each stays as it is, but a simple LIKE pattern, which
/// the normalizer rewrites into the text of a prefix, suffix or substring test (`'J%'` into
/// `BEGINSWITH 'J'`). A new pattern has a form only when it makes the same test.
struct LiteralForms {
    /// Slots holding a LIKE pattern rewritten into a string test, with the test.
    private var likes: [Int: Like] = [:]

    private struct Like {
        let syntax: LikeSyntax
        let op: StringOperator
        /// NSPredicate semantics, under which an empty text is not rewritten.
        let predicate: Bool
    }

    static var identity: LiteralForms { LiteralForms() }

    /// The forms of the literals of `predicate`, normalized into the leaves `tests` with the same
    /// leaves in the same order: a LIKE leaf whose normalized leaf is a prefix, suffix or
    /// substring test gives its pattern's slot (as `PlanShape` numbers them) that test.
    init(likesOf predicate: Filter, normalized tests: [(leaf: Leaf, slots: Range<Int>)]) {
        let written = LeafLiterals.of(predicate)
        guard written.count == tests.count else { return }
        for (w, t) in zip(written, tests) {
            guard case .string(.key, .like(let syntax), .literal(.string), _) = w.leaf.condition,
                case .string(_, let op, _, _) = t.leaf.condition,
                op == .beginsWith || op == .endsWith || op == .contains
            else { continue }
            // The pattern is the leaf's last literal (the key before it holds none).
            likes[w.slots.upperBound - 1] = Like(syntax: syntax, op: op, predicate: w.leaf.semantics == .predicate)
        }
    }

    private init() {}

    /// The normalized literals for a query's; nil when a pattern would make another test.
    func apply(_ literals: [Value]) -> [Value]? {
        guard !likes.isEmpty else { return literals }
        var out = literals
        for (slot, like) in likes {
            guard slot < literals.count, case .string(let pattern) = literals[slot],
                let (op, text, _) = Normalizer.simpleLike(pattern, like.syntax), op == like.op,
                !(text.isEmpty && like.predicate)
            else { return nil }
            out[slot] = .string(text)
        }
        return out
    }
}

/// The leaves of a predicate in walk order, each with the slots of its literals (as
/// `PlanShape` numbers a predicate's literals).
enum LeafLiterals {
    static func of(_ p: Filter) -> [(leaf: Leaf, slots: Range<Int>)] {
        var walk = Walk()
        _ = walk.filter(p, binding: nil)
        return walk.leaves
    }

    private struct Walk: IRChildTransform {
        static var readsOnly: Bool { true }
        var next = 0
        var leaves: [(leaf: Leaf, slots: Range<Int>)] = []

        mutating func leaf(_ l: Leaf) -> Leaf {
            let start = next
            next += PlanShape.literalCount(of: l)
            leaves.append((l, start..<next))
            return l
        }

        mutating func query(_ q: Query) -> Query { q }
    }
}

/// Slots of a normalized predicate's leaves, for the compiler: the first literal of each leaf
/// and how many it holds, in `PlanShape` order. A leaf that occurs twice gets none (which of
/// its occurrences a compiled node stands for is not known).
struct LeafSlots {
    /// Each distinct leaf with its slots (nil: it occurs more than once).
    private var leaves: [(leaf: Leaf, slots: Range<Int>?)] = []
    /// Where each leaf is in `leaves`, once they are more than a short run: a few leaves are
    /// found by comparing them, which costs less than hashing them (a leaf hashes its literals).
    private var positions: [Leaf: Int]?

    static var none: LeafSlots { LeafSlots() }

    init() {}

    /// Of the leaves of a normalized predicate (`LeafLiterals.of`).
    init(_ leaves: [(leaf: Leaf, slots: Range<Int>)]) {
        for (l, slots) in leaves { note(l, slots) }
    }

    func slots(of l: Leaf) -> Range<Int>? {
        position(of: l).flatMap { leaves[$0].slots }
    }

    private func position(of l: Leaf) -> Int? {
        if let positions { return positions[l] }
        return leaves.firstIndex { $0.leaf == l }
    }

    private mutating func note(_ l: Leaf, _ slots: Range<Int>) {
        if let i = position(of: l) {
            leaves[i].slots = nil
            return
        }
        leaves.append((l, slots))
        if positions != nil {
            positions?[l] = leaves.count - 1
        } else if leaves.count > Normalizer.shortRun {
            positions = Dictionary(uniqueKeysWithValues: leaves.enumerated().map { ($1.leaf, $0) })
        }
    }

}

/// What the compiler learns of the parameters while it compiles one filter: the checks of the
/// slots its typed leaves read from the execution.
final class ParameterChecks {
    var checks: SlotChecks
    /// A leaf held its literals only because its key has an index (whose lookup the source,
    /// not yet chosen, might make).
    var heldForIndex = false
    /// The checks of a latitude or longitude range on a geo-indexed key: only a box of the grid
    /// looks such a range up, and a box that is the whole source reads the literals from each
    /// execution too (`Planner.parametricBox`), so the leaf reads them from the start; the
    /// checks count unless the box is intersected with another lookup, which holds them.
    var coordinateChecks: SlotChecks

    /// - Parameter slots: the plan's literal count.
    init(slots: Int) {
        checks = SlotChecks(slots: slots)
        coordinateChecks = SlotChecks(slots: slots)
    }
}

extension FilterCompiler {
    /// The slots a typed leaf may read its `count` literals from at run time: the plan may be
    /// parametric, the leaf holds exactly those literals, and no index on its key or a prefix
    /// of it could make a source that reads them, unless the source is chosen already
    /// (`sourceIsChosen`) or the leaf is a coordinate range that only a box, reading them too,
    /// looks up (`coordinateChecks`) (`check` is each slot's test of a new literal). Nil: the
    /// leaf holds its literals.
    func parameterSlots(_ l: Leaf, key: FieldPath, count: Int, check: @escaping (Value) -> Bool) -> Range<Int>? {
        guard let collected = parameterChecks, let slots = leafSlots.slots(of: l), slots.count == count else {
            return nil
        }
        for n in 1...Swift.max(1, key.components.count) where !sourceIsChosen {
            let prefix = FieldPath(Array(key.components.prefix(n)))
            let kinds = store.indexKinds(on: prefix, in: table.name)
            guard !kinds.isEmpty else { continue }
            if n == key.components.count - 1, key.last == "latitude" || key.last == "longitude",
                kinds.allSatisfy({ $0 == .geo }), store.indexKinds(on: key, in: table.name).isEmpty
            {
                for slot in slots { collected.coordinateChecks[slot] = check }
                return slots
            }
            collected.heldForIndex = true
            return nil
        }
        for slot in slots { collected.checks[slot] = check }
        return slots
    }
}

extension ExecContext {
    /// The leaf as IR with the execution's literals in its slots, for rows only the reference
    /// can decide (worked out once per execution and leaf).
    func fallback(_ leaf: KeyLeaf) -> Filter {
        guard let slots = leaf.parameterSlots, let literals else { return leaf.fallback }
        return made(by: leaf) { PlanRebinding.substituted(leaf.fallback, literals: Array(literals[slots])) }
    }
}

/// How a typed leaf makes its test from the execution's literals: the slots it reads and the
/// conversion (the same the compiler applies to the planning literals; the slots' checks
/// ensure it succeeds).
struct Parameter<T> {
    let slots: Range<Int>
    let make: (ArraySlice<Value>) -> T?

    func value(_ ctx: ExecContext) -> T? { ctx.literals.flatMap { make($0[slots]) } }

    /// `value`, made once per execution for `leaf` (for what costs more than a range to make).
    func madeValue(_ ctx: ExecContext, for leaf: AnyObject) -> T? {
        guard ctx.literals != nil else { return nil }
        return ctx.made(by: leaf) { value(ctx) }
    }
}

extension FilterCompiler {
    /// `key op literal` over an int or date column, reading the literal from the execution.
    func intParameter(
        _ l: Leaf, _ access: KeyAccess, _ op: ComparisonOperator, _ column: Column, _ options: StringOptions
    )
        -> Parameter<IntRange>?
    {
        let range = { (c: Value) -> IntRange? in
            guard var r = typed(c, l, column, options).flatMap({ Self.intRange(op, $0) }) else { return nil }
            r.invert = r.invert != l.negated
            return r
        }
        guard let slots = parameterSlots(l, key: access.path, count: 1, check: { range($0) != nil }) else { return nil }
        return Parameter(slots: slots) { range($0[$0.startIndex]) }
    }

    /// `key op literal` over a double column, reading the literal from the execution.
    func doubleParameter(
        _ l: Leaf, _ access: KeyAccess, _ op: ComparisonOperator, _ column: Column, _ options: StringOptions
    ) -> Parameter<DoubleRange>? {
        let range = { (c: Value) -> DoubleRange? in
            var r: DoubleRange
            if case .int(let i) = c, !DoubleColumn.holdsExactly(i) {
                r = DoubleRange(op, integer: i)
            } else if case .double(let d)? = typed(c, l, column, options) {
                r = DoubleRange(op, d)
            } else {
                return nil
            }
            r.invert = r.invert != l.negated
            return r
        }
        guard let slots = parameterSlots(l, key: access.path, count: 1, check: { range($0) != nil }) else { return nil }
        return Parameter(slots: slots) { range($0[$0.startIndex]) }
    }

    /// `key BETWEEN lo AND hi` over an int or date column, reading both bounds from the execution.
    func intBetweenParameter(_ l: Leaf, _ access: KeyAccess, _ column: Column) -> Parameter<IntRange>? {
        let bound = { (c: Value, op: ComparisonOperator) -> IntRange? in
            typed(c, l, column, []).flatMap { Self.intRange(op, $0) }
        }
        let check = { (c: Value) -> Bool in bound(c, .ge) != nil }
        guard let slots = parameterSlots(l, key: access.path, count: 2, check: check) else { return nil }
        return Parameter(slots: slots) { literals in
            guard let lower = bound(literals[literals.startIndex], .ge),
                let upper = bound(literals[literals.startIndex + 1], .le)
            else { return nil }
            var r = lower.intersection(upper)
            r.invert = l.negated
            return r
        }
    }

    /// `key BETWEEN lo AND hi` over a double column, reading both bounds from the execution.
    func doubleBetweenParameter(_ l: Leaf, _ access: KeyAccess, _ column: Column) -> Parameter<DoubleRange>? {
        let number = { (c: Value) -> Double? in
            if case .double(let d)? = typed(c, l, column, []) { return d }
            return nil
        }
        guard let slots = parameterSlots(l, key: access.path, count: 2, check: { number($0) != nil }) else {
            return nil
        }
        return Parameter(slots: slots) { literals in
            guard let x = number(literals[literals.startIndex]), let y = number(literals[literals.startIndex + 1])
            else { return nil }
            var r = DoubleRange(.ge, x).intersection(DoubleRange(.le, y))
            r.invert = l.negated
            return r
        }
    }

    /// A geo condition over a geo-point column, reading its coordinates, distance or ring
    /// from the execution (nothing in the compiled leaf depends on their values).
    func geoParameter(_ l: Leaf, _ access: KeyAccess, _ g: GeoCondition) -> Parameter<GeoCondition>? {
        let ring: Bool
        if case .withinPolygon = g { ring = true } else { ring = false }
        let check = { (v: Value) -> Bool in
            switch v {
            case .double: return !ring
            case .polygon: return ring
            default: return false
            }
        }
        guard let slots = parameterSlots(l, key: access.path, count: g.parameterCount, check: check) else {
            return nil
        }
        return Parameter(slots: slots) { g.with(parameters: $0) }
    }

    private func typed(_ c: Value, _ l: Leaf, _ column: Column, _ options: StringOptions) -> TypedLiteral? {
        c.isNull
            ? nil : TypedLiteral.classify(c, column: column, semantics: l.semantics, options: options, store: store)
    }
}
