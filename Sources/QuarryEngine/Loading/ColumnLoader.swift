import QuarryCore
import QuarryData

/// Builds a `ColumnStore` from a data file's values as the reader hands them over, row by row,
/// with no `Record` in between (docs/STORAGE.md#direct-loading). A field's column takes the
/// kind of its first value and is rebuilt with `ColumnKind.best` when its values stop fitting,
/// the rule `ColumnStore` follows for inserts; once the file is read, `finish` settles every
/// column as `ColumnStore.init(database:)` does.
struct ColumnLoader: DataFileSink {
    let store = ColumnStore(database: Database())
    private(set) var schema = LoadedSchema()
    private var table: ClassTable?
    /// The current class's columns and field names, by field number.
    private var columns: [Column?] = []
    private var names: [String] = []
    private var numbers: [String: Int] = [:]
    /// Classes in the order they were read (a pointer into a later one, or into its own class,
    /// dangles until `finish`).
    private var loaded: [String] = []
    /// The current object's fields in the order written, with their types.
    private var written: [(field: Int, type: FieldType?)] = []
    private var expected = 0

    mutating func beginClass(_ name: String) {
        if let table { schema.add(table.name, classFields()) }
        let table = store.table(creating: name)
        if table.rowCount == 0 { table.objectIds.deferValueStatistics() }
        self.table = table
        loaded.append(name)
        columns = []
        names = []
        numbers = [:]
        expected = 0
    }

    mutating func expect(_ objects: Int) {
        guard let table else { return }
        expected = objects
        table.reserve(objects)
        table.objectIds.reserve(objects)
        for column in columns { column?.reserve(objects) }
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
            let column = store.makeColumn(ColumnKind.of(value) ?? .generic)
            if column.defersValuesWell { column.deferValueStatistics() }
            column.codeStringsWhileLoading()
            column.reserve(max(expected, row + 1))
            for _ in 0..<row { column.append(nil) }
            column.append(value)
            table.setColumn(column, for: names[field])
            columns[field] = column
            written.append((field, type))
            return
        }
        if column.rowCount == row {
            column.append(value)
            written.append((field, type))
        } else {
            // A repeated key: the last value wins, the first position stays.
            column.set(row, value)
            if let i = written.firstIndex(where: { $0.field == field }) { written[i].type = type }
        }
    }

    mutating func endObject(objectId: String) -> Bool {
        guard let table, let row = table.appendRowIfNew(objectId) else { return false }
        var previous = -1, inOrder = true
        for w in written {
            inOrder = inOrder && w.field > previous
            previous = w.field
            schema.note(w.type, field: w.field)
        }
        if !inOrder { table.noteFieldOrder(written.map { names[$0.field] }, row: row) }
        for w in written {
            guard let column = columns[w.field], column.misfits > 64, column.kind != .generic,
                column.misfits * 8 > column.statistics.typed
            else { continue }
            rebuild(w.field)
        }
        written.removeAll(keepingCapacity: true)
        // A column that started generic (a null or an empty array first) gets the kind most of
        // its values have, checked at doubling row counts so the checks cost O(rows) in all.
        let rows = row + 1
        if rows >= 64, rows & (rows - 1) == 0 {
            for (field, column) in columns.enumerated() where column?.kind == .generic {
                if let column, Self.bestKind(column, rows) != .generic { rebuild(field) }
            }
        }
        return true
    }

    /// Settles every column and resolves pointers into classes read after theirs; then the
    /// columns' deferred statistics are noted on up to `threads` threads at once.
    mutating func finish(threads: Int) -> InferredSchema {
        if let table { schema.add(table.name, classFields()) }
        table = nil
        var noting: [Column] = []
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
                let s = column.statistics, e = (column as? ArrayColumn)?.elements.statistics
                let misfit = column.misfits * 8 > s.typed || (e.map { $0.others * 8 > $0.typed } ?? false)
                let forward: Bool
                switch column.kind {
                case .pointer(let target), .pointerList(let target): forward = (last[target] ?? -1) >= start
                default: forward = false
                }
                if forward || (column.kind == .generic ? Self.bestKind(column, table.rowCount) != .generic : misfit) {
                    store.rebuild(field, in: table)
                } else {
                    // Settled first: a dictionary-encoded column notes each distinct string once.
                    column.settle()
                    noting.append(column)
                }
            }
            table.objectIds.settleDistinct()
            noting.append(table.objectIds)
        }
        Self.noteDeferredValues(of: noting, threads: threads)
        return schema.inferred
    }

    /// Columns are taken one at a time from a shared list, so a large one keeps one thread
    /// while the others take the rest.
    private static func noteDeferredValues(of columns: [Column], threads: Int) {
        let work = NotingWork(columns)
        ScanThreads.shared.run(helpers: max(0, min(threads, columns.count) - 1)) {
            while let i = work.items.take() { work.columns[i].noteDeferredValues() }
        }
    }

    private mutating func rebuild(_ field: Int) {
        guard let table else { return }
        store.rebuild(names[field], in: table)
        columns[field] = table.columns[names[field]]
    }

    private func classFields() -> [(String, FieldType?)] {
        names.indices.map { (names[$0], $0 < schema.current.count ? schema.current[$0] : nil) }
    }

    private static func bestKind(_ column: Column, _ rows: Int) -> ColumnKind {
        ColumnKind.best(for: (0..<rows).lazy.compactMap { column.value(at: $0) })
    }
}

/// The loader's columns whose statistics are still to be noted, handed out one at a time to
/// the threads that note them (each column is touched by one thread only).
private final class NotingWork: @unchecked Sendable {
    let columns: [Column]
    let items: SharedItems

    init(_ columns: [Column]) {
        self.columns = columns
        items = SharedItems(columns.count)
    }
}
