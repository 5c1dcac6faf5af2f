import QuarryCore

/// Chooses where a plan's rows come from: a full scan, an index lookup for one conjunct (or
/// the intersection of two), a union of lookups for an OR, a geo grid, an index probed with
/// an inner query's rows, or an ordered index walked in ORDER BY's order. Only conjuncts in
/// the leading run of conjuncts that cannot throw may drive: rows they exclude never reach a
/// later conjunct in the reference either.
struct AccessPlanner {
    let store: ColumnStore
    let table: ClassTable
    var storage: any Storage { store }

    struct Choice {
        var source: RowSource
        /// Conjuncts the source makes redundant (exact probes).
        var covered: Set<Int>
        /// The source yields rows in the query's order.
        var ordered: Bool
    }

    /// - Parameters:
    ///   - conjuncts: the top-level AND operands of the normalized predicate.
    ///   - leading: how many of them come before the first one that may throw.
    ///   - perRowCost: the filter's expected cost per row.
    func choose(
        _ conjuncts: [Filter], leading: Int, perRowCost: Double, query: Query,
        filterSelectivity: Double, fallible: Bool
    ) -> Choice {
        let n = table.rowCount
        let scanCost = Double(n) * (0.25 + perRowCost)
        var best = Choice(source: FullScan(rows: n), covered: [], ordered: false)
        var bestCost = scanCost

        var probes: [(index: Int, probe: Probe, exact: Bool, estimate: Int, covers: Set<Int>)] = []
        // A class without indexes has no lookups to weigh.
        let registry = store.indexes[table.name]
        let indexed = registry.map { !$0.values.isEmpty || !$0.geo.isEmpty } ?? false
        for i in 0..<leading where indexed {
            guard let (probe, exact) = probe(conjuncts[i]) else { continue }
            probes.append((i, probe, exact, probe.estimate(n), exact ? [i] : []))
        }
        // Ranges on a geo-indexed key's latitude and longitude make one box of the grid.
        for (index, box, first) in CoordinateBox.find(conjuncts, leading: leading, store: store, className: table.name)
        {
            let probe = Probe.box(index, box)
            probes.append((first, probe, false, probe.estimate(n), []))
        }
        // A lower and an upper bound on one ordered index make one range (a > 5 AND a < 9),
        // when each row has one value there (else different elements may meet each bound).
        for a in probes.indices {
            for b in probes.indices where b > a {
                guard case .range(let ia, let ra, let la) = probes[a].probe,
                    case .range(let ib, let rb, let lb) = probes[b].probe,
                    ia === ib, !ia.multiValued, probes[a].exact, probes[b].exact
                else { continue }
                let start = Swift.max(ra.lowerBound, rb.lowerBound)
                let both = start..<Swift.max(start, Swift.min(ra.upperBound, rb.upperBound))
                let probe = Probe.range(ia, both, "\(la) AND \(lb)")
                probes.append((probes[a].index, probe, true, both.count, [probes[a].index, probes[b].index]))
            }
        }
        probes.sort { $0.estimate < $1.estimate }
        if let first = probes.first {
            let cost = Double(first.estimate) * (2 + perRowCost) + 16
            if cost < bestCost {
                bestCost = cost
                best = Choice(
                    source: ProbeSource([first.probe], estimatedRows: first.estimate), covered: first.covers,
                    ordered: false)
            }
            if probes.count >= 2, !first.probe.isInner, !probes[1].probe.isInner,
                Double(probes[1].estimate) < Double(n) / 8
            {
                let second = probes[1]
                let cost = Double(first.estimate + second.estimate) * 1.5 + Double(first.estimate) * 0.1 * perRowCost
                if cost < bestCost {
                    bestCost = cost
                    let covered = first.covers.union(second.covers)
                    best = Choice(
                        source: ProbeSource(
                            [first.probe, second.probe], estimatedRows: Swift.min(first.estimate, second.estimate)),
                        covered: covered, ordered: false)
                }
            }
        }
        var ranges: [(index: ValueIndex, entries: Range<Int>)] = []
        for p in probes { if case .range(let index, let entries, _) = p.probe { ranges.append((index, entries)) } }
        if let ordered = orderedScan(
            query, fallible: fallible, selectivity: filterSelectivity, perRowCost: perRowCost, ranges: ranges),
            ordered.cost < bestCost + Double(n) * 0.5
        {
            // Walking the index also saves the sort.
            best = Choice(source: ordered.source, covered: [], ordered: true)
        }
        return best
    }

