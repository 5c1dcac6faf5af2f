import QuarryCore

/// `int`/`date` column against a range of Int64 (comparisons, BETWEEN).
final class Int64RangeLeaf: KeyLeaf {
    let values: Int64Column
    let range: IntRange
    /// The range for the execution's literals, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let rangeOf: Parameter<IntRange>?

    init(
        _ leaf: Leaf, access: KeyAccess, values: Int64Column, range: IntRange, answers: SlotAnswers,
        selectivity: Double,
        parameter: Parameter<IntRange>? = nil
    ) {
        self.values = values
        self.range = range
        self.rangeOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: values.kind == .date ? 2 : 0.25, selectivity: selectivity,
            parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let range = rangeOf?.value(ctx) ?? self.range
        let lo = range.lo, hi = range.hi
        guard lo <= hi else {
            // No value is in an empty range.
            let all = range.invert
            try drive(&b, ctx) { _ in all }
            return
        }
        // x is in lo…hi exactly when x - lo, as unsigned, is at most hi - lo: one comparison
        // and no branch to mispredict when about half the rows pass.
        let width = UInt64(bitPattern: hi &- lo)
        try values.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
            if range.invert {
                try drive(&b, ctx) { t in UInt64(bitPattern: v[t] &- lo) > width }
            } else {
                try drive(&b, ctx) { t in UInt64(bitPattern: v[t] &- lo) <= width }
            }
        }
    }

    override func count(_ rows: Range<Int>, _ ctx: ExecContext) -> Int? {
        let range = rangeOf?.value(ctx) ?? self.range
        let lo = range.lo, hi = range.hi
        guard lo <= hi else {
            let all = range.invert
            return countDriven(rows) { _ in all }
        }
        let width = UInt64(bitPattern: hi &- lo)
        return values.values.withUnsafeBufferPointer { v in
            range.invert
                ? countDriven(rows) { t in UInt64(bitPattern: v[t] &- lo) > width }
                : countDriven(rows) { t in UInt64(bitPattern: v[t] &- lo) <= width }
        }
    }
}

/// `double` column against a range in the reference's total order.
final class DoubleRangeLeaf: KeyLeaf {
    let values: DoubleColumn
    let range: DoubleRange
    /// The range for the execution's literals, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let rangeOf: Parameter<DoubleRange>?

    init(
        _ leaf: Leaf, access: KeyAccess, values: DoubleColumn, range: DoubleRange, answers: SlotAnswers,
        selectivity: Double, parameter: Parameter<DoubleRange>? = nil
    ) {
        self.values = values
        self.range = range
        self.rangeOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: 1, selectivity: selectivity, parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let range = rangeOf?.value(ctx) ?? self.range
        try values.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
            try drive(&b, ctx) { t in range.contains(v[t]) }
        }
    }
}

/// `bool` column: false orders before true.
final class BoolRangeLeaf: KeyLeaf {
    let values: BoolColumn
    let range: IntRange

    init(
        _ leaf: Leaf, access: KeyAccess, values: BoolColumn, range: IntRange, answers: SlotAnswers, selectivity: Double
    ) {
        self.values = values
        self.range = range
        super.init(leaf, access: access, answers: answers, cost: 0.25, selectivity: selectivity)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let range = self.range
        try values.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
            try drive(&b, ctx) { t in range.contains(v[t] ? 1 : 0) }
        }
    }
}

/// A pointer column against one object (equality by class and objectId).
final class PointerEqualsLeaf: KeyLeaf {
    let pointers: PointerColumn
    /// The object's row; -1 when the literal names no object of the column's class.
    let target: Int32
    let invert: Bool

    init(_ leaf: Leaf, access: KeyAccess, pointers: PointerColumn, target: Int?, invert: Bool, answers: SlotAnswers) {
        self.pointers = pointers
        self.target = target.map { Int32($0) } ?? -1
        self.invert = invert
        super.init(leaf, access: access, answers: answers, cost: 0.25, selectivity: 0.01)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let target = self.target, invert = self.invert
        try pointers.rows.withUnsafeBufferPointer { (rows) throws(Diagnostic) in
            try drive(&b, ctx) { t in (rows[t] == target) != invert }
        }
    }
}

