import CSQLite
import Foundation
import GRDB
import Quarry
import QuarryStoreSupport

/// What the SQLite store knows about its classes, kept in the file beside the data
/// (docs/STORAGE.md): each class's table (`c<id>`), each field's column number and kind (the
/// merge of every value ever written there, as the peer decides kinds, so every stored value
/// fits the kind; deletes do not narrow it), and the declared indexes. Every change to it
/// counts up `quarry_catalog_version`, which a reader checks in its own snapshot to reuse the
/// catalog read before (`CatalogCache`).
struct StoreCatalog {
    struct Field: CatalogField {
        let name: String
        let number: Int
        var kind: SQLiteColumnKind?
        /// Some value was an integer beyond 2^53, which a REAL column would round.
        var largeInts: Bool
        /// Some value held a string with a NUL (`SQLiteTable.nulFields`).
        var nulStrings: Bool
        /// The field's type as a `Database` of the same objects would report it (`Schema`).
        var type: FieldType?

        /// The catalog's `flags` column.
        var flags: Int64 { (largeInts ? 1 : 0) | (nulStrings ? 2 : 0) }

        /// Whether the field has its column pair; a field past the table's columns lives in
        /// the document only (docs/STORAGE.md#tables).
        var hasColumns: Bool { number < StoreCatalog.documentOnlyNumbers }
    }

    /// Numbers from here on name fields without columns, so that they sort after every field
    /// with columns.
    static let documentOnlyNumbers = 1 << 40

    /// Why a document-only field's tests are left to Quarry (its kind in the catalog).
    static let documentOnlyReason =
        "the class has more fields than a SQLite table has columns, so this one lives in the document only"

    struct Class {
        let id: Int64
        let name: String
        private(set) var list = CatalogFields<Field>()
        /// The fields with columns, and the highest of their numbers.
        private(set) var withColumns = 0
        private(set) var lastColumnNumber = 0
        var indexes: [IndexDeclaration]
        var table: String { "c\(id)" }
        var fields: [Field] { list.all }
        var lastNumber: Int { list.lastNumber }

        init(id: Int64, name: String, indexes: [IndexDeclaration]) {
            self.id = id
            self.name = name
            self.indexes = indexes
        }

        func position(_ name: String) -> Int? { list.position(name) }
        func field(_ name: String) -> Field? { list.field(name) }

        mutating func append(_ field: Field) {
            list.append(field)
            if field.hasColumns {
                withColumns += 1
                lastColumnNumber = max(lastColumnNumber, field.number)
            }
        }

        mutating func replace(_ field: Field) { list.replace(field) }
    }

    private(set) var classes: [String: Class] = [:]
    /// Class names in the order they were created.
    private(set) var classNames: [String] = []

    static let schema = [
        "CREATE TABLE IF NOT EXISTS quarry_classes (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
        """
        CREATE TABLE IF NOT EXISTS quarry_fields (class INTEGER NOT NULL, name TEXT NOT NULL, number INTEGER NOT NULL,
            kind TEXT, flags INTEGER NOT NULL DEFAULT 0, type TEXT, PRIMARY KEY (class, name))
        """,
        """
        CREATE TABLE IF NOT EXISTS quarry_indexes (class INTEGER NOT NULL, key TEXT NOT NULL, kind TEXT NOT NULL,
            PRIMARY KEY (class, key, kind))
        """,
        "CREATE TABLE IF NOT EXISTS quarry_catalog_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
        "INSERT INTO quarry_catalog_version (id, version) VALUES (1, 0) ON CONFLICT DO NOTHING",
    ]

    /// What a read transaction compiles its query against, kept between transactions.
    struct Read {
        let catalog: StoreCatalog
        let tables: [String: SQLiteTable]
    }

    /// The catalog as `db`'s read transaction sees it, from `cache` when its version is the
    /// one kept there.
    static func read(_ db: some StoreConnection, _ statements: StatementCache, _ cache: CatalogCache<Read>) throws
        -> Read
    {
        var version: Int64 = -1
        try statements.each(db, "SELECT version FROM quarry_catalog_version") { version = $0.int64(0) }
        return try cache.catalog(version: version) {
            let catalog = try load(db)
            return Read(catalog: catalog, tables: catalog.sqliteTables)
        }
    }

    /// Counts the catalog's version up, inside the transaction that changes it.
    private static func changed(_ db: GRDB.Database) throws {
        try db.run("UPDATE quarry_catalog_version SET version = version + 1")
    }

