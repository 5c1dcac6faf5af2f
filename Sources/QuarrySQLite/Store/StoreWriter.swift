import GRDB
import Quarry
import QuarryCore

/// Saves and deletes inside the writer's transaction, keeping each class's typed columns in
/// step with its catalog kinds (docs/STORAGE.md).
struct StoreWriter {
    var catalog: StoreCatalog
    let db: GRDB.Database
    /// Each class's insert and update for its columns, and its delete.
    private var upserts: [String: Upsert] = [:]
    private var deletes: [String: SQLiteStatement] = [:]

    private struct Upsert {
        /// The fields with columns the statements bind.
        let columns: Int
        let insert: SQLiteStatement
        var update: SQLiteStatement?
        /// Each field's first parameter; 0 for a field without columns.
        var parameters: [Int32]
    }
    /// The document being written, its storage reused from row to row.
    private var document: [UInt8] = []
    /// The saved object's values beside their fields' positions, reused from row to row.
    private var placed: [(Int, Value)] = []

    init(catalog: StoreCatalog, db: GRDB.Database) {
        self.catalog = catalog
        self.db = db
    }

    /// Inserts the object, or replaces the one with its objectId in place (same `seq`, so
    /// insertion order is kept).
    mutating func save(_ record: QuarryCore.Record, in className: String) throws {
        var c = try catalog.ensureClass(className, db)
        // Each value beside its field's position in `c.fields`, so that binding reads no
        // dictionary (the import's hot path, docs/STORAGE.md#writes).
        placed.removeAll(keepingCapacity: true)
        document.removeAll(keepingCapacity: true)
        var created: Value?
        var updated: Value?
        for name in record.fieldOrder {
            guard let value = record.fields[name] else { continue }
            if name == "createdAt" { created = value } else if name == "updatedAt" { updated = value }
            let at: Int
            if let known = c.position(name) {
                at = known
            } else {
                c = Self.released(c)
                _ = try catalog.ensureField(name, in: className, db)
                c = catalog.classes[className]!
                at = c.fields.count - 1  // ensureField appends the new field
            }
            let before = c.fields[at]
            var field = before
            // Most values are of their field's kind already: compared first, they are not merged.
            if let k = SQLiteColumnKind.of(value), field.kind != k {
                field.kind = field.kind.map { $0.merged(with: k) } ?? k
            }
            if !SQLiteColumnKind.exactInReal(value) { field.largeInts = true }
            if value.holdsNUL { field.nulStrings = true }
            // Merged as `ClassData` merges types, so the schema reads as the same objects' would.
            if let t = FieldType.of(value) { field.type = field.type.map { $0 == t ? $0 : $0.merged(with: t) } ?? t }
            if field.kind != before.kind || field.flags != before.flags || field.type != before.type {
                c = Self.released(c)
                try catalog.update(field, in: className, db)
                c = catalog.classes[className]!
                // Integers in a field that now also holds doubles are stored as REAL, as the
                // peer stores them; no other change of kind changes a stored value.
                if before.kind == .integer, field.kind == .real { try rewrite(field, of: c) }
            }
            placed.append((at, value))
        }
        let upsert = try self.upsert(c)
        try bind(upsert.insert, record, created, updated, placed, c, upsert.parameters)
        try upsert.insert.run()
        guard db.changesCount == 0 else { return }
        // The objectId is taken: the object is replaced in place (its seq kept).
        let update = try replacement(c)
        try bind(update, record, created, updated, placed, c, upsert.parameters)
        try update.run()
    }

    /// An empty stand-in for the writer's copy of a class, taken before the catalog changes the
    /// class, so that it changes it in place: while the copy shares the class's fields, adding
    /// one copied them all (quadratic in a class of thousands of fields).
    private static func released(_ c: StoreCatalog.Class) -> StoreCatalog.Class {
        StoreCatalog.Class(id: c.id, name: c.name, indexes: [])
    }

    /// Binds an object to the class's insert or update: objectId, dates, document, and each
    /// field's columns (fields this object lacks are NULL).
    private mutating func bind(
        _ statement: SQLiteStatement, _ record: QuarryCore.Record, _ created: Value?, _ updated: Value?,
        _ placed: [(Int, Value)], _ c: StoreCatalog.Class, _ parameters: [Int32]
    ) throws {
        statement.clearBindings()
        if document.isEmpty { StoredRecordCodec.write(record, to: &document) }
        statement.bind(1, .text(record.objectId))
        statement.bind(2, Self.millis(created))
        statement.bind(3, Self.millis(updated))
        document.withUnsafeBufferPointer { statement.bind(4, utf8: $0) }
        for (at, value) in placed {
            // A document-only field has no columns (docs/STORAGE.md#tables).
            let p = parameters[at]
            guard p > 0 else { continue }
            let (a, b) = Self.columns(value, c.fields[at].kind)
            statement.bind(p, a)
            statement.bind(p + 1, b)
        }
    }

