import QuarryCore

/// The in-memory store: the database (the records, which results and fallbacks read) and, per
/// class, a typed column per field. Every change goes through the store so that the two stay
/// in step, with pointer columns re-resolved when their target class changes.
final class ColumnStore {
    private(set) var database: Database
    private(set) var tables: [String: ClassTable] = [:]
    /// Declared indexes, by class.
    private(set) var indexes: [String: IndexRegistry] = [:]
    /// Bumped on every change; plans built for an older version are stale.
    private(set) var version: UInt64 = 0

    init(database: Database) {
        self.database = database
        for name in database.classNames { tables[name] = ClassTable(name: name) }
        for name in database.classNames { build(name) }
    }

    func table(_ className: String) -> ClassTable? { tables[className] }

    /// The records of a class, in row order.
    func records(_ className: String) -> [Record] { database[className]?.records ?? [] }

    // MARK: - Changes

    /// Adds an object, or replaces the one with the same objectId (keeping its row).
    func insert(_ record: Record, into className: String) {
        version &+= 1
        let existing = database[className]?.positionById[record.objectId]
        let before = indexesBeforeChange(className, record.objectId, ownRow: existing)
        database.insert(record, into: className)
        defer {
            let row = existing ?? (tables[className]?.rowCount ?? 1) - 1
            indexesAfterChange(className, before, existing == nil ? .inserted(row: row) : .replaced(row: row))
        }
        let table = tables[className] ?? {
            let t = ClassTable(name: className)
            tables[className] = t
            return t
        }()
        if let row = existing {
            for (field, column) in table.columns where record.fields[field] == nil { column.set(row, nil) }
            for field in record.fieldOrder { set(field, record.fields[field], row: row, in: table) }
            return
        }
        let row = table.rowCount
        table.objectIds.append(.string(record.objectId))
        for column in table.columns.values { column.append(nil) }
        for field in record.fieldOrder { set(field, record.fields[field], row: row, in: table) }
        for column in pointerColumns(targeting: className) {
            column.resolveDangling(objectId: record.objectId, targetRow: row) { pointer(column, $0) }
        }
        for (list, field, owner) in pointerLists(targeting: className) {
            let records = database[owner]?.records ?? []
            list.resolveDangling(objectId: record.objectId, targetRow: row) { r in
                records[r].fields[field].flatMap(list.listedIds)
            }
        }
    }

    /// Removes an object; returns whether it existed. Rows after it move up by one, so this
    /// costs a pass over the class's columns and over the pointer columns that target it.
    @discardableResult
    func remove(_ objectId: String, from className: String) -> Bool {
        guard let table = tables[className], let row = database[className]?.positionById[objectId] else { return false }
        let before = indexesBeforeChange(className, objectId, ownRow: row)
        database.remove(objectId, from: className)
        version &+= 1
        defer { indexesAfterChange(className, before, .removed(row: row)) }
        table.objectIds.remove(row)
        for column in table.columns.values { column.remove(row) }
        for column in pointerColumns(targeting: className) { column.targetRemoved(at: row) }
        for (list, _, _) in pointerLists(targeting: className) { list.targetRemoved(at: row) }
        return true
    }

    /// Each registry's entries for the rows an object's change touches, read before it.
    private func indexesBeforeChange(_ className: String, _ objectId: String, ownRow: Int?) -> [String: [IndexRegistry.Before]] {
        let object = ObjectKey(className: className, objectId: objectId)
        var out: [String: [IndexRegistry.Before]] = [:]
        for (name, registry) in indexes {
            out[name] = registry.before(object, ownRow: name == className ? ownRow : nil, rowEntries(name))
        }
        return out
    }

    private func indexesAfterChange(_ className: String, _ before: [String: [IndexRegistry.Before]],
                                    _ change: IndexRegistry.Change) {
        for (name, registry) in indexes {
            registry.after(before[name] ?? [], name == className ? change : nil, rowEntries(name))
        }
        if case .inserted = change { return }
        if let registry = indexes[className] { exactBounds(className, registry) }
    }

