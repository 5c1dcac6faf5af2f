import QuarryCore
import QuarryData

/// Builds a `ColumnStore` from a data file's values as the reader hands them over, row by row,
/// with no `Record` in between (docs/STORAGE.md#direct-loading). A field's column takes the
/// kind of its first value and is rebuilt with `ColumnKind.best` when its values stop fitting,
/// the rule `ColumnStore` follows for inserts; once the file is read, `finish` settles every
/// column as `ColumnStore.init(database:)` does. A column is brought up to its class's rows
/// only when it is written and when the file is read, so an object costs the fields it has,
/// and a field first met after many rows starts generic, as a sparse field's column is
/// (docs/STORAGE.md#sparse-fields).
struct ColumnLoader: DataFileSink {
    let store = ColumnStore(database: Database())
    /// `Limits.maxSparseCells`.
    let sparseCells: Int
    private(set) var schema = LoadedSchema()
    private var table: ClassTable?
    /// The current class's columns and field names, by field number.
    private var columns: [Column?] = []
    private var names: [String] = []
    private var numbers: [String: Int] = [:]
    /// Classes in the order they were read (a pointer into a later one, or into its own class,
    /// dangles until `finish`).
    private var loaded: [String] = []
    /// The current object's fields in the order written.
    private var written: [Int] = []
    /// The current object's fields whose values change their field's type (after a class's
    /// first objects, hardly any: an array of them would be emptied, element by element, for
    /// every object).
    private var changedTypes: [(field: Int, type: FieldType)] = []
    /// The values the current class's objects hold so far.
    private var values = 0
    /// An objectId held twice in a class, found when its objectIds were filed.
    private var repeatedObjectId = false
    /// The object that took its class past `SparseLimit`, where loading stopped.
    private(set) var sparseExcess: (className: String, fields: Int, objects: Int, values: Int, objectId: String)?

    init(sparseCells: Int = Limits.default.maxSparseCells) {
        self.sparseCells = sparseCells
    }

    mutating func beginClass(_ name: String) {
        if let table { end(table) }
        let table = store.table(creating: name)
        if table.rowCount == 0 { table.objectIds.deferValueStatistics() }
        self.table = table
        loaded.append(name)
        columns = []
        names = []
        numbers = [:]
        values = 0
    }

    mutating func expect(_ objects: Int) {
        guard let table else { return }
        table.objectIds.reserve(objects)
        // Not a sparse field's column (docs/STORAGE.md#sparse-fields): it would reserve in vain.
        let rows = table.rowCount
        for case let column? in columns where column.presentCount * ColumnKind.sparseRatio >= rows {
            column.reserve(objects)
        }
    }

    mutating func field(named name: String) -> Int {
        if let n = numbers[name] { return n }
        numbers[name] = names.count
        names.append(name)
        columns.append(nil)
        return names.count - 1
    }

    mutating func value(_ value: Value, field: Int) {
        guard let table else { return }
        let row = table.rowCount
        // nil when the field's type stays as it is (noting nil changes nothing).
        let type = schema.keeps(value, field: field) ? nil : FieldType.of(value)
        guard let column = columns[field] else {
            let sparse = ColumnKind.isSparse(present: 1, rows: row + 1)
            let column = store.makeColumn(sparse ? .generic : ColumnKind.of(value) ?? .generic)
            column.deferStatisticsWhileLoading()
            column.codeStringsWhileLoading()
            column.appendMissing(row)
            column.append(value)
            table.setColumn(column, for: names[field])
            columns[field] = column
            written.append(field)
            if let type { changedTypes.append((field, type)) }
            return
        }
        if column.rowCount <= row {
            column.appendMissing(row - column.rowCount)
            column.append(value)
            written.append(field)
            if let type { changedTypes.append((field, type)) }
        } else {
            // A repeated key: the last value wins, the first position stays.
            column.set(row, value)
            changedTypes.removeAll { $0.field == field }
            if let type { changedTypes.append((field, type)) }
        }
    }

    mutating func endObject(objectId: String) -> Bool {
        guard let table, !repeatedObjectId else { return false }
        let row = table.appendRowUnfiled(objectId)
        var previous = -1, inOrder = true
        for field in written {
            inOrder = inOrder && field > previous
            previous = field
        }
        for c in changedTypes { schema.note(c.type, field: c.field) }
        // Field numbers follow the class's field order, so fields written out of number order
        // are out of the class's order.
        if !inOrder || ClassTable.holdsFew(written.count, of: names.count) {
            table.setFieldOrder(written.map { names[$0] }, row: row)
        }
        for field in written {
            guard let column = columns[field], column.misfits > 64, column.kind != .generic,
                column.misfits * 8 > column.statistics.typed
            else { continue }
            rebuild(field)
        }
        values += written.count
        written.removeAll(keepingCapacity: true)
        if !changedTypes.isEmpty { changedTypes.removeAll(keepingCapacity: true) }
        if SparseLimit.exceeded(fields: names.count, objects: row + 1, values: values, limit: sparseCells) {
            sparseExcess = (table.name, names.count, row + 1, values, objectId)
            return false
        }
        // At doubling row counts (so that the checks cost O(rows) in all), a typed column that
        // has become sparse turns generic, and a generic one (a null or an empty array first, or
        // a field first met after many rows) that is not sparse gets the kind most of its
        // values have.
        let rows = row + 1
        if ColumnStore.atDoubling(rows) {
            for (field, column) in columns.enumerated() {
                guard let column else { continue }
                let sparse = ColumnKind.isSparse(present: column.presentCount, rows: rows)
                if column.kind != .generic {
                    if sparse { rebuild(field) }
                } else if !sparse {
                    column.appendMissing(rows - column.rowCount)
                    if ColumnStore.bestKind(column) != .generic { rebuild(field) }
                }
            }
        }
        return true
    }