/// Rows whose typed value makes the test come out the same whatever the value (IS NULL on a
/// value, a comparison between types that never compare): only the slot matters.
final class SlotLeaf: KeyLeaf {
    let whenValue: Bool

    init(_ leaf: Leaf, access: KeyAccess, whenValue: Bool, answers: SlotAnswers, selectivity: Double) {
        self.whenValue = whenValue
        super.init(leaf, access: access, answers: answers, cost: 0.25, selectivity: selectivity)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let v = whenValue
        try drive(&b, ctx) { _ in v }
    }
}

/// A key whose column is generic (values of mixed types, or a sparse field:
/// docs/STORAGE.md#sparse-fields): the slot decides the rows reaching nothing or null, and the
/// reference each value (instead of the reference for every row).
final class GenericColumnLeaf: KeyLeaf {
    init(_ leaf: Leaf, access: KeyAccess, column: Column, answers: SlotAnswers, mayThrow: Bool) {
        let held = Double(column.statistics.others) / Double(Swift.max(1, column.rowCount))
        super.init(
            leaf, access: access, answers: answers, cost: 0.25 + 200 * held,
            selectivity: (answers.missing ? 1 - held : 0) + held / 2, mayThrow: mayThrow)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        // A generic column holds no typed value: each one is asked of the reference.
        try driveDeciding(&b, ctx) { _ in 2 }
    }
}

/// An int or date column against a set of integers (IN lists).
final class Int64SetLeaf: KeyLeaf {
    /// An IN list's numbers: searched in order when few, hashed otherwise.
    struct Members {
        let list: [Int64]
        let set: Set<Int64>
        init(_ list: [Int64]) {
            self.list = list
            set = Set(list)
        }
    }

    let values: Int64Column
    let members: Members
    let invert: Bool
    /// The members for the execution's literals, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let membersOf: Parameter<Members>?

    init(
        _ leaf: Leaf, access: KeyAccess, values: Int64Column, members: [Int64], invert: Bool, answers: SlotAnswers,
        selectivity: Double, parameter: Parameter<Members>? = nil
    ) {
        self.values = values
        self.members = Members(members)
        self.invert = invert
        membersOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: members.count <= 8 ? 1 : 5, selectivity: selectivity,
            parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let invert = self.invert, members = membersOf?.madeValue(ctx, for: self) ?? self.members
        try values.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
            if members.list.count <= 8 {
                let m = members.list
                try drive(&b, ctx) { t in m.contains(v[t]) != invert }
            } else {
                let s = members.set
                try drive(&b, ctx) { t in s.contains(v[t]) != invert }
            }
        }
    }
}

/// A double column against a set of numbers (IN lists); -0.0 equals 0.0 and NaN equals NaN.
final class DoubleSetLeaf: KeyLeaf {
    /// An IN list's numbers by their bits (-0.0 as 0.0), and whether NaN is among them.
    struct Members {
        let set: Set<UInt64>
        let nan: Bool
        init(_ list: [Double]) {
            set = Set(list.filter { !$0.isNaN }.map { ($0 == 0 ? 0.0 : $0).bitPattern })
            nan = list.contains { $0.isNaN }
        }
    }

    let values: DoubleColumn
    let members: Members
    let invert: Bool
    /// The members for the execution's literals, when the leaf reads them (docs/ARCHITECTURE.md#plan-parameters).
    let membersOf: Parameter<Members>?

