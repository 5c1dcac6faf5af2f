import QuarryCore

/// The in-memory store: per class, a typed column per field, and nothing else. The columns
/// are the only copy of the data: records are built from them when results, fallbacks or
/// inner queries read objects. Every change goes through the store so that pointer columns
/// are re-resolved when their target class changes.
final class ColumnStore {
    private(set) var tables: [String: ClassTable] = [:] {
        didSet { tablesGeneration &+= 1 }
    }
    /// Counts changes to `tables`, so that a pointer column's lookup of its target class's
    /// table is made again only when a table was added or replaced (`targets(in:)`).
    private var tablesGeneration = 0
    /// Class names in the order they were first seen.
    private(set) var classNames: [String] = []
    /// Declared indexes, by class.
    private(set) var indexes: [String: IndexRegistry] = [:]
    /// Bumped on every change; plans built for an older version are stale.
    private(set) var version: UInt64 = 0

    /// Copies a database into columns (the store keeps no reference to it).
    init(database: Database) {
        // Every class's objectIds first, so that pointers resolve whatever the class order.
        for name in database.classNames {
            let table = self.table(creating: name)
            let records = database[name]?.records ?? []
            table.reserve(records.count)
            table.objectIds.reserve(records.count)
            for record in records { _ = table.appendRow(record.objectId) }
        }
        for name in database.classNames {
            if let data = database[name], let table = tables[name] { build(data, into: table) }
        }
    }

    /// A copy of the data and its indexes sharing every column's and index's arrays with this
    /// store until one of the two changes them, so that a second replica costs next to nothing
    /// until it is written (docs/ARCHITECTURE.md#concurrency).
    private init(copying other: ColumnStore) {
        classNames = other.classNames
        version = other.version
        tables = other.tables.mapValues { $0.copy(targets: targets(in:)) }
        indexes = other.indexes.mapValues { $0.copy() }
    }

    func copy() -> ColumnStore { ColumnStore(copying: self) }

    func table(_ className: String) -> ClassTable? { tables[className] }

    func table(creating className: String) -> ClassTable {
        if let t = tables[className] { return t }
        let t = ClassTable(name: className)
        tables[className] = t
        classNames.append(className)
        return t
    }

    /// The data as a `Database` of records (a copy built from the columns).
    func snapshot() -> Database {
        Database(
            classNames.compactMap { name in
                tables[name].map { t in ClassData(name: name, records: t.liveRows.map(t.record)) }
            })
    }

    // MARK: - Changes

    /// Adds an object, or replaces the one with the same objectId (keeping its row).
    func insert(_ record: Record, into className: String) {
        version &+= 1
        let table = table(creating: className)
        let existing = table.row(of: record.objectId)
        let before = indexesBeforeChange(className, record.objectId, ownRow: existing)
        if let row = existing {
            for (field, column) in table.columns where record.fields[field] == nil { column.set(row, nil) }
            for field in record.fieldOrder { set(field, record.fields[field], row: row, in: table) }
            table.noteFieldOrder(record.fieldOrder, row: row)
            indexesAfterChange(className, before, .replaced(row: row))
            return
        }
        let row = table.appendRow(record.objectId)
        for field in record.fieldOrder { set(field, record.fields[field], row: row, in: table) }
        table.noteFieldOrder(record.fieldOrder, row: row)
        for column in pointerColumns(targeting: className) {
            column.resolveDangling(objectId: record.objectId, targetRow: row)
        }
        for list in pointerLists(targeting: className) {
            list.resolveDangling(objectId: record.objectId, targetRow: row)
        }
        indexesAfterChange(className, before, .inserted(row: row))
    }

    /// Removes an object; returns whether it existed. Its row stays, empty, so no other row
    /// moves; once deleted rows are more than half of a class, the class is compacted
    /// (docs/STORAGE.md#deletes). Pointer columns that target the class are scanned for
    /// pointers to the object.
    @discardableResult
    func remove(_ objectId: String, from className: String) -> Bool {
        guard let table = tables[className], let row = table.row(of: objectId) else { return false }
        version &+= 1
        let before = indexesBeforeChange(className, objectId, ownRow: row)
        // Before the row goes: pointer lists read the objectIds of the rows they list.
        for column in pointerColumns(targeting: className) { column.targetRemoved(at: row, objectId: objectId) }
        for list in pointerLists(targeting: className) { list.targetRemoved(at: row) }
        table.removeRow(row)
        indexesAfterChange(className, before, .removed(row: row))
        if table.deletedCount >= Self.compactionFloor, table.deletedCount * 2 > table.rowCount { compact(className) }
        return true
    }