    /// Resolves pointers into classes read after theirs; then every other column is settled
    /// and its deferred statistics noted, on up to `threads` threads at once. Nil when a class
    /// holds an objectId twice.
    mutating func finish(threads: Int) -> InferredSchema? {
        // The last class's objectIds are filed beside the columns' settling, unless a column
        // rebuilt first needs them (a pointer into that class finds its rows there).
        var unfiled = table
        if let table { schema.add(table.name, classFields()) }
        table = nil
        func fileUnfiled() {
            if let t = unfiled, !t.fileObjectIds() { repeatedObjectId = true }
            unfiled = nil
        }
        guard !repeatedObjectId else { return nil }
        // The columns rebuilt below are let go of as they are replaced.
        columns = []
        var settling: [Column] = [], noting: [Column] = []
        // Where each class was read: a pointer into a class read at or after its own is
        // resolved now (found by position, not by a set of the later classes per class, which
        // made a file of 10,000 classes take 5 s).
        var first: [String: Int] = [:], last: [String: Int] = [:]
        for (i, name) in loaded.enumerated() {
            if first[name] == nil { first[name] = i }
            last[name] = i
        }
        for name in store.classNames {
            guard let table = store.table(name) else { continue }
            let start = first[name] ?? .max
            for field in table.fieldNames {
                guard let column = table.columns[field] else { continue }
                // A sparse field's column is made generic from the rows it holds, before it is
                // brought up to the class's rows.
                if column.kind != .generic, ColumnKind.isSparse(present: column.presentCount, rows: table.rowCount) {
                    fileUnfiled()
                    store.rebuild(field, in: table)
                    continue
                }
                column.appendMissing(table.rowCount - column.rowCount)
                let s = column.statistics, e = (column as? ArrayColumn)?.elements.statistics
                let misfit = column.misfits * 8 > s.typed || (e.map { $0.others * 8 > $0.typed } ?? false)
                let forward: Bool
                switch column.kind {
                case .pointer(let target), .pointerList(let target): forward = (last[target] ?? -1) >= start
                default: forward = false
                }
                let settled =
                    column.kind == .generic
                    ? ColumnKind.isSparse(present: column.presentCount, rows: table.rowCount)
                        || ColumnStore.bestKind(column) == .generic
                    : !misfit
                if forward || !settled {
                    fileUnfiled()
                    store.rebuild(field, in: table)
                } else {
                    settling.append(column)
                }
            }
            table.objectIds.settleDistinct()
            noting.append(table.objectIds)
        }
        let work = FinishingWork(filing: unfiled, settling: settling, noting: noting)
        Self.finish(work, threads: threads)
        guard !repeatedObjectId, !work.repeatedObjectId else { return nil }
        return schema.inferred
    }

    /// The work is taken one item at a time from a shared list, so a large one keeps one
    /// thread while the others take the rest: first the filing of the last class's objectIds
    /// (30 ms for a million), then each column to settle and note, then those only to note. A
    /// column is settled before its statistics are noted (a dictionary-encoded one notes each
    /// distinct string once); settling a plain string column into a dictionary hashes every
    /// row, 57 ms for the benchmark's million names.
    private static func finish(_ work: FinishingWork, threads: Int) {
        let filing = work.filing == nil ? 0 : 1
        ScanThreads.shared.run(helpers: max(0, min(threads, work.columns.count + filing) - 1)) {
            while let i = work.items.take() {
                if i < filing {
                    if work.filing?.fileObjectIds() == false { work.repeatedObjectId = true }
                    continue
                }
                let c = i - filing
                if c < work.settling { work.columns[c].settle() }
                work.columns[c].noteDeferredValues()
            }
        }
    }

    /// The class's objects are read: its fields go to the schema and its objectIds are filed
    /// (a pointer into it from a later class finds its row from now on).
    private mutating func end(_ table: ClassTable) {
        schema.add(table.name, classFields())
        if !table.fileObjectIds() { repeatedObjectId = true }
    }

    private mutating func rebuild(_ field: Int) {
        guard let table else { return }
        store.rebuild(names[field], in: table)
        columns[field] = table.columns[names[field]]
    }

    private func classFields() -> [(String, FieldType?)] {
        names.indices.map { (names[$0], $0 < schema.current.count ? schema.current[$0] : nil) }
    }
}

/// What is left of a load once its columns are rebuilt: a class's objectIds to file, the
/// columns still to be settled (the first `settling`) and whose statistics are still to be
/// noted, handed out one at a time to the threads that finish them (each item is touched by
/// one thread only; `repeatedObjectId` is read once they have all returned).
private final class FinishingWork: @unchecked Sendable {
    let filing: ClassTable?
    let columns: [Column]
    let settling: Int
    let items: SharedItems
    var repeatedObjectId = false

    init(filing: ClassTable?, settling: [Column], noting: [Column]) {
        self.filing = filing
        columns = settling + noting
        self.settling = settling.count
        items = SharedItems((filing == nil ? 0 : 1) + columns.count)
    }
}