    /// What a row of a class reaches at a path, read from the current data.
    private func rowEntries(_ className: String) -> (KeyPath, Int) -> IndexEntries {
        let records = records(className), resolver = KeyPathResolver(database: database)
        return { IndexEntries(records[$1], $0, resolver) }
    }

    /// A column's bounds only widen as values come and go; after a replacement or a delete,
    /// an ordered index on the field (one value per row, none from other classes) holds the
    /// exact ones at its ends.
    private func exactBounds(_ className: String, _ registry: IndexRegistry) {
        guard let table = tables[className] else { return }
        for index in registry.values where index.kind == .ordered && index.path.count == 1 && !index.multiValued && !index.dependsOnOtherClasses
        {
            guard let column = table.column(index.path.first) else { continue }
            let bounds = index.bounds
            column.statistics.min = bounds?.min
            column.statistics.max = bounds?.max
        }
    }

    // MARK: - Indexes

    /// Declares an index (a no-op when the same one exists) and builds it.
    func createIndex(_ kind: IndexKind, on path: KeyPath, in className: String) {
        let registry = indexes[className] ?? IndexRegistry()
        indexes[className] = registry
        let rowCount = records(className).count, read = rowEntries(className)
        let entries = { (row: Int) in read(path, row) }
        switch kind {
        case .geo:
            guard !registry.geo.contains(where: { $0.path == path }) else { return }
            let index = GeoIndex(path: path, className: className)
            index.rebuild(rowCount: rowCount, entries)
            registry.add(index)
        case .hash, .ordered:
            guard !registry.values.contains(where: { $0.kind == kind && $0.path == path }) else { return }
            let index = ValueIndex(kind: kind, path: path, className: className)
            index.rebuild(rowCount: rowCount, entries)
            registry.add(index)
        }
        version &+= 1
    }

    @discardableResult
    func dropIndex(_ kind: IndexKind, on path: KeyPath, in className: String) -> Bool {
        guard let registry = indexes[className], registry.remove(kind: kind, path: path) else { return false }
        version &+= 1
        return true
    }

    /// The value indexes of a class on a path.
    func valueIndexes(_ className: String, _ path: KeyPath) -> [ValueIndex] {
        indexes[className]?.values.filter { $0.path == path } ?? []
    }

    /// The geo index of a class on a path.
    func geoIndex(_ className: String, _ path: KeyPath) -> GeoIndex? {
        indexes[className]?.geo.first { $0.path == path }
    }

    /// Statistics recomputed from the records (bounds and distinct counts only widen as data
    /// changes; this makes them exact again).
    func refreshStatistics(_ className: String) {
        guard let table = tables[className] else { return }
        let records = records(className)
        for (field, column) in table.columns { column.refreshStatistics { records[$0][field] } }
    }

    // MARK: - Building

    private func build(_ className: String) {
        guard let table = tables[className], let data = database[className] else { return }
        let records = data.records
        table.objectIds.slots.reserveCapacity(records.count)
        for record in records { table.objectIds.append(.string(record.objectId)) }
        for field in data.fieldNames {
            let column = makeColumn(initialKind(field, data))
            column.slots.reserveCapacity(records.count)
            for record in records { column.append(record.fields[field]) }
            table.setColumn(column, for: field)
            let s = column.statistics, e = (column as? ArrayColumn)?.elements.statistics
            if column.kind != .generic, s.others * 8 > s.typed || (e.map { $0.others * 8 > $0.typed } ?? false) {
                rebuild(field, in: table)
            }
        }
    }