    /// The class's insert for its current columns, prepared once for each set of columns (the
    /// hot path of an import, docs/STORAGE.md#writes), with each field's first parameter (0 for
    /// a field without columns). An insert, not an upsert: SQLite's authorizer reports every
    /// column of an upsert's `DO UPDATE SET`, which GRDB's authorizer gathers in time quadratic
    /// in the columns (minutes for a class of a thousand fields); the update that replaces an
    /// object is prepared only when one is replaced.
    private mutating func upsert(_ c: StoreCatalog.Class) throws -> Upsert {
        if var known = upserts[c.name], known.columns == c.withColumns {
            // Fields added since, if any, live in the document only: no parameters.
            guard known.parameters.count < c.fields.count else { return known }
            known.parameters += [Int32](repeating: 0, count: c.fields.count - known.parameters.count)
            upserts[c.name] = known
            return known
        }
        var parameters: [Int32] = [], next: Int32 = 5
        for field in c.fields {
            parameters.append(field.hasColumns ? next : 0)
            if field.hasColumns { next += 2 }
        }
        // Every column in the table's order (seq, objectId, createdAt, updatedAt, doc, then each
        // field's pair by number), unnamed: SQLite looks up named columns and numbered
        // parameters one by one, in time quadratic in a wide table's columns.
        let placeholders = Array(repeating: "?", count: Self.columns(of: c).count).joined(separator: ", ")
        let insert = try db.prepared(
            "INSERT INTO \(c.table) VALUES (NULL, \(placeholders)) ON CONFLICT (objectId) DO NOTHING", [])
        let made = Upsert(columns: c.withColumns, insert: insert, update: nil, parameters: parameters)
        upserts[c.name] = made
        return made
    }

    /// The class's update of an object by objectId, with the parameters of its insert; the
    /// seq (insertion order) stays.
    private mutating func replacement(_ c: StoreCatalog.Class) throws -> SQLiteStatement {
        if let update = upserts[c.name]?.update { return update }
        let columns = Self.columns(of: c)
        let sets = columns.enumerated().dropFirst().map { "\($1) = ?\($0 + 1)" }.joined(separator: ", ")
        let update = try db.prepared("UPDATE \(c.table) SET \(sets) WHERE objectId = ?1", [])
        upserts[c.name]?.update = update
        return update
    }

    private static func columns(of c: StoreCatalog.Class) -> [String] {
        ["objectId", "createdAt", "updatedAt", "doc"]
            + c.fields.filter(\.hasColumns).flatMap { ["f\($0.number)", "g\($0.number)"] }
    }

    /// Removes the object; returns whether it was there.
    @discardableResult
    mutating func delete(_ objectId: String, from className: String) throws -> Bool {
        guard let c = catalog.classes[className] else { return false }
        let statement: SQLiteStatement
        if let known = deletes[c.name] {
            statement = known
        } else {
            statement = try db.prepared("DELETE FROM \(c.table) WHERE objectId = ?1", [])
            deletes[c.name] = statement
        }
        statement.bind(1, .text(objectId))
        try statement.run()
        return db.changesCount > 0
    }

    /// Re-encodes one field's columns of every row from the documents.
    private func rewrite(_ field: StoreCatalog.Field, of c: StoreCatalog.Class) throws {
        var rows: [(Int64, String, String)] = []
        try db.each("SELECT seq, objectId, doc FROM \(c.table)") {
            rows.append(($0.int64(0), $0.string(1), $0.string(2)))
        }
        for (seq, objectId, doc) in rows {
            let record = try StoredRecordCodec.decode(doc, objectId: objectId, corruption: .store.corrupt)
            let (a, b) = Self.columns(record.fields[field.name], field.kind)
            try db.run(
                "UPDATE \(c.table) SET f\(field.number) = ?1, g\(field.number) = ?2 WHERE seq = ?3", [a, b, .int(seq)])
        }
    }

    private static func millis(_ v: Value?) -> SQLiteBinding? {
        if case .date(let ms)? = v { return .int(ms) }
        return nil
    }

    /// A value's two columns under the field's kind, encoded as the peer encodes them
    /// (`SQLiteColumnKind`): the value (or latitude), and a geo point's longitude.
    static func columns(_ v: Value?, _ kind: SQLiteColumnKind?) -> (SQLiteBinding?, SQLiteBinding?) {
        guard let v, let kind else { return (nil, nil) }
        switch (kind, v) {
        case (.unsupported, _): return (nil, nil)
        case (.geoPoint, .geoPoint(let p)): return (.double(p.latitude), .double(p.longitude))
        case (_, .int(let i)): return (kind == .real ? .double(Double(i)) : .int(i), nil)
        case (_, .double(let d)): return (.double(d), nil)
        case (_, .string(let s)): return (.text(s), nil)
        case (_, .date(let ms)): return (.int(ms), nil)
        case (_, .bool(let b)): return (.int(b ? 1 : 0), nil)
        case (_, .pointer(let p)): return (.text(p.objectId), nil)
        case (_, .array), (_, .relation): return (.text(SQLiteJSONArray.text(v)), nil)
        default: return (nil, nil)
        }
    }
}