    /// Deleted rows a class keeps at least before it is compacted (small classes never are).
    static let compactionFloor = 1024

    /// Rebuilds a class without its deleted rows: objects keep their order and get new rows;
    /// pointers into the class are moved to them and the class's indexes rebuilt. Its cost, a
    /// pass over the class, is paid once per as many deletes as the class has objects.
    func compact(_ className: String) {
        guard let old = tables[className] else { return }
        var moved = [Int32](repeating: PointerColumn.none, count: old.rowCount)
        var records: [Record] = []
        records.reserveCapacity(old.liveCount)
        for row in old.liveRows {
            moved[row] = Int32(records.count)
            records.append(old.record(row))
        }
        let fresh = ClassTable(name: className)
        tables[className] = fresh
        fresh.reserve(records.count)
        fresh.objectIds.reserve(records.count)
        for record in records { _ = fresh.appendRow(record.objectId) }
        build(ClassData(name: className, records: records), into: fresh)
        for table in tables.values where table !== fresh {
            for column in table.columns.values {
                if let pointers = column as? PointerColumn, pointers.targetClass == className {
                    pointers.targetsMoved(moved)
                } else if let lists = column as? PointerListColumn, lists.targetClass == className {
                    lists.targetsMoved(moved)
                }
            }
        }
        guard let registry = indexes[className] else { return }
        let read = rowEntries(className)
        for index in registry.values {
            index.rebuild(rows: fresh.liveRows, fieldValue: Self.fieldValue(fresh, index.path)) { read(index.path, $0) }
        }
        for index in registry.geo {
            index.rebuild(rows: fresh.liveRows, fieldValue: Self.fieldValue(fresh, index.path)) { read(index.path, $0) }
        }
    }

    /// Each registry's entries for the rows an object's change touches, read before it.
    private func indexesBeforeChange(_ className: String, _ objectId: String, ownRow: Int?) -> [String: [IndexRegistry
        .Before]]
    {
        guard !indexes.isEmpty else { return [:] }
        let object = ObjectKey(className: className, objectId: objectId)
        var out: [String: [IndexRegistry.Before]] = [:]
        for (name, registry) in indexes {
            out[name] = registry.before(object, ownRow: name == className ? ownRow : nil, rowEntries(name))
        }
        return out
    }

    private func indexesAfterChange(
        _ className: String, _ before: [String: [IndexRegistry.Before]],
        _ change: IndexRegistry.Change
    ) {
        for (name, registry) in indexes {
            registry.after(before[name] ?? [], name == className ? change : nil, rowEntries(name))
        }
        if case .inserted = change { return }
        if let registry = indexes[className] { exactBounds(className, registry) }
    }

    /// A column's bounds only widen as values come and go; after a replacement or a delete,
    /// an ordered index on the field (one value per row, none from other classes) holds the
    /// exact ones at its ends.
    private func exactBounds(_ className: String, _ registry: IndexRegistry) {
        guard let table = tables[className] else { return }
        for index in registry.values
        where index.kind == .ordered && index.path.count == 1 && !index.multiValued && !index.dependsOnOtherClasses {
            guard let column = table.column(index.path.first) else { continue }
            let bounds = index.bounds
            column.statistics.min = bounds?.min
            column.statistics.max = bounds?.max
        }
    }

    /// What a row of a class reaches at a path, read from the current columns (only the field
    /// the path starts at; later steps go through the store).
    private func rowEntries(_ className: String) -> (FieldPath, Int) -> IndexEntries {
        let table = tables[className], resolver = KeyPathResolver(source: self)
        return { path, row in
            if let table, let column = Self.plainColumn(table, path), let entries = IndexEntries(column.value(at: row))
            {
                return entries
            }
            return IndexEntries(
                table?.record(row, only: path.first) ?? Record(objectId: "", fields: []), path, resolver)
        }
    }

    /// The column a one-field path reads, whose scalar values are their own index entries.
    private static func plainColumn(_ table: ClassTable, _ path: FieldPath) -> Column? {
        path.components.count == 1 && path.first != "objectId" ? table.columns[path.first] : nil
    }

    /// An index build's reader of that column (`ValueIndex.rebuild`); nil for other paths.
    private static func fieldValue(_ table: ClassTable, _ path: FieldPath) -> ((Int) -> Value?)? {
        plainColumn(table, path).map { column in { column.value(at: $0) } }
    }

    // MARK: - Indexes

