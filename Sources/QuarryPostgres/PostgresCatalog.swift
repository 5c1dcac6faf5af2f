import Foundation
import PostgresNIO
import Quarry
import QuarryStoreSupport

/// What the PostgreSQL store knows about its classes, kept in the database beside the data
/// (docs/STORAGE.md#postgresql-schema): each class's table (`c<id>`), each field's number (its
/// key `f<n>` in `doc`) and kind (the merge of every value ever saved there; deletes do not
/// narrow it), and the declared indexes. Every change to it counts up
/// `quarry_catalog_version`, which a reader checks in its own snapshot to reuse the catalog
/// read before (`CatalogCache`).
struct PostgresCatalog {
    struct Field: CatalogField {
        let name: String
        let number: Int
        var kind: PostgresKind?
        /// The field's type as a `Database` of the same objects would report it (`Schema`).
        var type: FieldType?
    }

    struct Class {
        let id: Int
        let name: String
        private(set) var list = CatalogFields<Field>()
        var indexes: [IndexDeclaration]
        var table: String { "c\(id)" }
        var fields: [Field] { list.all }
        var lastNumber: Int { list.lastNumber }

        init(id: Int, name: String, indexes: [IndexDeclaration]) {
            self.id = id
            self.name = name
            self.indexes = indexes
        }

        func field(_ name: String) -> Field? { list.field(name) }
        mutating func append(_ field: Field) { list.append(field) }
        mutating func replace(_ field: Field) { list.replace(field) }
    }

    private(set) var classes: [String: Class] = [:]
    /// Class names in the order they were created.
    private(set) var classNames: [String] = []

    static let schema = [
        "CREATE TABLE IF NOT EXISTS quarry_classes (id serial PRIMARY KEY, name text NOT NULL UNIQUE)",
        """
        CREATE TABLE IF NOT EXISTS quarry_fields (class int NOT NULL, name text NOT NULL, number int NOT NULL,
            kind text, type text, PRIMARY KEY (class, name))
        """,
        """
        CREATE TABLE IF NOT EXISTS quarry_indexes (class int NOT NULL, key text NOT NULL, kind text NOT NULL,
            position serial, PRIMARY KEY (class, key, kind))
        """,
        "CREATE TABLE IF NOT EXISTS quarry_catalog_version (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)",
        "INSERT INTO quarry_catalog_version (id, version) VALUES (1, 0) ON CONFLICT DO NOTHING",
    ]

    /// The catalog as `s`'s read transaction sees it, from `cache` when its version is the one
    /// kept there.
    static func read(_ s: PostgresSession, _ cache: CatalogCache<PostgresCatalog>) throws -> PostgresCatalog {
        try cache.catalog(version: version(s.send(versionStatement).wait())) { try load(s) }
    }

    static let versionStatement = "SELECT version::text FROM quarry_catalog_version"
    /// `versionStatement` that also sets the transaction's statement timeout to `$1`
    /// milliseconds, for the statements after it.
    static let versionAndTimeoutStatement =
        "SELECT (SELECT version::text FROM quarry_catalog_version), set_config('statement_timeout', $1, true)"

    /// The version in the answer to `versionStatement`.
    static func version(_ answer: PostgresQueryResult) throws -> Int64 {
        Int64(try answer.rows.first?.text(0) ?? "") ?? -1
    }

    /// Counts the catalog's version up, inside the transaction that changes it.
    private static func changed(_ s: PostgresSession) throws {
        try s.run("UPDATE quarry_catalog_version SET version = version + 1")
    }

    static func load(_ s: PostgresSession) throws -> PostgresCatalog {
        var catalog = PostgresCatalog()
        var byId: [Int: String] = [:]
        for row in try s.rows("SELECT id::text, name FROM quarry_classes ORDER BY quarry_classes.id") {
            let id = Int(try row.text(0) ?? "") ?? 0, name = try row.text(1) ?? ""
            catalog.classes[name] = Class(id: id, name: name, indexes: [])
            catalog.classNames.append(name)
            byId[id] = name
        }
        for row in try s.rows(
            "SELECT class::text, name, number::text, kind, type FROM quarry_fields ORDER BY quarry_fields.class, quarry_fields.number"
        ) {
            guard let className = byId[Int(try row.text(0) ?? "") ?? -1] else { continue }
            catalog.classes[className]?.append(
                Field(
                    name: try row.text(1) ?? "", number: Int(try row.text(2) ?? "") ?? 0,
                    kind: try row.text(3).flatMap(PostgresKind.init(storedText:)),
                    type: try row.text(4).flatMap { try? JSONDecoder().decode(FieldType.self, from: Data($0.utf8)) }))
        }
        for row in try s.rows("SELECT class::text, key, kind FROM quarry_indexes ORDER BY position") {
            // The key's components as a JSON array: a field name may hold a dot.
            guard let className = byId[Int(try row.text(0) ?? "") ?? -1],
                let kind = IndexKind(rawValue: try row.text(2) ?? ""),
                case .array(let parts)? = try? JSONParser().parse(try row.text(1) ?? "")
            else { continue }
            catalog.classes[className]?.indexes.append(
                IndexDeclaration(kind: kind, key: FieldPath(parts.compactMap(\.stringValue))))
        }
        return catalog
    }

