import CSQLite
import Quarry

/// The same data in SQLite `:memory:`, for measuring Quarry against SQLite and for checking
/// that both find the same objects (`quarry bench --sqlite`).
///
/// Every class becomes a table (see `SQLiteTable` and `SQLiteColumnKind` for how each kind of
/// field is stored); queries are translated from the IR by `SQLiteTranslator`, which refuses,
/// with a reason, whatever SQLite cannot answer with exactly Quarry's semantics.
///
/// ```swift
/// let peer = try SQLitePeer(database: db)
/// try peer.createIndex(on: "age", in: "Person")
/// let ids = try peer.prepare(query).objectIds()
/// ```
public final class SQLitePeer {
    package let connection: SQLiteConnection
    let tables: [String: SQLiteTable]
    let limits: Limits
    /// Bytes SQLite holds for the tables and indexes (the connection's page cache, schema and
    /// statements).
    public private(set) var bytesUsed: Int64 = 0

    /// Loads every class of `database` into a new in-memory database.
    public init(database: Database, limits: Limits = .default) throws(SQLiteError) {
        connection = try SQLiteConnection()
        self.limits = limits
        try SQLiteFunctions.register(on: connection.handle, limits: limits)
        var tables: [String: SQLiteTable] = [:]
        for name in database.classNames {
            guard let data = database[name] else { continue }
            let table = SQLiteTable(data, in: database)
            try connection.execute(table.createStatement)
            try connection.execute("BEGIN")
            try Self.insert(data, into: table, connection: connection)
            try connection.execute("COMMIT")
            tables[name] = table
        }
        self.tables = tables
        bytesUsed = connection.memoryUsed
    }

    /// Creates the SQLite index that matches Quarry's index on `key` of `className` (on the
    /// column, or on the latitude and longitude columns of a geo point) and gathers its
    /// statistics (`ANALYZE`).
    ///
    /// - Returns: nil when created; otherwise why SQLite has no equivalent (an array field,
    ///   a dot path, an unsupported field).
    @discardableResult
    public func createIndex(on key: FieldPath, in className: String) throws(SQLiteError) -> String? {
        guard let table = tables[className] else { return "the class \(className) is not loaded" }
        guard key.count == 1 else { return "SQLite has no index on a path through a pointer (\(key))" }
        let field = key.first
        let columns: [String]
        switch table.kind(field) {
        case .geoPoint?: columns = [table.latitudeColumn(field), table.longitudeColumn(field)]
        case .array?: return "SQLite has no index on the elements of a JSON array (\(field))"
        case .unsupported(let reason)?: return "the field \(field) is not loaded into SQLite: \(reason)"
        case nil where !table.fields.contains(field) && field != "objectId":
            return "the class \(className) has no field \(field)"
        default: columns = [table.column(field)]
        }
        if field == "objectId" { return nil }  // the primary key is indexed already
        let indexName = sqlIdentifier("idx_\(className)_\(field)")
        try connection.execute(
            "CREATE INDEX IF NOT EXISTS \(indexName) ON \(table.name) (\(columns.joined(separator: ", ")))")
        // Statistics let SQLite's planner weigh the index against a scan, as Quarry's planner
        // weighs its own statistics; without them SQLite guesses.
        try connection.execute("ANALYZE \(indexName)")
        bytesUsed = connection.memoryUsed
        return nil
    }

    /// The query as SQLite SQL (literals as `?NNN` parameters), or why it is not comparable.
    public func translate(_ query: Query) -> Result<String, SQLiteNotComparable> {
        Result { () throws(SQLiteNotComparable) -> String in try translation(query).sql }
    }