    static func intersect(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] { i += 1 } else if a[i] > b[j] { j += 1 } else { out.append(a[i]); i += 1; j += 1 }
        }
        return out
    }

    // MARK: - Probes per conjunct

    func probe(_ p: Filter) -> (Probe, Bool)? {
        // Ask the storage what it has before planning a lookup.
        if case .leaf(let l) = p, let key = l.condition.indexKey, storage.indexKinds(on: key, in: table.name).isEmpty {
            return nil
        }
        switch p {
        case .or(let children):
            var probes: [Probe] = []
            var exact = true
            for child in children {
                guard let (probe, e) = probe(child) else { return nil }
                probes.append(probe)
                exact = exact && e
            }
            return (.union(probes), exact)
        case .leaf(let l) where !l.negated:
            return probe(l)
        default:
            return nil
        }
    }

    private func probe(_ l: Leaf) -> (Probe, Bool)? {
        let s = l.semantics
        switch l.condition {
        case .compare(.key(let k), let op, .literal(let c), let options) where op != .ne:
            if case .string = c, !options.isEmpty { return nil }
            for index in store.valueIndexes(table.name, k) where ProbeExactness.exact(index, s, c, equality: op == .eq)
            {
                if op == .eq { return (.equal(index, [c]), true) }
                guard index.kind == .ordered, c.rangeable else { continue }
                let bound = (c, op == .ge || op == .le)
                let entries =
                    op == .gt || op == .ge ? index.entries(from: bound, to: nil) : index.entries(from: nil, to: bound)
                return (.range(index, entries, "\(op.rawValue) \(PredicateText.render(c))"), true)
            }
        case .between(.key(let k), .literal(let lo), .literal(let hi)) where lo.typeRank == hi.typeRank && lo.rangeable:
            for index in store.valueIndexes(table.name, k)
            where index.kind == .ordered
                && ProbeExactness.exact(index, s, lo, equality: false)
                && ProbeExactness.exact(index, s, hi, equality: false)
            {
                let entries = index.entries(from: (lo, true), to: (hi, true))
                return (
                    .range(index, entries, "BETWEEN \(PredicateText.render(lo)) AND \(PredicateText.render(hi))"), true
                )
            }
        case .inCollection(.key(let k), .list(let items), let options):
            var values: [Value] = []
            for item in items {
                guard case .literal(let v) = item else { return nil }
                if v.isNull {
                    // SQL never matches a null member; the others would need the nil rows.
                    guard s == .sql else { return nil }
                    continue
                }
                if case .string = v, !options.isEmpty { return nil }
                values.append(v)
            }
            for index in store.valueIndexes(table.name, k)
            where values.allSatisfy({ ProbeExactness.exact(index, s, $0, equality: true) }) {
                return (.equal(index, values), true)
            }
        case .string(.key(let k), .beginsWith, .literal(.string(let prefix)), let options) where options.isEmpty:
            // Foundation: an empty prefix is in no string, where every entry has it.
            if s == .predicate, prefix.isEmpty { return nil }
            for index in store.valueIndexes(table.name, k)
            where index.kind == .ordered && !(s == .predicate && index.multiValued) {
                return (
                    .range(index, index.entries(withPrefix: prefix), "BEGINSWITH \(PredicateText.quote(prefix))"), true
                )
            }
        case .geo(let g):
            guard let index = store.geoIndex(table.name, g.key), let (rows, region) = Self.region(g, index) else {
                return nil
            }
            return (.geo(index, rows, region), false)
        case .inQuery(let k, let q):
            for index in store.valueIndexes(table.name, k) where index.typeBits & Value.object([:]).typeBit == 0 {
                return (.inner(index, q, innerKey: nil), true)
            }
        case .select(let k, let q, let innerKey):
            for index in store.valueIndexes(table.name, k) {
                if s == .predicate && index.multiValued { continue }
                if index.typeBits & Value.object([:]).typeBit != 0 { continue }
                if s == .document && index.typeBits & (Value.pointerBit | Value.string("").typeBit) != 0 { continue }
                return (.inner(index, q, innerKey: innerKey), true)
            }
        default:
            break
        }
        return nil
    }

    /// The candidate rows of a geo condition and a description of the region searched.
    private static func region(_ g: GeoCondition, _ index: GeoIndex) -> ([Int32], String)? {
        switch g {
        case .near(_, let center, let d?):
            return index.rows(near: center, meters: d.meters).map { ($0, "within \(d.meters) m") }
        case .withinCircle(_, let center, let r):
            return index.rows(near: center, meters: r.meters).map { ($0, "within \(r.meters) m") }
        case .distance(_, let from, let op, let d) where op == .lt || op == .le || op == .eq:
            return index.rows(near: from, meters: d.meters).map { ($0, "within \(d.meters) m") }
        case .withinBox(_, let sw, let ne):
            return index.rows(inBox: sw.latitude, sw.longitude, ne.latitude, ne.longitude).map { ($0, "box") }
        case .withinPolygon(_, let vertices) where vertices.count >= 3:
            let lats = vertices.map(\.latitude), lons = vertices.map(\.longitude)
            guard let s = lats.min(), let n = lats.max(), let w = lons.min(), let e = lons.max() else { return nil }
            return index.rows(inBox: s, w, n, e).map { ($0, "polygon bounds") }
        default:
            return nil
        }
    }

    // MARK: - ORDER BY through an index

    /// Walking an ordered index on the first sort key: when no row holds an array or a
    /// pointer, the walk is ORDER BY's order; with a LIMIT
    /// and a predicate that cannot throw, the scan stops once the page is full.
    /// - Parameter ranges: ranges of entries that conjuncts bound, by index.
    private func orderedScan(
        _ q: Query, fallible: Bool, selectivity: Double, perRowCost: Double,
        ranges: [(index: ValueIndex, entries: Range<Int>)]
    ) -> (source: RowSource, cost: Double)? {
        guard !q.count, !fallible, case .key(let path, let direction)? = q.order.first else { return nil }
        var limit = q.limit ?? q.profile.defaultLimit
        if let l = limit, let cap = q.profile.maxLimit, l > cap { limit = cap }
        guard let limit else { return nil }
        let avoid = Value.pointerBit | Value.object([:]).typeBit | Value.relation(className: "", objectIds: []).typeBit
        guard
            let index = store.valueIndexes(table.name, path).first(where: {
                $0.kind == .ordered && !$0.multiValued && $0.typeBits & avoid == 0
            })
        else { return nil }
        let wanted = Double((q.skip ?? 0).addingSaturated(limit))
        // A range on the walked index puts every match after the entries it excludes (nulls and
        // smaller keys ascending, larger keys descending): the walk passes them all first.
        let descending = direction == .descending
        let lead =
            ranges.filter { $0.index === index }.map {
                descending ? index.keys.count - $0.entries.upperBound : index.nilRows.count + $0.entries.lowerBound
            }.max() ?? 0
        let visited = Swift.min(Double(table.rowCount), Double(lead) + wanted / Swift.max(selectivity, 1e-6))
        let source = IndexOrderSource(
            index: index, descending: descending, rest: Array(q.order.dropFirst()))
        return (source, visited * (1 + perRowCost))
    }
}

extension Condition {
    /// The key path an index would be probed on for this condition.
    var indexKey: FieldPath? {
        switch self {
        case .compare(.key(let k), _, _, _), .between(.key(let k), _, _), .inCollection(.key(let k), _, _),
            .string(.key(let k), _, _, _), .inQuery(let k, _), .select(let k, _, _):
            return k
        case .geo(let g): return g.key
        default: return nil
        }
    }
}

extension Value {
    /// Literals an ordered index can bound a range with.
    var rangeable: Bool {
        switch self {
        case .int, .double, .string, .date, .bool: return true
        default: return false
        }
    }
}