    init(
        _ leaf: Leaf, access: KeyAccess, values: DoubleColumn, members: [Double], invert: Bool, answers: SlotAnswers,
        selectivity: Double, parameter: Parameter<Members>? = nil
    ) {
        self.values = values
        self.members = Members(members)
        self.invert = invert
        membersOf = parameter
        super.init(
            leaf, access: access, answers: answers, cost: 5, selectivity: selectivity, parameterSlots: parameter?.slots)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let members = membersOf?.madeValue(ctx, for: self) ?? self.members
        let s = members.set, nan = members.nan, invert = self.invert
        try values.values.withUnsafeBufferPointer { (v) throws(Diagnostic) in
            try drive(&b, ctx) { t in
                let x = v[t]
                return (x.isNaN ? nan : s.contains((x == 0 ? 0.0 : x).bitPattern)) != invert
            }
        }
    }
}

/// A pointer column against a set of rows of its target class (IN of pointers, `inQuery`).
final class PointerSetLeaf: KeyLeaf {
    let pointers: PointerColumn
    /// Fixed at compile time; nil when it comes from an inner query at run time.
    let fixed: RowSet?
    let inner: Query?
    let invert: Bool

    init(
        _ leaf: Leaf, access: KeyAccess, pointers: PointerColumn, rows: RowSet?, inner: Query?, invert: Bool,
        answers: SlotAnswers, selectivity: Double
    ) {
        self.pointers = pointers
        self.fixed = rows
        self.inner = inner
        self.invert = invert
        super.init(leaf, access: access, answers: answers, cost: 2, selectivity: selectivity)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let set: RowSet
        if let fixed {
            set = fixed
        } else if let inner, let s = ctx.run.innerRowSet(inner, targetClass: pointers.targetClass) {
            set = s
        } else {
            set = RowSet(rows: [], capacity: 0)
        }
        let invert = self.invert
        try pointers.rows.withUnsafeBufferPointer { (rows) throws(Diagnostic) in
            try drive(&b, ctx) { t in set.contains(Int(rows[t])) != invert }
        }
    }
}

/// A set of rows of one class as bits.
struct RowSet {
    private let words: [UInt64]

    init(rows: some Sequence<Int>, capacity: Int) {
        var words = [UInt64](repeating: 0, count: (capacity + 63) >> 6)
        for r in rows where r >= 0 && r < capacity { words[r >> 6] |= 1 << UInt64(r & 63) }
        self.words = words
    }

    @inline(__always) func contains(_ r: Int) -> Bool {
        let w = r >> 6
        return r >= 0 && w < words.count && words[w] & (1 << UInt64(r & 63)) != 0
    }
}

/// A geo point column against a few points (equality, IN lists): equal coordinates.
final class GeoEqualsLeaf: KeyLeaf {
    let points: GeoColumn
    let members: [GeoPoint]
    let invert: Bool

    init(
        _ leaf: Leaf, access: KeyAccess, points: GeoColumn, members: [GeoPoint], invert: Bool, answers: SlotAnswers,
        selectivity: Double
    ) {
        self.points = points
        self.members = members
        self.invert = invert
        super.init(leaf, access: access, answers: answers, cost: 2, selectivity: selectivity)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let members = self.members, invert = self.invert
        try points.latitudes.withUnsafeBufferPointer { (lat) throws(Diagnostic) in
            try points.longitudes.withUnsafeBufferPointer { (lon) throws(Diagnostic) in
                try drive(&b, ctx) { t in
                    let y = lat[t], x = lon[t]
                    return members.contains { $0.latitude == y && $0.longitude == x } != invert
                }
            }
        }
    }
}

/// A leaf the reference fails on for every typed value: rows holding one throw its error, in
/// row order; missing and null rows get their answers.
final class FailingLeaf: KeyLeaf {
    let error: Diagnostic

    init(_ leaf: Leaf, access: KeyAccess, error: Diagnostic, answers: SlotAnswers) {
        self.error = error
        super.init(leaf, access: access, answers: answers, cost: 0.25, selectivity: 0, mayThrow: true)
    }

    override func refine(_ b: inout Batch, _ ctx: ExecContext) throws(Diagnostic) {
        let error = self.error
        try driveThrowing(&b, ctx) { (_) throws(Diagnostic) -> Bool in throw error }
    }
}
