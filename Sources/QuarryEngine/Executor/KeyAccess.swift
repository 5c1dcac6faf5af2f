import QuarryCore

/// A key path resolved against the store: the pointer columns it follows (`address` in
/// `address.city`) and the column it ends at.
struct KeyAccess {
    let path: FieldPath
    let hops: [PointerColumn]
    /// The final column; nil when no object of the final class has the field, so that every
    /// row reaches nothing.
    var column: Column? {
        if let (points, name) = geoComponent { return points.component(name) }
        return finalColumn
    }
    private let finalColumn: Column?
    /// A geo point's latitude or longitude, viewed as a double column only when asked: what is
    /// kept between plans then shares no arrays with the store (a change would copy them).
    private let geoComponent: (GeoColumn, String)?

    /// Whether null in the column reaches nothing (a geo point's latitude or longitude: the
    /// column holds the points; a field through a list of pointers: the column holds the lists).
    let nullIsMissing: Bool
    /// For a field through a list of pointers (`rel.name`): the list, whose slots are the rows'
    /// (`column` is the target class's); each row reaches an array of its targets' values.
    let list: PointerListColumn?

    /// The path ends at `objectId` after a pointer, which a dangling pointer answers itself.
    private let endsAtOwnId: Bool

    /// The column whose slots say what each row holds at the key.
    var rowColumn: Column? { list ?? geoComponent?.0 ?? finalColumn }

    /// `rel.name`: a list of pointers, then a field of the target class; nil for other paths
    /// and when no target has the field.
    static func throughList(_ path: FieldPath, in table: ClassTable, store: ColumnStore) -> KeyAccess? {
        let components = path.components
        // `rel.0` is the list's first element (docs/SEMANTICS.md), not a field of the targets.
        guard components.count == 2, Int(components[1]) == nil,
            let list = table.column(components[0]) as? PointerListColumn,
            let column = store.table(list.targetClass)?.column(components[1])
        else { return nil }
        return KeyAccess(path: path, list: list, column: column)
    }

    private init(path: FieldPath, list: PointerListColumn, column: Column) {
        self.path = path
        hops = []
        endsAtOwnId = false
        finalColumn = column
        geoComponent = nil
        nullIsMissing = true
        self.list = list
    }

    /// Nil when a step on the way is not a pointer column (an array of pointers, an embedded
    /// object, mixed values): such paths go through the reference evaluator.
    init?(_ path: FieldPath, in table: ClassTable, store: ColumnStore) {
        var hops: [PointerColumn] = []
        var current: ClassTable? = table
        let components = path.components
        let last = components.last ?? ""
        for (i, name) in components.dropLast().enumerated() {
            guard let t = current else { break }
            guard let column = t.column(name) else {
                current = nil
                break
            }
            if i == components.count - 2, let points = column as? GeoColumn, last == "latitude" || last == "longitude" {
                self.path = path
                self.hops = hops
                endsAtOwnId = false
                finalColumn = nil
                geoComponent = (points, last)
                nullIsMissing = true
                list = nil
                return
            }
            guard let pointers = column as? PointerColumn, pointers.statistics.multiValued == 0 else { return nil }
            hops.append(pointers)
            current = store.table(pointers.targetClass)
        }
        self.path = path
        self.hops = hops
        endsAtOwnId = last == "objectId"
        finalColumn = current?.column(last)
        geoComponent = nil
        nullIsMissing = false
        list = nil
    }

    /// Where each row of the batch ends: its row in the final class, `KeyAccess.missing` when
    /// the path reaches nothing, `KeyAccess.fallback` when a step holds something only the
    /// reference path can follow.
    func follow(_ b: Batch, into finals: inout [Int32]) {
        if finals.count < b.count { finals = [Int32](repeating: 0, count: Swift.max(b.count, Batch.capacity)) }
        var i = 0
        finals.withUnsafeMutableBufferPointer { out in
            b.forEach { r in
                var t = Int32(r)
                for hop in hops {
                    let next = hop.rows[Int(t)]
                    if next >= 0 {
                        t = next
                    } else {
                        // A dangling pointer still has its own objectId (the stored value).
                        let asks =
                            next == PointerColumn.foreign
                            || (next == PointerColumn.dangling && endsAtOwnId && hop === hops.last)
                        t = asks ? Self.fallback : Self.missing
                        break
                    }
                }
                out[i] = t
                i += 1
            }
        }
    }

    static let missing: Int32 = -1
    static let fallback: Int32 = -4
}

