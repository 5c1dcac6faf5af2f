import QuarryCore

/// One field of one class across all its rows: a slot per row (missing, null, typed value,
/// other) and, in the subclasses, the typed values. Rows whose value does not fit the column's
/// type are `other` and keep their `Value` in `others`; so do all values of a `generic`
/// column. The column is the only copy of the data: `value(at:)` gives a row's value back.
///
/// Columns are reference types so that a compiled plan reads them in place; a plan never runs
/// while the store changes (the engine invalidates its plans on every change). For the same
/// reason the per-row arrays here and in the subclasses are `@exclusivity(unchecked)`: only
/// the store writes them, never during a scan, so the runtime's access checks would only cost.
class Column {
    let kind: ColumnKind
    /// One `Slot` raw value per row.
    @exclusivity(unchecked) final var slots: [UInt8] = []
    @exclusivity(unchecked) final var statistics = ColumnStatistics()
    /// While set, `place` counts slots but leaves the values' bounds, types and distinct count
    /// to `noteDeferredValues` (the direct loader's, docs/STORAGE.md#direct-loading).
    private final var defersValues = false
    /// The values of `other` rows, by row: few in a typed column, every value in a generic one.
    private(set) final var others: [Int: Value] = [:]

    init(kind: ColumnKind) { self.kind = kind }

    /// A copy that shares every array with this column until one of them changes it (Swift's
    /// copy on write): how a second replica starts (docs/ARCHITECTURE.md#concurrency). `targets`
    /// gives a pointer column the copy's own objectId lookup into `className`.
    func copy(targets: (_ className: String) -> PointerTargets) -> Column {
        let c = Column(kind: kind)
        copyBase(to: c)
        return c
    }

    /// The base's state into a copy.
    final func copyBase(to c: Column) {
        c.slots = slots
        c.statistics = statistics
        c.others = others
    }

    final var rowCount: Int { slots.count }

    // MARK: - What subclasses provide

    /// Stores `v` typed at `row` if the column's type can hold it.
    func storeTyped(_ v: Value, at row: Int) -> Bool { false }
    /// The value stored typed at `row` (its slot is `value`), exactly as it was stored.
    func typedValue(at row: Int) -> Value { .null }
    /// Room in the typed arrays for `n` more rows.
    func reserveTyped(_ n: Int) {}
    /// Gives back the typed arrays' spare capacity.
    func trimTyped() {}
    /// Grows the typed arrays by one placeholder row.
    func appendPlaceholder() {}
    /// Called when the typed value at `row` is about to be replaced or removed.
    func forgetTyped(at row: Int) {}
    /// Called when the `other` value at `row` is about to be replaced or removed.
    func forgetOther(at row: Int) {}
    /// Whether the column keeps this `other` value itself (else `others` does); `otherValue`
    /// then gives it back.
    func keepsOther(_ v: Value, at row: Int) -> Bool { false }
    /// The value of an `other` row.
    func otherValue(at row: Int) -> Value? { others[row] }
    /// Heap bytes of the typed storage (capacity, not count).
    var typedBytes: Int { 0 }

    /// Called once a column is loaded: settles on its compact form (dictionary encoding where
    /// it pays) and gives back spare capacity.
    func settle() {
        slots.trimCapacity()
        trimTyped()
    }

    // MARK: - Reading

    /// The value of a row; nil when the object has no such field.
    final func value(at row: Int) -> Value? {
        switch slots[row] {
        case Slot.missing.rawValue: return nil
        case Slot.null.rawValue: return .null
        case Slot.value.rawValue: return typedValue(at: row)
        default: return otherValue(at: row)
        }
    }

    /// Heap bytes the column holds: slots, typed storage, and a rough figure for `other`
    /// values (a dictionary entry each; the values' own heap storage is not counted).
    final var heapBytes: Int { slots.capacity + typedBytes + others.capacity * 48 }

    // MARK: - Changes

    /// Room for `n` more rows, so that loading a class allocates each array once, at its size.
    final func reserve(_ n: Int) {
        slots.reserveCapacity(slots.count + n)
        reserveTyped(n)
    }

    /// Adds a row at the end; nil means the object has no such field.
    final func append(_ v: Value?) {
        appendPlaceholder()
        slots.append(Slot.missing.rawValue)
        place(v, at: slots.count - 1)
    }

    /// Adds `n` rows at the end where the object has no such field: how the direct loader
    /// brings a column that no recent object wrote up to its class's rows in one step
    /// (docs/STORAGE.md#sparse-fields).
    final func appendMissing(_ n: Int) {
        guard n > 0 else { return }
        if kind != .generic { for _ in 0..<n { appendPlaceholder() } }
        slots.append(contentsOf: repeatElement(Slot.missing.rawValue, count: n))
        statistics.missing += n
    }

    /// Objects holding the field (null included).
    final var presentCount: Int { statistics.typed + statistics.others + statistics.nulls }

    /// Replaces the value at `row`; nil means the field is now missing.
    final func set(_ row: Int, _ v: Value?) {
        forget(row)
        place(v, at: row)
    }

    /// Stores a value at a row that holds none (new, or forgotten) and counts it.
    private func place(_ v: Value?, at row: Int) {
        let slot: Slot
        switch v {
        case nil: slot = .missing
        case .null?: slot = .null
        case let v?: slot = storeTyped(v, at: row) ? .value : .other
        }
        if slot == .other, let v, !keepsOther(v, at: row) { others[row] = v }
        slots[row] = slot.rawValue
        statistics.count(slot, +1)
        if let v, !v.isNull, !defersValues { statistics.note(v) }
    }