    static func load(_ db: some StoreConnection) throws -> StoreCatalog {
        var catalog = StoreCatalog()
        var byId: [Int64: String] = [:]
        try db.each("SELECT id, name FROM quarry_classes ORDER BY id") { row in
            let name = row.string(1)
            catalog.classes[name] = Class(id: row.int64(0), name: name, indexes: [])
            catalog.classNames.append(name)
            byId[row.int64(0)] = name
        }
        try db.each("SELECT class, name, number, kind, flags, type FROM quarry_fields ORDER BY class, number") { row in
            guard let className = byId[row.int64(0)] else { return }
            catalog.classes[className]?.append(
                Field(
                    name: row.string(1), number: Int(row.int64(2)),
                    kind: row.text(3).flatMap(SQLiteColumnKind.init(storedText:)),
                    largeInts: row.int64(4) & 1 != 0, nulStrings: row.int64(4) & 2 != 0,
                    type: row.text(5).flatMap(FieldTypeCache.shared.type)))
        }
        try db.each("SELECT class, key, kind FROM quarry_indexes ORDER BY rowid") { row in
            // The key's components as a JSON array: a field name may hold a dot.
            guard let className = byId[row.int64(0)], let kind = IndexKind(rawValue: row.string(2)),
                case .array(let parts)? = try? JSONParser().parse(row.string(1))
            else { return }
            let components = parts.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
            catalog.classes[className]?.indexes.append(IndexDeclaration(kind: kind, key: FieldPath(components)))
        }
        return catalog
    }

    /// The class, created (catalog row and table) when it is new.
    mutating func ensureClass(_ name: String, _ db: GRDB.Database) throws -> Class {
        if let c = classes[name] { return c }
        try db.run("INSERT INTO quarry_classes (name) VALUES (?1)", [.text(name)])
        let c = Class(id: db.lastInsertedRowID, name: name, indexes: [])
        try Self.changed(db)
        // seq is the rowid: insertion order, kept by VACUUM and by replacement in place.
        try db.run(
            """
            CREATE TABLE \(c.table) (seq INTEGER PRIMARY KEY, objectId TEXT NOT NULL UNIQUE,
                createdAt INTEGER, updatedAt INTEGER, doc TEXT NOT NULL)
            """)
        classes[name] = c
        classNames.append(name)
        return c
    }

    /// The field, given a column pair of its own (`f<n>`, `g<n>`, no declared type, so values
    /// keep the storage class they were bound with) when it is new. Once the class's table has
    /// as many columns as SQLite allows a table (`SQLITE_LIMIT_COLUMN`, 2,000 by default: 997
    /// fields), a new field lives in the document only: its kind is unsupported, so every test
    /// of it is left to Quarry.
    mutating func ensureField(_ name: String, in className: String, _ db: GRDB.Database) throws -> Field {
        guard let known = classes[className] else { preconditionFailure("ensureClass first") }
        if let f = known.field(name) { return f }
        let (id, table, withColumns) = (known.id, known.table, known.withColumns)
        let (lastColumnNumber, lastNumber) = (known.lastColumnNumber, known.lastNumber)
        let number: Int
        var kind: SQLiteColumnKind? = nil
        if withColumns < Self.fieldsWithColumns(db) {
            number = lastColumnNumber + 1
            try db.run("ALTER TABLE \(table) ADD COLUMN f\(number)")
            try db.run("ALTER TABLE \(table) ADD COLUMN g\(number)")
        } else {
            number = max(lastNumber, Self.documentOnlyNumbers - 1) + 1
            kind = .unsupported(reason: Self.documentOnlyReason)
        }
        try db.run(
            "INSERT INTO quarry_fields (class, name, number, kind) VALUES (?1, ?2, ?3, ?4)",
            [.int(id), .text(name), .int(Int64(number)), kind.map { .text($0.storedText) }])
        try Self.changed(db)
        let f = Field(name: name, number: number, kind: kind, largeInts: false, nulStrings: false, type: nil)
        // In place: a copy of the class would copy its fields, each time one is added.
        classes[className]!.append(f)
        return f
    }

    /// Fields a class's table has room for: SQLite's column limit less the five fixed columns,
    /// two columns a field.
    static func fieldsWithColumns(_ db: GRDB.Database) -> Int {
        let limit = db.sqliteConnection.map { Int(sqlite3_limit($0, SQLITE_LIMIT_COLUMN, -1)) } ?? 2000
        return (limit - 5) / 2
    }

    mutating func update(_ field: Field, in className: String, _ db: GRDB.Database) throws {
        guard let id = classes[className]?.id else { return }
        classes[className]!.replace(field)
        let type = try field.type.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try db.run(
            "UPDATE quarry_fields SET kind = ?1, flags = ?2, type = ?3 WHERE class = ?4 AND name = ?5",
            [
                field.kind.map { .text($0.storedText) }, .int(field.flags), type.map { .text($0) }, .int(id),
                .text(field.name),
            ])
        try Self.changed(db)
    }