    /// The class, created (catalog row and table) when it is new.
    mutating func ensureClass(_ name: String, _ s: PostgresSession) throws -> Class {
        if let c = classes[name] { return c }
        try Self.storable(name, "a class name")
        let rows = try s.rows("INSERT INTO quarry_classes (name) VALUES ($1) RETURNING id::text", [name])
        let c = Class(id: Int(try rows.first?.text(0) ?? "") ?? 0, name: name, indexes: [])
        try Self.changed(s)
        // seq keeps insertion order; a replacement updates the row in place and keeps it.
        try s.run(
            """
            CREATE TABLE \(c.table) (seq bigserial UNIQUE, objectid text COLLATE "C" PRIMARY KEY,
                createdat bigint, updatedat bigint, doc jsonb NOT NULL, raw text NOT NULL)
            """)
        classes[name] = c
        classNames.append(name)
        return c
    }

    /// The field, numbered when it is new.
    mutating func ensureField(_ name: String, in className: String, _ s: PostgresSession) throws -> Field {
        guard let known = classes[className] else { preconditionFailure("ensureClass first") }
        if let f = known.field(name) { return f }
        try Self.storable(name, "a field name")
        let (id, number) = (known.id, known.lastNumber + 1)
        try s.run(
            "INSERT INTO quarry_fields (class, name, number) VALUES ($1::int, $2, $3::int)",
            [String(id), name, String(number)])
        try Self.changed(s)
        let f = Field(name: name, number: number, kind: nil, type: nil)
        // In place: a copy of the class would copy its fields, each time one is added.
        classes[className]!.append(f)
        return f
    }

    mutating func update(_ field: Field, in className: String, _ s: PostgresSession) throws {
        guard let id = classes[className]?.id else { return }
        classes[className]!.replace(field)
        let type = try field.type.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try s.run(
            "UPDATE quarry_fields SET kind = $1, type = $2 WHERE class = $3::int AND name = $4",
            [field.kind?.storedText, type, String(id), field.name])
        try Self.changed(s)
    }

    mutating func addIndex(_ index: IndexDeclaration, to className: String, _ s: PostgresSession) throws -> Bool {
        guard var c = classes[className], !c.indexes.contains(index) else { return false }
        try s.run(
            "INSERT INTO quarry_indexes (class, key, kind) VALUES ($1::int, $2, $3)",
            [String(c.id), JSONWriter.string(.array(index.key.components.map { .string($0) })), index.kind.rawValue])
        try Self.changed(s)
        c.indexes.append(index)
        classes[className] = c
        return true
    }

    /// What the front-ends ask while they compile a query against the store.
    var schema: StoreSchema {
        var out: [String: [(String, FieldType?)]] = [:]
        for c in classes.values { out[c.name] = c.fields.map { ($0.name, $0.type) } }
        return StoreSchema(classNames: classNames, fields: out)
    }

    /// Whether a key path of a class may reach a date (a path through a pointer: assume so).
    func mayReachDate(_ path: FieldPath, in className: String) -> Bool {
        guard path.count == 1 else { return true }
        guard path.first != "objectId", let field = classes[className]?.field(path.first) else { return false }
        switch field.kind {
        case nil, .number?, .text?, .bool?, .geoPoint?, .pointer?: return false
        case .array(let element)?: return element == .date
        case .date?, .unsupported?: return true
        }
    }

    /// PostgreSQL text cannot hold NUL (docs/STORAGE.md#postgresql-schema).
    static func storable(_ text: String, _ what: String) throws {
        if text.utf8.contains(0) {
            throw Diagnostic(.store.unstorable, "\(what) holding a NUL character cannot be stored in PostgreSQL")
        }
    }
}
