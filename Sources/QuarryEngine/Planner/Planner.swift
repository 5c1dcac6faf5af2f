import QuarryCore

/// Builds plans: normalizes the predicate with what the store knows about the class, lists
/// the inner queries to run first, compiles the filter and picks where rows come from.
struct Planner {
    let store: ColumnStore
    let limits: Limits
    /// Shared between plans: evaluates leaves that do not depend on the data.
    let folding: Evaluation
    let memo: PlanningMemo

    init(store: ColumnStore, limits: Limits, folding: Evaluation) {
        self.store = store
        self.limits = limits
        self.folding = folding
        memo = PlanningMemo(version: store.version)
    }

    /// Checks a query before it is planned (`QueryValidator`); the patterns it compiles are
    /// kept for the plan's leaves.
    func validate(_ query: Query, variables: Set<String>) throws(Diagnostic) {
        var validator = QueryValidator(source: store, limits: limits, variables: variables)
        validator.regexes = memo
        try validator.check(query)
    }

    /// - Parameter literals: the query's literals in `PlanShape` order, when the plan is cached
    ///   by shape and may read them from each execution (nil: it holds them).
    func plan(_ query: Query, failedInner: [Query: Diagnostic], literals: [Value]? = nil) -> Plan? {
        guard let table = store.table(query.className) else { return nil }
        memo.sync(store)
        let facts = MemoizedKeyFacts(facts: StoreKeyFacts(store: store, table: table), memo: memo)
        // Rewrites treat inner queries as fallible: they have not run yet.
        var normalizer = Normalizer(
            facts: facts, fallibility: Fallibility(facts: facts), limits: limits, folding: folding)
        let normalized = normalizer.normalize(query.predicate)
        let rewrites = normalizer.rewrites
        let rebinding = literals.flatMap { PlanRebinding.forms(query, normalized, rewrites: rewrites, literals: $0) }
        return compile(
            query, normalized, rewrites: { rewrites }, table: table, failedInner: failedInner,
            literals: rebinding?.literals, forms: rebinding?.forms ?? .identity, leaves: rebinding?.leaves)
    }