    /// Declares an index (a no-op when the same one exists) and builds it.
    func createIndex(_ kind: IndexKind, on path: FieldPath, in className: String) {
        createIndexes([(kind, path, className)], threads: 1)
    }

    /// Declares indexes as `createIndex` does, one after another, and builds the new ones side
    /// by side on up to `threads` threads (docs/STORAGE.md#building-an-index): a build reads the
    /// store as a query does and writes only its own index, registered once all are built.
    func createIndexes(_ specs: [(kind: IndexKind, path: FieldPath, className: String)], threads: Int) {
        var builds: [IndexBuild] = []
        for (kind, path, className) in specs {
            guard let table = tables[className] else { continue }
            let registry = indexes[className] ?? IndexRegistry()
            indexes[className] = registry
            let earlier = builds.filter { $0.className == className }
            let index: IndexBuild.Index
            if kind == .geo {
                guard !registry.geo.contains(where: { $0.path == path }),
                    !earlier.contains(where: { $0.isGeo && $0.path == path })
                else { continue }
                index = .geo(GeoIndex(path: path, className: className))
            } else {
                guard !registry.values.contains(where: { $0.kind == kind && $0.path == path }),
                    !earlier.contains(where: { $0.valueKind == kind && $0.path == path })
                else { continue }
                index = .value(ValueIndex(kind: kind, path: path, className: className))
            }
            let read = rowEntries(className)
            builds.append(
                IndexBuild(
                    className: className, path: path, index: index, rows: table.liveRows,
                    fieldValue: Self.fieldValue(table, path), entries: { read(path, $0) }))
        }
        let shared = SharedItems(builds.count), work = IndexBuilds(builds)
        ScanThreads.shared.run(helpers: Swift.min(threads, builds.count) - 1) {
            while let i = shared.take() { work.build(i) }
        }
        for build in builds {
            switch build.index {
            case .geo(let index): indexes[build.className]?.add(index)
            case .value(let index): indexes[build.className]?.add(index)
            }
            version &+= 1
        }
    }

    /// What `createIndex` does, with the index copied from `other`, a store holding the same
    /// data, instead of built (its arrays shared until either store changes them); false, and
    /// nothing done, when `other` has no such index.
    func createIndex(_ kind: IndexKind, on path: FieldPath, in className: String, copying other: ColumnStore) -> Bool {
        guard tables[className] != nil, let source = other.indexes[className] else { return false }
        let geo = kind == .geo ? source.geo.first { $0.path == path } : nil
        let value = kind == .geo ? nil : source.values.first { $0.kind == kind && $0.path == path }
        guard geo != nil || value != nil else { return false }
        let registry = indexes[className] ?? IndexRegistry()
        indexes[className] = registry
        if let geo {
            guard !registry.geo.contains(where: { $0.path == path }) else { return true }
            registry.add(geo.copy())
        } else if let value {
            guard !registry.values.contains(where: { $0.kind == kind && $0.path == path }) else { return true }
            registry.add(value.copy())
        }
        version &+= 1
        return true
    }

    @discardableResult
    func dropIndex(_ kind: IndexKind, on path: FieldPath, in className: String) -> Bool {
        guard let registry = indexes[className], registry.remove(kind: kind, path: path) else { return false }
        version &+= 1
        return true
    }

    /// The value indexes of a class on a path.
    func valueIndexes(_ className: String, _ path: FieldPath) -> [ValueIndex] {
        indexes[className]?.values.filter { $0.path == path } ?? []
    }

    /// The geo index of a class on a path.
    func geoIndex(_ className: String, _ path: FieldPath) -> GeoIndex? {
        indexes[className]?.geo.first { $0.path == path }
    }

    /// Statistics recomputed from the columns (bounds and distinct counts only widen as data
    /// changes; this makes them exact again).
    func refreshStatistics(_ className: String) {
        guard let table = tables[className] else { return }
        for column in table.columns.values { column.refreshStatistics(table.liveRows) }
    }

    // MARK: - Building

    /// Classes of more fields than this count their fields' objects before building columns.
    static let countFirstFields = 64