    /// A column kind for a field without a pass over every value when the class's field
    /// types already tell (one type throughout); numbers look at a few values to choose
    /// between int and double. A wrong guess shows as `other` values, and the column is
    /// then rebuilt with `ColumnKind.best`.
    private func initialKind(_ field: String, _ data: ClassData) -> ColumnKind {
        /// Int or double, from the numbers among the first values.
        func numbers(_ sample: [Value]) -> ColumnKind {
            sample.contains { if case .double = $0 { return true } else { return false } } ? .double : .int
        }
        let head = data.records.prefix(64)
        switch data.fieldTypes[field] {
        case .string?: return .string
        case .date?: return .date
        case .bool?: return .bool
        case .geoPoint?: return .geoPoint
        case .pointer(let c)?: return .pointer(to: c)
        case .number?: return numbers(head.compactMap { $0.fields[field] })
        case .array(.string?)?: return .array(of: .string)
        case .array(.date?)?: return .array(of: .date)
        case .array(.bool?)?: return .array(of: .bool)
        case .array(.number?)?:
            return .array(of: numbers(head.flatMap { r -> [Value] in
                if case .array(let items)? = r.fields[field] { return items } else { return [] }
            }))
        default: return ColumnKind.best(for: data.records.lazy.compactMap { $0.fields[field] })
        }
    }

    private func makeColumn(_ kind: ColumnKind) -> Column {
        switch kind {
        case .int, .date: return Int64Column(kind: kind)
        case .double: return DoubleColumn(kind: kind)
        case .string: return StringColumn(kind: kind)
        case .bool: return BoolColumn(kind: kind)
        case .geoPoint: return GeoColumn(kind: kind)
        case .pointer(let target):
            return PointerColumn(targetClass: target) { [unowned self] id in
                self.database[target]?.positionById[id]
            }
        case .array(let element): return ArrayColumn(elements: makeColumn(element))
        case .pointerList(let target):
            return PointerListColumn(targetClass: target) { [unowned self] id in
                self.database[target]?.positionById[id]
            }
        case .generic: return Column(kind: .generic)
        }
    }

    /// Stores a field's value; a new field gets a column typed by its first value, and a
    /// column whose values stopped fitting its type is rebuilt with the type that fits best.
    private func set(_ field: String, _ value: Value?, row: Int, in table: ClassTable) {
        guard let column = table.columns[field] else {
            let column = makeColumn(value.flatMap(ColumnKind.of) ?? .generic)
            for _ in 0..<table.rowCount { column.append(nil) }
            column.set(row, value)
            table.setColumn(column, for: field)
            return
        }
        column.set(row, value)
        let s = column.statistics
        if column.kind != .generic, s.others > 64, s.others * 8 > s.typed {
            rebuild(field, in: table)
        } else if let arrays = column as? ArrayColumn, arrays.wasteful {
            rebuild(field, in: table)
        } else if let lists = column as? PointerListColumn, lists.wasteful {
            rebuild(field, in: table)
        }
    }

    private func rebuild(_ field: String, in table: ClassTable) {
        let records = records(table.name)
        let column = makeColumn(ColumnKind.best(for: records.lazy.compactMap { $0.fields[field] }))
        for record in records { column.append(record.fields[field]) }
        table.setColumn(column, for: field)
    }

    private func pointerColumns(targeting className: String) -> [PointerColumn] {
        tables.values.flatMap { $0.columns.values.compactMap { ($0 as? PointerColumn).flatMap { $0.targetClass == className ? $0 : nil } } }
    }

    /// Pointer-list columns into a class, with their field and the class that holds them.
    private func pointerLists(targeting className: String) -> [(PointerListColumn, String, String)] {
        tables.values.flatMap { table in
            table.columns.compactMap { field, column in
                (column as? PointerListColumn).flatMap { $0.targetClass == className ? ($0, field, table.name) : nil }
            }
        }
    }

    /// The pointer a pointer column's row holds, read from its record.
    private func pointer(_ column: PointerColumn, _ row: Int) -> Pointer? {
        for table in tables.values {
            guard let (field, _) = table.columns.first(where: { $0.value === column }) else { continue }
            guard case .pointer(let p)? = database[table.name]?.records[row].fields[field] else { return nil }
            return p
        }
        return nil
    }
}