    /// The plan for a predicate already normalized: the filter compiled, the source chosen.
    /// - Parameters:
    ///   - literals: the query's literals, in the form `normalized` holds them, when its
    ///     normalization kept them in place (`Plan.rebindable`): leaves may then read them from
    ///     each execution.
    ///   - forms: how the query's literals became those.
    ///   - leaves: `LeafLiterals.of(normalized)`, when the caller has it.
    func compile(
        _ query: Query, _ normalized: Filter, rewrites: @escaping () -> [Rewrite], table: ClassTable,
        failedInner: [Query: Diagnostic], literals: [Value]? = nil, forms: LiteralForms = .identity,
        leaves: [(leaf: Leaf, slots: Range<Int>)]? = nil
    ) -> Plan {
        let facts = MemoizedKeyFacts(facts: StoreKeyFacts(store: store, table: table), memo: memo)
        var fallibility = Fallibility(facts: facts)
        fallibility.innerSucceeds = { failedInner[$0] == nil }
        var compiler = FilterCompiler(
            store: store, table: table, limits: limits, fallibility: fallibility,
            failedInner: failedInner, folding: folding, memo: memo)
        if literals != nil { compiler.leafSlots = LeafSlots(leaves ?? LeafLiterals.of(normalized)) }
        let inner = InnerQueries.collect(normalized)
        if normalized == .constant(false) {
            return Plan(
                query: query, normalized: normalized, rewrites: rewrites, innerQueries: inner,
                source: EmptySource(), filter: ConstantNode(false), ordered: true, storeVersion: store.version,
                rebindable: literals != nil,
                parameters: literals.map { PlanParameters(literals: $0, checks: SlotChecks(slots: 0), forms: forms) }
                    ?? .none,
                copyFilter: { ConstantNode(false) })
        }
        let conjuncts: [Filter]
        if case .and(let cs) = normalized { conjuncts = cs } else { conjuncts = [normalized] }
        // Each conjunct's parameter checks apart: those an index source covers are not read.
        let slotCount = literals?.count ?? 0
        var checks: [SlotChecks] = []
        var heldForIndex: [Bool] = []
        var coordinateChecks: [SlotChecks] = []
        checks.reserveCapacity(conjuncts.count)
        heldForIndex.reserveCapacity(conjuncts.count)
        coordinateChecks.reserveCapacity(conjuncts.count)
        var nodes = conjuncts.map { c in
            var one = compiler
            if literals != nil { one.parameterChecks = ParameterChecks(slots: slotCount) }
            let node = one.compile(c)
            checks.append(one.parameterChecks?.checks ?? SlotChecks(slots: 0))
            heldForIndex.append(one.parameterChecks?.heldForIndex ?? false)
            coordinateChecks.append(one.parameterChecks?.coordinateChecks ?? SlotChecks(slots: 0))
            return node
        }
        let leading = nodes.firstIndex(where: \.mayThrow) ?? nodes.count
        let whole = nodes.count == 1 ? nodes[0] : AndNode(FilterCompiler.initialOrder(nodes))
        let choice = AccessPlanner(store: store, table: table).choose(
            conjuncts, leading: leading, perRowCost: whole.expectedCost, query: query,
            filterSelectivity: whole.selectivity, fallible: whole.mayThrow)
        let kept = nodes.indices.filter { !choice.covered.contains($0) }
        // A box of the geo grid reads its coordinate ranges' literals from each execution.
        let box =
            literals == nil
            ? nil
            : Self.parametricBox(
                choice.source, of: conjuncts, leading: leading, slots: compiler.leafSlots, store: store,
                className: table.name)
        // Once the source is chosen, a kept conjunct that held its literals for an index reads
        // them from each execution, unless the source reads it with its own (a geo lookup, or
        // a box that does not read the execution's literals).
        let sourceIsChosen = literals != nil && (Self.readsOnlyCovered(choice.source) || box != nil)
        var recompiled = false
        for i in kept where sourceIsChosen && heldForIndex[i] {
            var one = compiler
            one.parameterChecks = ParameterChecks(slots: slotCount)
            one.sourceIsChosen = true
            nodes[i] = one.compile(conjuncts[i])
            checks[i] = one.parameterChecks?.checks ?? SlotChecks(slots: 0)
            recompiled = true
        }
        // Coordinate ranges read their literals unless a box intersected with another lookup holds them.
        if literals != nil, !Self.intersectsABox(choice.source) {
            for i in kept where !coordinateChecks[i].isEmpty { checks[i].merge(coordinateChecks[i]) }
        }
        let residual = kept.map { nodes[$0] }
        let filter = residual.count == nodes.count && !recompiled ? whole : Self.conjunction(residual)
        let residualConjuncts = kept.map { conjuncts[$0] }
        var source = choice.source
        var parameters = literals.map { literals in
            // The conjuncts' slots are distinct.
            var all = SlotChecks(slots: literals.count)
            for i in kept { all.merge(checks[i]) }
            // A distance order's center: nothing planned reads it (a run sorts by its query's
            // order), unless an index walk gives the order: it sorts its ties by the rest.
            let order = choice.ordered ? 0 : PlanShape.orderLiteralCount(query.order)
            for slot in literals.count - order..<literals.count {
                all[slot] = { if case .double = $0 { true } else { false } }
            }
            return PlanParameters(literals: literals, checks: all, forms: forms)
        }
        if let literals, let (parametric, boxChecks) = box {
            // The ranges stay in the filter: a new literal must pass its leaf's check (a leaf
            // that holds its literals has none, and its slots stay unbound) and the box's.
            source = parametric
            var merged = parameters?.checks ?? SlotChecks(slots: literals.count)
            for slot in boxChecks.slots {
                if let leafCheck = merged[slot], let boxCheck = boxChecks[slot] {
                    merged[slot] = { leafCheck($0) && boxCheck($0) }
                }
            }
            parameters = PlanParameters(literals: literals, checks: merged, forms: forms)
        } else if let literals, let lookup = source as? ProbeSource,
            let (parametric, probeChecks) = Self.parametric(
                lookup, covering: choice.covered, of: conjuncts, literals: literals,
                slots: compiler.leafSlots, planner: AccessPlanner(store: store, table: table))
        {
            source = parametric
            var merged = parameters?.checks ?? SlotChecks(slots: literals.count)
            merged.merge(probeChecks)
            parameters = PlanParameters(literals: literals, checks: merged, forms: forms)
        }
        let copy = { [store, limits, leafSlots = compiler.leafSlots] () -> FilterNode in
            // With a memo and folding of its own: a copy may be made while other plans are.
            let memo = PlanningMemo(version: store.version)
            let facts = MemoizedKeyFacts(facts: StoreKeyFacts(store: store, table: table), memo: memo)
            var fallibility = Fallibility(facts: facts)
            fallibility.innerSucceeds = { failedInner[$0] == nil }
            var copier = FilterCompiler(
                store: store, table: table, limits: limits, fallibility: fallibility, failedInner: failedInner,
                folding: Normalizer.folding(limits), memo: memo)
            copier.leafSlots = leafSlots
            copier.sourceIsChosen = sourceIsChosen
            if literals != nil { copier.parameterChecks = ParameterChecks(slots: slotCount) }
            return Self.conjunction(residualConjuncts.map(copier.compile))
        }
        return Plan(
            query: query, normalized: normalized, rewrites: rewrites, innerQueries: inner,
            source: source, filter: filter, ordered: choice.ordered, storeVersion: store.version,
            rebindable: literals != nil, parameters: parameters ?? .none,
            copyFilter: copy)
    }
}

