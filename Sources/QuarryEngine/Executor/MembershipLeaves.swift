import QuarryCore

/// `select(key, inner, innerKey)`: the value at the key (one typed value per row here) is among
/// the values `innerKey` reaches in the inner query's rows, with the reference's equality
/// (`InnerValues`): numbers across int and double, pointers by identity, and under `.document`
/// a plain string equal to a pointer with that objectId.
final class SelectLeaf: KeyLeaf {
    let column: Column
    let inner: Query
    let innerKey: FieldPath
    let semantics: LeafSemantics
    let invert: Bool

    init(_ leaf: Leaf, access: KeyAccess, column: Column, inner: Query, innerKey: FieldPath, answers: SlotAnswers) {
        self.column = column
        self.inner = inner
        self.innerKey = innerKey
        self.semantics = leaf.semantics
        self.invert = leaf.negated
        super.init(leaf, access: access, answers: answers, cost: 10, selectivity: 0.1)
    }

    private struct PreparedValues {
        var values = Set<Value>()
        var strings = ByteStringSet([])
        var pointerRows = RowSet(rows: [], capacity: 0)
    }

    /// The inner query's values, made once per execution (`ExecContext.made`: not kept in the
    /// node, which a cached plan carries into later runs with other variables).
    private func values(_ ctx: ExecContext) -> PreparedValues {
        ctx.made(by: self) { prepare(ctx) }
    }

    private func prepare(_ ctx: ExecContext) -> PreparedValues {
        var p = PreparedValues()
        var strings: [[UInt8]] = []
        var identities: [Pointer] = []
        var plainStrings: [String] = []
        if case .rows(_, let records)? = ctx.run.inner[inner] {
            let e = ctx.run.evaluation
            for i in records.indices {
                for v in e.sqlValues(e.resolver.resolve(innerKey, in: records.record(at: i, for: innerKey))) {
                    if let identity = v.objectIdentity {
                        identities.append(identity)
                        if semantics == .document { strings.append(Array(identity.objectId.utf8)) }
                    } else {
                        p.values.insert(v)
                        if case .string(let s) = v {
                            strings.append(Array(s.utf8))
                            plainStrings.append(s)
                        }
                    }
                }
            }
        }
        p.strings = ByteStringSet(strings)
        if let pointers = column as? PointerColumn, let targets = ctx.run.store.table(pointers.targetClass) {
            var rows = identities.filter { $0.className == pointers.targetClass }.compactMap {
                targets.row(of: $0.objectId)
            }
            if semantics == .document { rows += plainStrings.compactMap { targets.row(of: $0) } }
            p.pointerRows = RowSet(rows: rows, capacity: targets.rowCount)
        }
        return p
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let p = values(ctx), invert = self.invert
        switch column {
        case let c as StringColumn:
            try c.withBytes { (s) throws(Diagnostic) in
                try drive(&b, ctx) { t in p.strings.contains(s.span(t)) != invert }
            }
        case let c as Int64Column:
            let date = c.kind == .date
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                try drive(&b, ctx) { t in p.values.contains(date ? .date(v[t]) : .int(v[t])) != invert }
            }
        case let c as DoubleColumn:
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                try drive(&b, ctx) { t in p.values.contains(.double(v[t])) != invert }
            }
        case let c as BoolColumn:
            try c.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
                try drive(&b, ctx) { t in p.values.contains(.bool(v[t])) != invert }
            }
        case let c as PointerColumn:
            try c.rows.withUnsafeBufferPointer { (rows) throws(Diagnostic) in
                try drive(&b, ctx) { t in p.pointerRows.contains(Int(rows[t])) != invert }
            }
        default:
            let p = fallback
            try b.refineThrowing { (_, r) throws(Diagnostic) in try ctx.evaluate(p, row: r) }
        }
    }
}

/// Rows of the queried class in a fixed set (`relatedTo`: the objects listed in a relation).
final class RowSetLeaf: FilterNode {
    let rows: RowSet
    let invert: Bool

    init(_ leaf: Leaf, rows: RowSet, invert: Bool, selectivity: Double) {
        self.rows = rows
        self.invert = invert
        super.init(describing: .leaf(leaf), cost: 1, selectivity: selectivity, mayThrow: false)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let rows = self.rows, invert = self.invert
        b.refine { _, r in rows.contains(r) != invert }
    }
}