    /// Translates and prepares the query, with its literals bound.
    public func prepare(_ query: Query) throws(SQLitePeerError) -> SQLitePreparedQuery {
        let translated: (sql: String, bindings: [SQLiteBinding])
        do throws(SQLiteNotComparable) {
            translated = try translation(query)
        } catch {
            throw .notComparable(error)
        }
        do throws(SQLiteError) {
            let statement = try connection.prepare(translated.sql)
            for (i, b) in translated.bindings.enumerated() {
                switch b {
                case .int(let n): statement.bind(Int32(i + 1), n)
                case .double(let d): statement.bind(Int32(i + 1), d)
                case .text(let t): statement.bind(Int32(i + 1), t)
                }
            }
            return SQLitePreparedQuery(sql: translated.sql, counts: query.count, statement: statement)
        } catch {
            throw .sqlite(error)
        }
    }

    private func translation(_ query: Query) throws(SQLiteNotComparable) -> (sql: String, bindings: [SQLiteBinding]) {
        var translator = SQLiteTranslator(tables: tables)
        let sql = try translator.select(query)
        return (sql, translator.bindings)
    }

    private static func insert(_ data: ClassData, into table: SQLiteTable, connection: SQLiteConnection)
        throws(SQLiteError)
    {
        let stored = table.storedFields
        let columnCount = stored.reduce(1) { $0 + ($1.kind == .geoPoint ? 2 : 1) }
        let placeholders = Array(repeating: "?", count: columnCount).joined(separator: ", ")
        let insert = try connection.prepare("INSERT INTO \(table.name) VALUES (\(placeholders))")
        for record in data.records {
            insert.bind(1, record.objectId)
            var column: Int32 = 2
            for (field, kind) in stored {
                let value = record.fields[field] ?? .null
                if kind == .geoPoint {
                    if case .geoPoint(let p) = value {
                        insert.bind(column, p.latitude)
                        insert.bind(column + 1, p.longitude)
                    } else {
                        insert.bindNull(column)
                        insert.bindNull(column + 1)
                    }
                    column += 2
                    continue
                }
                bind(value, kind: kind, at: column, to: insert)
                column += 1
            }
            try insert.run()
        }
    }

    private static func bind(_ value: Value, kind: SQLiteColumnKind?, at column: Int32, to stmt: SQLiteStatement) {
        switch value {
        case .int(let i): kind == .real ? stmt.bind(column, Double(i)) : stmt.bind(column, i)
        case .double(let d): stmt.bind(column, d)
        case .string(let s): stmt.bind(column, s)
        case .date(let ms): stmt.bind(column, ms)
        case .bool(let b): stmt.bind(column, Int64(b ? 1 : 0))
        case .pointer(let p): stmt.bind(column, p.objectId)
        case .array, .relation:
            stmt.bind(column, SQLiteJSONArray.text(value))
        default: stmt.bindNull(column)
        }
    }
}

/// Why a query cannot run on the SQLite peer.
public enum SQLitePeerError: Error, CustomStringConvertible {
    case notComparable(SQLiteNotComparable)
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .notComparable(let reason): return "not comparable: \(reason.reason)"
        case .sqlite(let error): return error.description
        }
    }
}

/// A translated, prepared query that can run many times.
public final class SQLitePreparedQuery {
    /// The SQL that SQLite runs.
    public let sql: String
    /// The statement returns one row with `count(*)` instead of objectIds.
    public let counts: Bool
    let statement: SQLiteStatement

    init(sql: String, counts: Bool, statement: SQLiteStatement) {
        self.sql = sql
        self.counts = counts
        self.statement = statement
    }

    /// The objectIds of the matches, in result order.
    public func objectIds() throws(SQLiteError) -> [String] {
        defer { statement.reset() }
        var ids: [String] = []
        while try statement.step() { ids.append(statement.text(0) ?? "") }
        return ids
    }

    /// The number of matches (of rows returned, or the count a count query computes).
    public func matchCount() throws(SQLiteError) -> Int {
        defer { statement.reset() }
        if counts { return try statement.step() ? Int(statement.int64(0)) : 0 }
        var n = 0
        while try statement.step() {
            // Reading the id makes SQLite produce each row as a caller would use it.
            _ = sqlite3_column_text(statement.handle, 0)
            n += 1
        }
        return n
    }
}