/// A leaf over one key path: typed test for rows holding a value of the column's type, the
/// answers for rows reaching nothing (missing) and null, computed once from the reference
/// rules, and the reference evaluator for everything else (`other` values, odd paths).
class KeyLeaf: FilterNode {
    let access: KeyAccess
    let whenMissing: Bool
    let whenNull: Bool
    /// The leaf as IR, for rows the typed test cannot decide (`ExecContext.fallback` puts in
    /// the execution's literals).
    let fallback: Filter
    /// The slots of the literals the leaf reads from the execution (nil: it holds them).
    let parameterSlots: Range<Int>?
    private var finals: [Int32] = []
    private var decisions: [UInt8] = []

    init(
        _ leaf: Leaf, access: KeyAccess, answers: SlotAnswers, cost: Double, selectivity: Double,
        mayThrow: Bool = false,
        parameterSlots: Range<Int>? = nil
    ) {
        self.parameterSlots = parameterSlots
        self.access = access
        self.whenMissing = answers.missing
        self.whenNull = answers.null
        self.fallback = .leaf(leaf)
        super.init(describing: .leaf(leaf), cost: cost, selectivity: selectivity, mayThrow: mayThrow)
    }

    /// Narrows the batch with `test(t)` deciding rows whose final slot holds a typed value
    /// (`t` is the row in the final class).
    @inline(__always)
    final func drive(_ b: inout Batch, _ ctx: ExecContext, _ test: (Int) -> Bool) throws(Diagnostic) {
        let m = whenMissing, n = whenNull
        guard let column = access.rowColumn else {
            if access.hops.isEmpty {
                if !m { b.removeAll() }
                return
            }
            try driveGeneral(&b, ctx, slots: nil) { test($0) ? 1 : 0 }
            return
        }
        if access.hops.isEmpty, column.statistics.others == 0 {
            column.slots.withUnsafeBufferPointer { slots in
                if !m && !n {
                    b.refine { _, r in slots[r] == 2 && test(r) }
                } else {
                    b.refine { _, r in
                        let s = slots[r]
                        return s == 2 ? test(r) : (s == 0 ? m : n)
                    }
                }
            }
            return
        }
        try column.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
            try driveGeneral(&b, ctx, slots: slots) { test($0) ? 1 : 0 }
        }
    }

    /// `drive` as a count over a range of rows of the leaf's own class, when every row's slot
    /// is decided without the reference (no pointer steps, no `other` values); nil otherwise.
    @inline(__always)
    final func countDriven(_ range: Range<Int>, _ test: (Int) -> Bool) -> Int? {
        guard access.hops.isEmpty else { return nil }
        let m = whenMissing, n = whenNull
        guard let column = access.rowColumn else { return m ? range.count : 0 }
        guard column.statistics.others == 0 else { return nil }
        return column.slots.withUnsafeBufferPointer { slots in
            var kept = 0
            for r in range {
                let s = slots[r]
                if s == 2 ? test(r) : (s == 0 ? m : n) { kept &+= 1 }
            }
            return kept
        }
    }

    /// `drive` for tests that cannot decide every typed value alone (a list holding a dangling
    /// pointer, whose identity only the stored value has): `decide(t)` answers 0 (reject),
    /// 1 (keep) or 2 (ask the reference).
    final func driveDeciding(_ b: inout Batch, _ ctx: ExecContext, _ decide: (Int) -> UInt8) throws(Diagnostic) {
        let column = access.rowColumn
        if let column {
            try column.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
                try driveGeneral(&b, ctx, slots: slots, decide)
            }
        } else {
            try driveGeneral(&b, ctx, slots: nil, decide)
        }
    }

    /// `drive` for tests that may throw (regular expressions over their budget): rows are
    /// decided one by one in order, so the first failing row is the reference's.
    final func driveThrowing(_ b: inout Batch, _ ctx: ExecContext, _ test: (Int) throws(Diagnostic) -> Bool)
        throws(Diagnostic)
    {
        let m = whenMissing, n = whenNull
        let hopping = !access.hops.isEmpty
        if hopping { access.follow(b, into: &finals) }
        let finals = self.finals, p = ctx.fallback(self)
        guard let column = access.rowColumn else {
            try b.refineThrowing { (i, r) throws(Diagnostic) in
                hopping && finals[i] == KeyAccess.fallback ? try ctx.evaluate(p, row: r) : m
            }
            return
        }
        try column.slots.withUnsafeBufferPointer { (slots) throws(Diagnostic) in
            try b.refineThrowing { (i, r) throws(Diagnostic) in
                let t = hopping ? Int(finals[i]) : r
                if t < 0 { return t == Int(KeyAccess.missing) ? m : try ctx.evaluate(p, row: r) }
                switch slots[t] {
                case 2: return try test(t)
                case 0: return m
                case 1: return n
                default: return try ctx.evaluate(p, row: r)
                }
            }
        }
    }

    /// Pointer steps, `other` values and the reference fallback: decisions first (0 reject,
    /// 1 keep, 2 ask the reference), then the reference for the undecided rows, in row order.
    @inline(__always)
    private func driveGeneral(
        _ b: inout Batch, _ ctx: ExecContext, slots: UnsafeBufferPointer<UInt8>?,
        _ decide: (Int) -> UInt8
    ) throws(Diagnostic) {
        let m: UInt8 = whenMissing ? 1 : 0, n: UInt8 = whenNull ? 1 : 0
        if decisions.count < b.count { decisions = [UInt8](repeating: 0, count: Swift.max(b.count, Batch.capacity)) }
        let hopping = !access.hops.isEmpty
        if hopping { access.follow(b, into: &finals) }
        decisions.withUnsafeMutableBufferPointer { d in
            finals.withUnsafeBufferPointer { f in
                var i = 0
                b.forEach { r in
                    let t = hopping ? Int(f[i]) : r
                    if t < 0 {
                        d[i] = t == Int(KeyAccess.missing) ? m : 2
                    } else if let slots {
                        switch slots[t] {
                        case 2: d[i] = decide(t)
                        case 0: d[i] = m
                        case 1: d[i] = n
                        default: d[i] = 2
                        }
                    } else {
                        d[i] = m
                    }
                    i += 1
                }
            }
        }
        let p = ctx.fallback(self)
        try decisions.withUnsafeBufferPointer { (d) throws(Diagnostic) in
            try b.refineThrowing { (i, r) throws(Diagnostic) in
                switch d[i] {
                case 0: return false
                case 1: return true
                default: return try ctx.evaluate(p, row: r)
                }
            }
        }
    }
}