extension Planner {
    /// A lookup of one probe that covers one leaf conjunct, made to read that leaf's literals
    /// from each execution, with each slot's check (docs/ARCHITECTURE.md#plan-parameters): a
    /// new literal must make an exact probe of the same index, used the same way, so the leaf
    /// stays covered. Nil for anything else (an intersection, a union, a geo or inner probe).
    static func parametric(
        _ lookup: ProbeSource, covering covered: Set<Int>, of conjuncts: [Filter], literals: [Value],
        slots leafSlots: LeafSlots, planner: AccessPlanner
    ) -> (ProbeSource, SlotChecks)? {
        guard lookup.probes.count == 1, covered.count == 1, let i = covered.first,
            case .leaf(let leaf) = conjuncts[i], let slots = leafSlots.slots(of: leaf), !slots.isEmpty
        else { return nil }
        let original = lookup.probes[0]
        let make = { (values: [Value]) -> Probe? in
            guard let (probe, exact) = planner.probe(PlanRebinding.substituted(.leaf(leaf), literals: values)),
                exact, probe.sameLookup(as: original)
            else { return nil }
            return probe
        }
        // The planned literals made `original` itself: exact, as the source covers the leaf.
        let planned = Array(literals[slots])
        var checks = SlotChecks(slots: literals.count)
        for slot in slots {
            // One literal changed at a time: each of a leaf's literals is checked on its own.
            checks[slot] = { new in
                var values = planned
                values[slot - slots.lowerBound] = new
                return make(values) != nil
            }
        }
        return (lookup.reading(ProbeParameter(slots: slots, make: make)), checks)
    }

