import QuarryCore

/// The columns of one class, the only copy of its objects. Rows are in insertion order; a
/// row's record is built from the columns when it is read. A deleted object's row stays, with
/// every field missing, until the store compacts the class (docs/STORAGE.md#deletes).
final class ClassTable {
    let name: String
    /// Every row's objectId, as a string column (the `objectId` key).
    let objectIds: StringColumn
    private(set) var columns: [String: Column] = [:]
    /// Field names in first-seen order: the order records are built in.
    private(set) var fieldNames: [String] = []
    /// `columns` in the order of `fieldNames`: building a record walks them without hashing a
    /// name per field.
    private var orderedColumns: [Column] = []
    /// Each field's position in `fieldNames`.
    private var positions: [String: Int] = [:]
    /// Rows whose fields were written in another order than `fieldNames`, with their own.
    private var fieldOrders: [Int: [String]] = [:]
    /// objectId → row, keyed by the objectIds' bytes in their arena.
    private var lookup = SpanTable()
    /// The first row a direct load appended without filing it in `lookup` (`appendRowUnfiled`).
    private var unfiledFrom: Int?
    /// Rows whose object was deleted.
    private var deleted = RowBits()
    private(set) var deletedCount = 0

    init(name: String, objectIds: StringColumn = StringColumn(kind: .string)) {
        self.name = name
        self.objectIds = objectIds
    }

    /// A copy sharing every column's arrays until one side changes them
    /// (`Column.copy(targets:)`).
    func copy(targets: (String) -> PointerTargets) -> ClassTable {
        let c = ClassTable(name: name, objectIds: objectIds.copy())
        c.columns = columns.mapValues { $0.copy(targets: targets) }
        c.fieldNames = fieldNames
        c.orderedColumns = fieldNames.map { c.columns[$0]! }
        c.positions = positions
        c.fieldOrders = fieldOrders
        c.lookup = lookup
        c.deleted = deleted
        c.deletedCount = deletedCount
        return c
    }

    /// Rows, deleted ones included.
    var rowCount: Int { objectIds.rowCount }
    /// Objects: rows less deleted ones.
    var liveCount: Int { rowCount - deletedCount }

    @inline(__always) func isLive(_ row: Int) -> Bool { deletedCount == 0 || !deleted[row] }

    /// The rows of objects, in order.
    var liveRows: LazyFilterSequence<Range<Int>> { (0..<rowCount).lazy.filter(isLive) }

    /// Takes deleted rows out of a batch of a full scan (untouched when its range has none).
    func dropDeleted(_ batch: inout Batch) {
        guard deletedCount > 0, let range = batch.dense, deleted.any(in: range) else { return }
        let deleted = self.deleted
        batch.refine { _, r in !deleted[r] }
    }

    /// A column made for a field after rows were deleted counts those rows as missing: they
    /// are not objects.
    func discountDeleted(_ column: Column) {
        column.statistics.missing -= deletedCount
    }

    /// The column of a field, or the objectId column; nil for a field no object has had.
    func column(_ field: String) -> Column? {
        field == "objectId" ? objectIds : columns[field]
    }

    /// Adds a field's column (after the others) or replaces it.
    func setColumn(_ column: Column, for field: String) {
        if columns.updateValue(column, forKey: field) == nil {
            positions[field] = fieldNames.count
            fieldNames.append(field)
            orderedColumns.append(column)
        } else if let i = positions[field] {
            orderedColumns[i] = column
        }
    }

    /// The row of the object with this objectId.
    func row(of objectId: String) -> Int? {
        var id = objectId
        return id.withUTF8 { key in
            objectIds.withBytes { s in lookup.find(key) { s.span(Int($0)) } }
        }.map(Int.init)
    }

    // MARK: - Rows

    /// Adds a row for a new objectId, with every field missing but those a direct load has
    /// already appended the row's value to.
    func appendRow(_ objectId: String) -> Int {
        let row = rowCount
        objectIds.append(.string(objectId))
        objectIds.withBytes { s in lookup.insert(Int32(row)) { s.span(Int($0)) } }
        for column in columns.values where column.rowCount == row { column.append(nil) }
        return row
    }

    /// A row for an objectId that is not filed in the lookup until `fileObjectIds`: the direct
    /// loader files a class's objectIds once its objects are read, hashed a run ahead of their
    /// probes (docs/STORAGE.md#direct-loading), and finds a repeated one only then. The
    /// columns are left as they are: the direct loader brings each up to the class's rows when
    /// it next writes it and when the file is read (docs/STORAGE.md#sparse-fields), so an
    /// object costs the fields it has, not every field of its class.
    func appendRowUnfiled(_ objectId: String) -> Int {
        let row = rowCount
        if unfiledFrom == nil { unfiledFrom = row }
        objectIds.append(.string(objectId))
        return row
    }