    private func build(_ data: ClassData, into table: ClassTable) {
        let records = data.records
        // Which fields are sparse is known once they are counted. A wide class counts first, so
        // that no field of it gets a typed column as long as the class; a narrow one counts as
        // it builds each column and makes one found sparse again (at most `countFirstFields`
        // typed columns made in vain, where counting first cost a tenth of building 1M objects
        // of seven fields).
        let countFirst = records.count >= ColumnKind.sparseFloor && data.fieldNames.count > Self.countFirstFields
        var present: [String: Int] = [:]
        if countFirst {
            for record in records { for field in record.fieldOrder { present[field, default: 0] += 1 } }
        }
        // Sparse fields' columns are generic and filled from the records that hold them, in one
        // pass over the records (a pass per field made a class of many fields quadratic).
        var sparse: [String: Column] = [:]
        for field in data.fieldNames {
            guard !countFirst || !ColumnKind.isSparse(present: present[field] ?? 0, rows: records.count) else {
                let column = makeColumn(.generic)
                column.appendMissing(records.count)
                sparse[field] = column
                table.setColumn(column, for: field)
                continue
            }
            let column = makeColumn(initialKind(field, data))
            column.reserve(records.count)
            for record in records { column.append(record.fields[field]) }
            table.setColumn(column, for: field)
            let s = column.statistics, e = (column as? ArrayColumn)?.elements.statistics
            if column.kind != .generic,
                column.misfits * 8 > s.typed || (e.map { $0.others * 8 > $0.typed } ?? false)
                    || ColumnKind.isSparse(present: column.presentCount, rows: records.count)
            {
                rebuild(field, in: table)
            } else {
                column.settle()
            }
        }
        if !sparse.isEmpty {
            for (row, record) in records.enumerated() {
                for field in record.fieldOrder { sparse[field]?.set(row, record.fields[field]) }
            }
            for column in sparse.values { column.settle() }
        }
        table.objectIds.settleDistinct()
        for (row, record) in records.enumerated() { table.noteFieldOrder(record.fieldOrder, row: row) }
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
            return .array(
                of: numbers(
                    head.flatMap { r -> [Value] in
                        if case .array(let items)? = r.fields[field] { return items } else { return [] }
                    }))
        default: return ColumnKind.best(for: data.records.lazy.compactMap { $0.fields[field] })
        }
    }

    func makeColumn(_ kind: ColumnKind) -> Column {
        switch kind {
        case .int, .date: return Int64Column(kind: kind)
        case .double: return DoubleColumn(kind: kind)
        case .string: return StringColumn(kind: kind)
        case .bool: return BoolColumn(kind: kind)
        case .geoPoint: return GeoColumn(kind: kind)
        case .pointer(let target):
            return PointerColumn(targetClass: target, targets: targets(in: target))
        case .array(let element): return ArrayColumn(elements: makeColumn(element))
        case .pointerList(let target):
            return PointerListColumn(targetClass: target, targets: targets(in: target))
        case .generic: return Column(kind: .generic)
        }
    }

    private func targets(in className: String) -> PointerTargets {
        // Resolving is the store's writers' (one at a time), never a reader's: the table found
        // is kept for them (hashing the class name for every pointer a load stores cost its
        // builder thread a percent and a half of its samples).
        let found = TargetTable()
        return PointerTargets(
            row: { [unowned self] id in
                if found.generation != self.tablesGeneration {
                    found.table = self.tables[className]
                    found.generation = self.tablesGeneration
                }
                return found.table?.row(of: id)
            },
            objectId: { [unowned self] row in self.tables[className]?.objectIds.string(at: row) ?? "" })
    }

    /// Stores a field's value; a new field gets a column typed by its first value, and a
    /// column whose values stopped fitting its type is rebuilt with the type that fits best.
    private func set(_ field: String, _ value: Value?, row: Int, in table: ClassTable) {
        guard let column = table.columns[field] else {
            // A new field of a large class starts sparse (docs/STORAGE.md#sparse-fields).
            let sparse = ColumnKind.isSparse(present: 1, rows: table.liveCount)
            let column = makeColumn(sparse ? .generic : value.flatMap(ColumnKind.of) ?? .generic)
            column.appendMissing(table.rowCount)
            table.discountDeleted(column)
            column.set(row, value)
            table.setColumn(column, for: field)
            return
        }
        column.set(row, value)
        let s = column.statistics
        if column.kind != .generic, column.misfits > 64, column.misfits * 8 > s.typed {
            rebuild(field, in: table)
        } else if let sliced = column as? SlicedColumn, sliced.wasteful {
            rebuild(field, in: table)
        } else if column.kind == .generic, value != nil, Self.atDoubling(column.presentCount),
            !ColumnKind.isSparse(present: column.presentCount, rows: table.liveCount),
            Self.bestKind(column) != .generic
        {
            // A generic column is looked at again each time its values double: a sparse field
            // that most objects now hold, or one whose mixed values settled, gets its kind.
            rebuild(field, in: table)
        }
    }

    /// Counts at which a generic column is looked at again: 64, 128, 256, …
    static func atDoubling(_ n: Int) -> Bool { n >= 64 && n & (n - 1) == 0 }

    /// The kind that fits a column's values best (`ColumnKind.best`).
    static func bestKind(_ column: Column) -> ColumnKind {
        ColumnKind.best(for: (0..<column.rowCount).lazy.compactMap { column.value(at: $0) })
    }

    /// A field's column made again with the kind its values call for: generic when the field
    /// is sparse, else the kind most values fit (`ColumnKind.best`). The old column may be
    /// shorter than the class (the direct loader's, docs/STORAGE.md#sparse-fields): the rows
    /// past its end are missing.
    func rebuild(_ field: String, in table: ClassTable) {
        guard let old = table.columns[field] else { return }
        let rows = table.rowCount
        let column: Column
        if ColumnKind.isSparse(present: old.presentCount, rows: table.liveCount) {
            column = makeColumn(.generic)
            column.appendMissing(rows)
            for row in 0..<old.rowCount where old.slots[row] != Slot.missing.rawValue {
                column.set(row, old.value(at: row))
            }
        } else {
            let values = (0..<rows).map { $0 < old.rowCount ? old.value(at: $0) : nil }
            column = makeColumn(ColumnKind.best(for: values.lazy.compactMap { $0 }))
            column.reserve(values.count)
            for v in values { column.append(v) }
        }
        table.discountDeleted(column)
        column.settle()
        table.setColumn(column, for: field)
    }

    private func pointerColumns(targeting className: String) -> [PointerColumn] {
        tables.values.flatMap {
            $0.columns.values.compactMap { ($0 as? PointerColumn).flatMap { $0.targetClass == className ? $0 : nil } }
        }
    }

    private func pointerLists(targeting className: String) -> [PointerListColumn] {
        tables.values.flatMap {
            $0.columns.values.compactMap {
                ($0 as? PointerListColumn).flatMap { $0.targetClass == className ? $0 : nil }
            }
        }
    }
}