/// A leaf's answer for rows whose key reaches nothing, and for rows where it reaches null.
struct SlotAnswers {
    var missing: Bool
    var null: Bool

    /// The answers of the commonest leaves, `key op literal`, `key BETWEEN lo AND hi` with
    /// non-null scalar literals, `key IN (list)` of scalars and nulls, prefix, suffix and
    /// substring tests of a literal string and matches of a literal pattern that compiles
    /// (`compiles`), from their semantics' rules (docs/SEMANTICS.md#compare,
    /// docs/SEMANTICS.md#between, docs/SEMANTICS.md#incollection, docs/SEMANTICS.md#string)
    /// instead of an evaluation: under `sql` a row with no value fails; under `predicate` and
    /// `document` missing and null equal no value but null (so a list holding null has them),
    /// differ from every other value, order with none and are no string. Nil for any other leaf.
    static func ofScalarTest(
        _ l: Leaf, subject: FieldPath,
        compiles: (String, RegexOptions, StringOptions) -> Bool = { _, _, _ in false }
    ) -> SlotAnswers? {
        let answer: Bool
        switch l.condition {
        case .compare(.key(let k), let op, .literal(let v), _) where k == subject && isScalar(v):
            answer = l.semantics == .sql ? false : (op == .ne) != l.negated
        case .between(.key(let k), .literal(let lo), .literal(let hi))
        where k == subject && isScalar(lo) && isScalar(hi):
            answer = l.semantics == .sql ? false : l.negated
        case .inCollection(.key(let k), let list, _) where k == subject:
            guard let items = list.literalValues, items.allSatisfy({ $0.isNull || isScalar($0) }) else { return nil }
            answer = l.semantics == .sql ? false : items.contains(where: \.isNull) != l.negated
        case .string(.key(let k), .beginsWith, .literal(.string), _),
            .string(.key(let k), .endsWith, .literal(.string), _),
            .string(.key(let k), .contains, .literal(.string), _):
            guard k == subject else { return nil }
            answer = l.semantics == .sql ? false : l.negated
        case .string(.key(let k), .matches(let regexOptions), .literal(.string(let pattern)), let options):
            // An invalid pattern fails every row, whatever it holds: no answer then.
            guard k == subject, compiles(pattern, regexOptions, options) else { return nil }
            answer = l.semantics == .sql ? false : l.negated
        default:
            return nil
        }
        return SlotAnswers(missing: answer, null: answer)
    }

    private static func isScalar(_ v: Value) -> Bool {
        switch v {
        case .int, .double, .string, .date, .bool: return true
        default: return false
        }
    }
}