    /// Files the rows `appendRowUnfiled` appended; false when one of their objectIds is held
    /// by an earlier row (the lookup is then incomplete).
    func fileObjectIds() -> Bool {
        guard let from = unfiledFrom else { return true }
        unfiledFrom = nil
        let repeated = objectIds.withBytes { s in
            lookup.insertAllIfAbsent(Int32(from)..<Int32(rowCount)) { s.span(Int($0)) }
        }
        return repeated == nil
    }

    /// Room for `rows` more rows in the objectId lookup.
    func reserve(_ rows: Int) {
        objectIds.withBytes { s in lookup.reserve(rowCount + rows) { s.span(Int($0)) } }
    }

    /// Deletes a row's object: its objectId leaves the lookup and its fields become missing
    /// (uncounted in the statistics); the row stays, so no other row moves.
    func removeRow(_ row: Int) {
        objectIds.withBytes { s in lookup.remove(Int32(row)) { s.span(Int($0)) } }
        for column in columns.values { column.clear(row) }
        fieldOrders[row] = nil
        deleted[row] = true
        deletedCount += 1
    }

    /// Notes the order a row's fields were written in (after its columns are set), so that
    /// its record reads back in that order.
    func noteFieldOrder(_ order: [String], row: Int) {
        if Self.holdsFew(order.count, of: fieldNames.count) {
            fieldOrders[row] = order
            return
        }
        // In order when `order` is a subsequence of `fieldNames`: a walk, no hashing, for an
        // object with most of its class's fields; positions for one with few of them (else a
        // class of many sparse fields costs every field per object).
        if order.count * 8 < fieldNames.count {
            var last = -1
            for name in order {
                guard let p = positions[name], p > last else {
                    fieldOrders[row] = order
                    return
                }
                last = p
            }
            if !fieldOrders.isEmpty { fieldOrders[row] = nil }
            return
        }
        var j = 0
        for name in order {
            while j < fieldNames.count, fieldNames[j] != name { j += 1 }
            if j == fieldNames.count {
                fieldOrders[row] = order
                return
            }
            j += 1
        }
        if !fieldOrders.isEmpty { fieldOrders[row] = nil }
    }

    /// Whether a row with `count` of its class's `fields` keeps the list of its fields even in
    /// the class's order: building its record then reads those, not every column of a class of
    /// thousands of sparse fields (docs/STORAGE.md#sparse-fields).
    static func holdsFew(_ count: Int, of fields: Int) -> Bool { count * 64 < fields }

    /// Notes the order of a row's fields known to be out of the class's order, or
    /// `holdsFew` (the direct loader, which tells order by the fields' numbers).
    func setFieldOrder(_ order: [String], row: Int) {
        fieldOrders[row] = order
    }

    /// The object at a row, as a record.
    func record(_ row: Int) -> Record {
        if !fieldOrders.isEmpty, let names = fieldOrders[row] {
            var fields: [(String, Value)] = []
            fields.reserveCapacity(names.count)
            for name in names {
                if let v = columns[name]?.value(at: row) { fields.append((name, v)) }
            }
            return Record(objectId: objectIds.string(at: row), fields: fields)
        }
        // Filled in place, and an object with every field shares `fieldNames` as its order
        // (most objects of a class: no array of names made per record); an order of its own is
        // begun at the first missing field.
        var fields = Record.emptyFields(room: min(fieldNames.count, 64))
        var order: [String]? = nil
        for (i, (name, column)) in zip(fieldNames, orderedColumns).enumerated() {
            if let v = column.value(at: row) {
                fields[name] = v
                order?.append(name)
            } else if order == nil {
                order = Array(fieldNames[..<i])
            }
        }
        return Record(objectId: objectIds.string(at: row), fields: fields, fieldOrder: order ?? fieldNames)
    }

    /// The object at a row with only one of its fields (what an index over a path starting at
    /// that field reads).
    func record(_ row: Int, only field: String) -> Record {
        let v = field == "objectId" ? nil : columns[field]?.value(at: row)
        return Record(objectId: objectIds.string(at: row), fields: v.map { [(field, $0)] } ?? [])
    }

    /// The object at a row with only some of its fields (in no particular order: for
    /// evaluation, not output).
    func record(_ row: Int, only fields: [String]) -> Record {
        var values: [(String, Value)] = []
        for name in fields where name != "objectId" {
            if let v = columns[name]?.value(at: row) { values.append((name, v)) }
        }
        return Record(objectId: objectIds.string(at: row), fields: values)
    }

    /// Heap bytes of the table's columns and lookup, by field (`objectId` includes the lookup).
    var bytesByField: [(String, Int)] {
        [("objectId", objectIds.heapBytes + lookup.bytes)] + fieldNames.map { ($0, columns[$0]?.heapBytes ?? 0) }
    }
}