extension ColumnStore: RecordSource {
    func hasClass(_ className: String) -> Bool { tables[className] != nil }

    func resolve(_ p: Pointer) -> Record? {
        guard let table = tables[p.className], let row = table.row(of: p.objectId) else { return nil }
        return table.record(row)
    }

    func field(_ name: String, of p: Pointer) -> Value? {
        guard let table = tables[p.className], let row = table.row(of: p.objectId) else { return nil }
        return table.column(name)?.value(at: row)
    }

    func contains(_ p: Pointer) -> Bool { tables[p.className]?.row(of: p.objectId) != nil }

    /// Rows, deleted ones included: a position is a row.
    func objectCount(in className: String) -> Int { tables[className]?.rowCount ?? 0 }

    func record(at position: Int, in className: String) -> Record? {
        guard let table = tables[className], table.isLive(position) else { return nil }
        return table.record(position)
    }
}

/// The target class's table a pointer column resolved into last, and the `tables` generation
/// it was found at. Not retained: while the generation is the store's, `tables` holds it; a
/// replaced table is not kept alive here.
private final class TargetTable {
    var generation = -1
    unowned(unsafe) var table: ClassTable?
}

/// One index to build: what it is built from.
private struct IndexBuild {
    enum Index {
        case value(ValueIndex)
        case geo(GeoIndex)
    }
    let className: String
    let path: FieldPath
    let index: Index
    let rows: LazyFilterSequence<Range<Int>>
    let fieldValue: ((Int) -> Value?)?
    let entries: (Int) -> IndexEntries

    var isGeo: Bool { if case .geo = index { return true } else { return false } }
    var valueKind: IndexKind? { if case .value(let v) = index { return v.kind } else { return nil } }
}

/// The builds of one `createIndexes`, each taken by one scan thread. Sendable by hand: every
/// build reads the store, which nothing writes meanwhile, and writes its own index only.
private final class IndexBuilds: @unchecked Sendable {
    private let builds: [IndexBuild]
    init(_ builds: [IndexBuild]) { self.builds = builds }

    func build(_ i: Int) {
        let b = builds[i]
        switch b.index {
        case .geo(let index): index.rebuild(rows: b.rows, fieldValue: b.fieldValue, b.entries)
        case .value(let index): index.rebuild(rows: b.rows, fieldValue: b.fieldValue, b.entries)
        }
    }
}