    mutating func addIndex(_ index: IndexDeclaration, to className: String, _ db: GRDB.Database) throws {
        guard var c = classes[className], !c.indexes.contains(index) else { return }
        try db.run(
            "INSERT INTO quarry_indexes (class, key, kind) VALUES (?1, ?2, ?3)",
            [
                .int(c.id), .text(JSONWriter.string(.array(index.key.components.map { .string($0) }))),
                .text(index.kind.rawValue),
            ])
        try Self.changed(db)
        c.indexes.append(index)
        classes[className] = c
    }

    /// The tables the translator compiles against, each field with the kind it may be
    /// pushed down as.
    var sqliteTables: [String: SQLiteTable] {
        var out: [String: SQLiteTable] = [:]
        for c in classes.values {
            var kinds: [String: SQLiteColumnKind] = [:]
            for f in c.fields { kinds[f.name] = Self.pushdownKind(f) }
            out[c.name] = SQLiteTable(
                className: c.name, name: c.table, fields: c.fields.map(\.name), kinds: kinds,
                nulFields: Set(c.fields.filter(\.nulStrings).map(\.name)),
                columnNumbers: Dictionary(
                    uniqueKeysWithValues: c.fields.filter(\.hasColumns).map { ($0.name, $0.number) }))
        }
        return out
    }

    /// What the front-ends ask while they compile a query against the store.
    var schema: StoreSchema {
        var classes: [String: [(String, FieldType?)]] = [:]
        for c in self.classes.values { classes[c.name] = c.fields.map { ($0.name, $0.type) } }
        return StoreSchema(classNames: classNames, fields: classes)
    }

    /// Whether a key path of a class may reach a date (a path through a pointer: assume so).
    func mayReachDate(_ path: FieldPath, in className: String) -> Bool {
        guard path.count == 1 else { return true }
        guard path.first != "objectId", let field = classes[className]?.field(path.first) else { return false }
        switch field.kind {
        case nil, .integer?, .real?, .text?, .bool?, .geoPoint?, .pointer?: return false
        case .array(let element)?: return element == .date
        case .date?, .unsupported?: return true
        }
    }

    /// The kind the translator may use. Pointers are pushed down as their identities
    /// (docs/SEMANTICS.md#pointers): the column holds the objectId whether or not the target
    /// is stored, and a path through one looks the target up in the same snapshot.
    static func pushdownKind(_ f: Field) -> SQLiteColumnKind? {
        guard let kind = f.kind else { return nil }
        if kind == .real, f.largeInts {
            return .unsupported(reason: "it mixes doubles with integers beyond 2^53, which REAL would round")
        }
        return kind
    }
}

extension SQLiteColumnKind {
    /// The catalog's text for a kind.
    var storedText: String {
        switch self {
        case .integer: return "integer"
        case .real: return "real"
        case .text(let ascii): return ascii ? "text-ascii" : "text"
        case .date: return "date"
        case .bool: return "bool"
        case .geoPoint: return "geo"
        case .pointer(let c): return "pointer:" + c
        case .array(nil): return "array"
        case .array(let e?): return "array:" + e.storedText
        case .unsupported(let reason): return "unsupported:" + reason
        }
    }

    init?(storedText s: String) {
        switch s {
        case "integer": self = .integer
        case "real": self = .real
        case "text-ascii": self = .text(ascii: true)
        case "text": self = .text(ascii: false)
        case "date": self = .date
        case "bool": self = .bool
        case "geo": self = .geoPoint
        case "array": self = .array(of: nil)
        default:
            if s.hasPrefix("pointer:") {
                self = .pointer(to: String(s.dropFirst(8)))
            } else if s.hasPrefix("array:"), let e = SQLiteColumnKind(storedText: String(s.dropFirst(6))) {
                self = .array(of: e)
            } else if s.hasPrefix("unsupported:") {
                self = .unsupported(reason: String(s.dropFirst(12)))
            } else {
                return nil
            }
        }
    }
}

/// The field types of catalogs read so far, by their catalog text: the catalog is read in every
/// transaction, and decoding a type with `JSONDecoder` costs more than a lookup query's run.
private final class FieldTypeCache: @unchecked Sendable {
    static let shared = FieldTypeCache()
    private let lock = NSLock()
    private var types: [String: FieldType] = [:]

    func type(_ text: String) -> FieldType? {
        lock.lock()
        defer { lock.unlock() }
        if let t = types[text] { return t }
        guard let t = try? JSONDecoder().decode(FieldType.self, from: Data(text.utf8)) else { return nil }
        if types.count < 10_000 { types[text] = t }
        return t
    }
}