    /// Lets go of a row's current value (its typed storage and its count).
    private func forget(_ row: Int) {
        let old = Slot(rawValue: slots[row]) ?? .missing
        if old == .value { forgetTyped(at: row) }
        if old == .other {
            forgetOther(at: row)
            others[row] = nil
        }
        statistics.count(old, -1)
    }

    /// Empties a deleted object's row: missing, and no longer counted in the statistics.
    final func clear(_ row: Int) {
        forget(row)
        slots[row] = Slot.missing.rawValue
    }

    /// Replaces the kept value of an `other` row (a pointer column's dangling pointer whose
    /// target came back is `value` again; one whose target left becomes `other`).
    final func setSlot(_ row: Int, _ slot: Slot, keeping value: Value?) {
        statistics.count(Slot(rawValue: slots[row]) ?? .missing, -1)
        slots[row] = slot.rawValue
        statistics.count(slot, +1)
        others[row] = slot == .other ? value : nil
    }

    /// Loading: a string column (or an array column's string elements) takes a dictionary as
    /// its strings arrive instead of settling into one afterwards
    /// (docs/STORAGE.md#direct-loading); other columns do nothing.
    func codeStringsWhileLoading() {}

    /// Whether noting the values after loading (`noteDeferredValues`) costs less than noting
    /// each as it comes: true for scalar and string columns, whose values are cheap to read
    /// back; arrays and pointers would build a `Value` a row again.
    var defersValuesWell: Bool { false }

    /// From now on, values are counted as they come but noted in the statistics only by
    /// `noteDeferredValues`.
    final func deferValueStatistics() { defersValues = true }

    /// A loading column defers what is cheaper to note afterwards: its own values when
    /// `defersValuesWell`; an array column its elements'.
    func deferStatisticsWhileLoading() {
        if defersValuesWell { deferValueStatistics() }
    }

    /// Notes every value the column holds in its statistics, if they were deferred, and stops
    /// deferring. Columns of one store may do this on several threads at once (each reads
    /// only itself).
    func noteDeferredValues() {
        guard defersValues else { return }
        defersValues = false
        noteTypedValues()
        noteOtherValues()
    }

    /// Notes the typed values in the statistics; a subclass with a faster way than a `Value`
    /// a row overrides it.
    func noteTypedValues() {
        for row in slots.indices where slots[row] == Slot.value.rawValue { statistics.note(typedValue(at: row)) }
    }

    /// Notes the `other` values in the statistics; a subclass that keeps some of them itself
    /// may override it.
    func noteOtherValues() {
        for row in slots.indices where slots[row] == Slot.other.rawValue {
            if let v = otherValue(at: row) { statistics.note(v) }
        }
    }

    /// Values the column's kind does not hold; many of them call for a column of another kind.
    var misfits: Int { statistics.others }

    /// Statistics recomputed from scratch over the rows that hold objects.
    final func refreshStatistics(_ rows: some Sequence<Int>) {
        var fresh = ColumnStatistics()
        for row in rows {
            let slot = Slot(rawValue: slots[row]) ?? .missing
            fresh.count(slot, +1)
            if slot == .value || slot == .other, let v = value(at: row) { fresh.note(v) }
        }
        statistics = fresh
    }
}

/// Counts and bounds kept for a column as values come and go.
struct ColumnStatistics {
    var missing = 0, nulls = 0, typed = 0, others = 0
    /// Rows holding an array or a relation (existential under `.sql` and `.document`).
    var multiValued = 0
    /// Type ranks seen among values and their array elements (only ever widened).
    var typeBits: UInt16 = 0
    /// Smallest and largest value by `Value.sortOrder` among values of the column's own type
    /// and of others; widened on insert, kept on delete, so they are bounds, not exact (unless
    /// an ordered index on the field sets them, as `ColumnStore` does after each change).
    var min: Value?
    var max: Value?
    var distinct = DistinctSketch()

    mutating func count(_ slot: Slot, _ delta: Int) {
        switch slot {
        case .missing: missing += delta
        case .null: nulls += delta
        case .value: typed += delta
        case .other: others += delta
        }
    }

    /// `Value.sortOrder`, with the common same-type cases first (this runs per stored value).
    private static func order(_ a: Value, _ b: Value) -> Int {
        switch (a, b) {
        case (.int(let x), .int(let y)), (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.double(let x), .double(let y)) where !x.isNaN && !y.isNaN: return x < y ? -1 : (x == y ? 0 : 1)
        case (.string(let x), .string(let y)): return Value.compareStrings(x, y)
        default: return Value.sortOrder(a, b)
        }
    }

    mutating func note(_ v: Value) {
        typeBits |= v.typeBitsWithElements
        if v.isMultiValued { multiValued += 1 }
        distinct.add(v)
        widen(v)
    }

    /// The bounds alone, for a value whose row is otherwise noted.
    mutating func widen(_ v: Value) {
        if min.map({ Self.order(v, $0) < 0 }) ?? true { min = v }
        if max.map({ Self.order(v, $0) > 0 }) ?? true { max = v }
    }
}

/// The rows holding the smallest and the largest of a column's values by an order of rows, for
/// noting its statistics after a load (`noteTypedValues`) with only the two bounds made into
/// `Value`s. Of equal values the first row stays, as noting the values in row order keeps it.
struct BoundRows {
    private var low = -1, high = -1

    mutating func see(_ row: Int, _ order: (_ row: Int, _ bound: Int) -> Int) {
        if low < 0 || order(row, low) < 0 { low = row }
        if high < 0 || order(row, high) > 0 { high = row }
    }

    /// The smallest's row and the largest's, none before a row is seen.
    var rows: [Int] { low < 0 ? [] : [low, high] }
}