    /// A lookup of one box of the geo grid (`CoordinateBox`) made to read, from each execution,
    /// the literals of the coordinate ranges it comes from, with each slot's check: a new
    /// literal must be a number, which bounds its coordinate as the planned one did (the box is
    /// a superset; the ranges stay in the filter and test each row). Nil for any other source,
    /// and when no range has slots.
    static func parametricBox(
        _ source: RowSource, of conjuncts: [Filter], leading: Int, slots leafSlots: LeafSlots, store: ColumnStore,
        className: String
    ) -> (ProbeSource, SlotChecks)? {
        guard let lookup = source as? ProbeSource, lookup.probes.count == 1, case .box(let index, _) = lookup.probes[0]
        else { return nil }
        let ranges = conjuncts.prefix(leading).compactMap { c -> (leaf: Leaf, slots: Range<Int>?)? in
            guard case .leaf(let l) = c, CoordinateBox.bounds(l, of: index.path) else { return nil }
            return (l, leafSlots.slots(of: l))
        }
        let slotted = ranges.compactMap(\.slots)
        guard let lower = slotted.map(\.lowerBound).min(), let upper = slotted.map(\.upperBound).max() else {
            return nil
        }
        let make = { (values: [Value]) -> Probe? in
            let bounding = ranges.map { r -> Filter in
                guard let s = r.slots else { return .leaf(r.leaf) }
                return PlanRebinding.substituted(
                    .leaf(r.leaf), literals: Array(values[(s.lowerBound - lower)..<(s.upperBound - lower)]))
            }
            let boxes = CoordinateBox.find(bounding, leading: bounding.count, store: store, className: className)
            return boxes.first { $0.index === index }.map { Probe.box(index, $0.box) }
        }
        var checks = SlotChecks(slots: upper)
        for s in slotted { for slot in s { checks[slot] = CoordinateBox.isBound } }
        return (lookup.reading(ProbeParameter(slots: lower..<upper, make: make)), checks)
    }

    /// An intersection of lookups of which one is a box of the geo grid (which reads the
    /// planned literals of its coordinate ranges).
    static func intersectsABox(_ source: RowSource) -> Bool {
        guard let lookup = source as? ProbeSource, lookup.probes.count > 1 else { return false }
        return lookup.probes.contains {
            if case .box = $0 { return true }
            return false
        }
    }

    /// Whether the source reads literals of no conjunct but those it covers: a scan, an ORDER BY
    /// walk, or value lookups (always exact, so covering their conjuncts).
    static func readsOnlyCovered(_ source: RowSource) -> Bool {
        switch source {
        case is FullScan, is IndexOrderSource: return true
        case let lookup as ProbeSource: return lookup.probes.allSatisfy(\.isValueLookup)
        default: return false
        }
    }

    /// The AND of compiled conjuncts (TRUE when there are none).
    static func conjunction(_ nodes: [FilterNode]) -> FilterNode {
        switch nodes.count {
        case 0: return ConstantNode(true)
        case 1: return nodes[0]
        default: return AndNode(FilterCompiler.initialOrder(nodes))
        }
    }
}

/// The inner queries of a predicate, in the order they appear (also inside quantifiers and
/// SUBQUERY, whose reference evaluation then finds them already run).
enum InnerQueries {
    static func collect(_ p: Filter) -> [Query] {
        // Most predicates test keys against constants: none of their leaves holds a query,
        // which is found without walking them as tree nodes.
        guard !p.onlyKeysAndConstants else { return [] }
        var out: [Query] = []
        IRNode.filter(p).forEach(innerQueries: true) { node, _ in
            // Queries nested in an inner query run when that one runs.
            guard case .query(let q) = node else { return true }
            if !out.contains(q) { out.append(q) }
            return false
        }
        return out
    }

    /// Rows an inner query contributes: its own limit, capped by its profile, or the profile's
    /// default (as the reference's `innerLimit`).
    static func limit(_ query: Query) -> Int? {
        guard let own = query.limit else { return query.profile.defaultInnerLimit }
        return query.profile.maxInnerLimit.map { Swift.min(own, $0) } ?? own
    }
}
