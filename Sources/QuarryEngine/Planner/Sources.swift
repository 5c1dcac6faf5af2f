import QuarryCore

/// Rows no object can match (a predicate folded to FALSE).
final class EmptySource: RowSource {
    init() { super.init(estimatedRows: 0) }
    override var label: String { "nothing (the predicate is FALSE)" }
    override func produce(_ ctx: ExecContext, _ batch: inout Batch, _ body: (inout Batch) throws(Diagnostic) -> Bool)
        throws(Diagnostic)
    {}
}

/// Rows an index finds for one probe, or for the intersection of two. The lookup runs when the
/// plan runs, not when it is built: planning stays independent of how many rows match, and a
/// probe on inner queries needs what they yielded in this run (their objects as pointers, or
/// the values of their `innerKey`).
final class ProbeSource: RowSource {
    let probes: [Probe]
    /// Where a cached plan's lookup reads its conjunct's literals from each execution.
    private(set) var parameter: ProbeParameter?

    init(_ probes: [Probe], estimatedRows: Int) {
        self.probes = probes
        super.init(estimatedRows: estimatedRows)
    }

    /// The same lookup reading its literals from each execution (`Planner.compile` makes this
    /// for a single probe that covers its conjunct).
    func reading(_ parameter: ProbeParameter) -> ProbeSource {
        let source = ProbeSource(probes, estimatedRows: estimatedRows)
        source.parameter = parameter
        return source
    }

    override var label: String {
        probes.count == 1 ? probes[0].label : "intersection of [" + probes.map(\.label).joined(separator: "; ") + "]"
    }

    override func produce(_ ctx: ExecContext, _ batch: inout Batch, _ body: (inout Batch) throws(Diagnostic) -> Bool)
        throws(Diagnostic)
    {
        var rows = Self.rows(try firstProbe(ctx), ctx)
        for probe in probes.dropFirst() { rows = AccessPlanner.intersect(rows, Self.rows(probe, ctx)) }
        var start = 0
        while start < rows.count {
            let end = Swift.min(rows.count, start + Batch.capacity)
            batch.setRows(rows[start..<end])
            rowsOut += end - start
            guard try body(&batch) else { return }
            start = end
        }
    }

    /// The first probe for this execution's literals, when the plan reads them.
    private func firstProbe(_ ctx: ExecContext) throws(Diagnostic) -> Probe {
        guard let parameter, let literals = ctx.literals else { return probes[0] }
        // The literals passed the slots' checks, which made this very probe.
        guard let probe = parameter.make(Array(literals[parameter.slots])) else {
            preconditionFailure("a probe's parameters were bound without a probe for them")
        }
        return probe
    }

    private static func rows(_ probe: Probe, _ ctx: ExecContext) -> [Int32] {
        switch probe {
        case .inner(let index, let q, let innerKey):
            guard case .rows(_, let records)? = ctx.run.inner[q] else { return [] }
            let values: [Value]
            if let innerKey {
                let e = ctx.run.evaluation
                values = records.indices.flatMap {
                    e.sqlValues(e.resolver.resolve(innerKey, in: records.record(at: $0, for: innerKey)))
                }
                .map { $0.objectIdentity.map(Value.pointer) ?? $0 }
            } else {
                values = records.indices.map {
                    .pointer(Pointer(className: q.className, objectId: records.objectId(at: $0)))
                }
            }
            return index.rows(equalTo: values)
        case .union(let probes):
            return ValueIndex.union(probes.map { rows($0, ctx) }, sortedLists: true)
        default:
            return probe.rows()
        }
    }
}

/// Rows in ORDER BY's order by walking an ordered index on the first sort key: null and
/// missing first (last when descending), equal keys in row order, each group of equal keys
/// sorted by the remaining sort keys.
final class IndexOrderSource: RowSource {
    let index: ValueIndex
    let descending: Bool
    let rest: [SortKey]

    init(index: ValueIndex, descending: Bool, rest: [SortKey]) {
        self.index = index
        self.descending = descending
        self.rest = rest
        super.init(estimatedRows: index.keys.count + index.nilRows.count)
    }

    override var label: String { "ordered index on \(index.path) walked \(descending ? "descending" : "ascending")" }

    override func produce(_ ctx: ExecContext, _ batch: inout Batch, _ body: (inout Batch) throws(Diagnostic) -> Bool)
        throws(Diagnostic)
    {
        var pending: [Int32] = []
        pending.reserveCapacity(Batch.capacity)
        var stopped = false
        func emit(_ group: [Int32], _ batch: inout Batch) throws(Diagnostic) {
            var rows = group
            if !rest.isEmpty, rows.count > 1 {
                let positions = rows.map { Int($0) }
                rows = RowSorter(rest, rows: positions, ctx: ctx).sorted(positions, first: nil).map { Int32($0) }
            }
            for r in rows {
                pending.append(r)
                if pending.count == Batch.capacity {
                    batch.setRows(pending)
                    rowsOut += pending.count
                    pending.removeAll(keepingCapacity: true)
                    if try !body(&batch) { stopped = true; return }
                }
            }
        }
        if !descending { try emit(index.nilRows, &batch) }
        let keys = index.keys, rows = index.rows
        // Groups of equal keys, found as the walk goes (a LIMIT stops it early).
        if descending {
            var end = keys.count
            while end > 0, !stopped {
                var start = end - 1
                while start > 0, Value.sortOrder(keys[start - 1], keys[end - 1]) == 0 { start -= 1 }
                try emit(Array(rows[start..<end]), &batch)
                end = start
            }
        } else {
            var start = 0
            while start < keys.count, !stopped {
                var end = start + 1
                while end < keys.count, Value.sortOrder(keys[start], keys[end]) == 0 { end += 1 }
                try emit(Array(rows[start..<end]), &batch)
                start = end
            }
        }
        if stopped { return }
        if descending { try emit(index.nilRows, &batch) }
        if stopped || pending.isEmpty { return }
        batch.setRows(pending)
        rowsOut += pending.count
        _ = try body(&batch)
    }
}

/// A lookup that reads its conjunct's literals from each execution
/// (docs/ARCHITECTURE.md#plan-parameters): `make` is the probe the planner makes for the
/// conjunct with those literals, nil unless it is exact and uses the same index the same way
/// (then the conjunct stays covered, whatever the literals).
struct ProbeParameter {
    let slots: Range<Int>
    let make: ([Value]) -> Probe?
}
