import CSQLiteBench
import Foundation
import Quarry
import QuarrySQLite

/// The SQLite store on a file in the work folder (docs/STORAGE.md#benchmarks). Hand-written
/// SQL runs on a connection of its own to the same file, through temporary views that name
/// the store's numbered columns after their fields (`Person.age`, `Person.location_lat`,
/// `Person.location_lon`, plus `seq`), read from the store's documented catalog; SQLite
/// flattens such views into the query, so they cost nothing.
final class SQLiteBenchDatabase: BenchDatabase {
    let name = "sqlite"
    let path: String
    private var store: SQLiteStore?
    private var reader: OpaquePointer?

    init(directory: String) {
        path = directory + "/store.sqlite"
    }

    deinit { sqlite3_close_v2(reader) }

    func importData(_ file: String) throws -> Int {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try SQLiteStore(path: path)
        var total = 0
        // What `quarry import` runs: the file streamed object by object (parsed ahead on a
        // thread of its own) into one transaction.
        try store.transaction { t in
            try ReadAhead.stream(path: file) { record, className in
                try t.save(record, in: className)
                total += 1
            }
        }
        self.store = store
        return total
    }

    func backend() throws -> any QueryBackend {
        guard let store else { throw BenchFailure("import first") }
        return store
    }

    // MARK: - Hand-written SQL

    func runHandWritten(_ sql: String) throws -> Int {
        let db = try readerConnection()
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw BenchFailure("\(String(cString: sqlite3_errmsg(db))) in: \(sql)")
        }
        defer { sqlite3_finalize(stmt) }
        var rows = 0
        var cells: [Cell] = []
        let columns = sqlite3_column_count(stmt)
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw BenchFailure(String(cString: sqlite3_errmsg(db))) }
            cells.removeAll(keepingCapacity: true)
            for c in 0..<columns { cells.append(Cell(stmt, c)) }
            rows += 1
        }
        // A count query answers with one row holding the count.
        if columns == 1, rows == 1, sqlite3_column_name(stmt, 0).map({ String(cString: $0) }) == "count(*)",
            case .int(let n) = cells[0]
        {
            return Int(n)
        }
        return rows
    }

    /// The read connection, with one view a class naming its columns after the fields.
    private func readerConnection() throws -> OpaquePointer {
        if let reader { return reader }
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else {
            throw BenchFailure("cannot open \(path)")
        }
        reader = db
        var views: [String] = []
        for row in try rows(db, "SELECT id, name FROM quarry_classes") {
            let (id, className) = (row[0], row[1])
            var columns = ["seq", "objectId", "createdAt", "updatedAt"]
            for row in try rows(db, "SELECT name, number, kind FROM quarry_fields WHERE class = \(id) ORDER BY number")
            {
                let (field, n, kind) = (row[0], row[1], row[2])
                if kind == "geo" {
                    columns += ["f\(n) AS \(quoted(field + "_lat"))", "g\(n) AS \(quoted(field + "_lon"))"]
                } else {
                    columns.append("f\(n) AS \(quoted(field))")
                }
            }
            views.append(
                "CREATE TEMP VIEW \(quoted(className)) AS SELECT \(columns.joined(separator: ", ")) FROM c\(id)")
        }
        for v in views { try exec(db, v) }
        return db
    }

    // MARK: - Bulk load

    func bulkLoad() throws -> (rows: Int, seconds: Double) {
        let source = try readerConnection()
        let target = path + ".bulk"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
        var db: OpaquePointer?
        guard sqlite3_open_v2(target, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db
        else { throw BenchFailure("cannot open \(target)") }
        defer { sqlite3_close_v2(db) }
        // The store's settings: WAL, every commit synced.
        try exec(db, "PRAGMA journal_mode = WAL")
        try exec(db, "PRAGMA synchronous = FULL")
        var tables: [(String, [[Cell]])] = []
        for row in try rows(source, "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name GLOB 'c[0-9]*'")
        {
            try exec(db, row[1])
            tables.append((row[0], try cells(source, "SELECT * FROM \(row[0]) ORDER BY seq")))
        }
        // Timed: the rows, already in memory, through one prepared INSERT in one transaction.
        let start = ContinuousClock.now
        var total = 0
        try exec(db, "BEGIN")
        for (table, rows) in tables {
            guard let width = rows.first?.count else { continue }
            let placeholders = (1...width).map { "?\($0)" }.joined(separator: ", ")
            var stmt: OpaquePointer?
            guard sqlite3_prepare_v2(db, "INSERT INTO \(table) VALUES (\(placeholders))", -1, &stmt, nil) == SQLITE_OK
            else { throw BenchFailure(String(cString: sqlite3_errmsg(db))) }
            defer { sqlite3_finalize(stmt) }
            for row in rows {
                for (i, cell) in row.enumerated() { cell.bind(stmt, Int32(i + 1)) }
                guard sqlite3_step(stmt) == SQLITE_DONE else { throw BenchFailure(String(cString: sqlite3_errmsg(db))) }
                sqlite3_reset(stmt)
                total += 1
            }
        }
        try exec(db, "COMMIT")
        return (total, seconds(ContinuousClock.now - start))
    }

    // MARK: - Helpers

    private func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchFailure("\(String(cString: sqlite3_errmsg(db))) in: \(sql)")
        }
    }

    private func cells(_ db: OpaquePointer, _ sql: String) throws -> [[Cell]] {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw BenchFailure("\(String(cString: sqlite3_errmsg(db))) in: \(sql)")
        }
        defer { sqlite3_finalize(stmt) }
        var out: [[Cell]] = []
        while sqlite3_step(stmt) == SQLITE_ROW {
            out.append((0..<sqlite3_column_count(stmt)).map { Cell(stmt, $0) })
        }
        return out
    }

    private func rows(_ db: OpaquePointer, _ sql: String) throws -> [[String]] {
        try cells(db, sql).map { $0.map(\.text) }
    }

    private func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

/// One column of one row, read as an application reads it.
enum Cell {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    init(_ stmt: OpaquePointer, _ column: Int32) {
        switch sqlite3_column_type(stmt, column) {
        case SQLITE_INTEGER: self = .int(sqlite3_column_int64(stmt, column))
        case SQLITE_FLOAT: self = .double(sqlite3_column_double(stmt, column))
        case SQLITE_TEXT, SQLITE_BLOB:
            let p = sqlite3_column_text(stmt, column)
            let n = Int(sqlite3_column_bytes(stmt, column))
            self = .text(p.map { String(decoding: UnsafeBufferPointer(start: $0, count: n), as: UTF8.self) } ?? "")
        default: self = .null
        }
    }

    var text: String {
        switch self {
        case .null: return ""
        case .int(let n): return String(n)
        case .double(let d): return String(d)
        case .text(let s): return s
        }
    }

    func bind(_ stmt: OpaquePointer?, _ index: Int32) {
        switch self {
        case .null: sqlite3_bind_null(stmt, index)
        case .int(let n): sqlite3_bind_int64(stmt, index, n)
        case .double(let d): sqlite3_bind_double(stmt, index, d)
        case .text(let s):
            var s = s
            s.withUTF8 { b in
                _ = b.withMemoryRebound(to: CChar.self) {
                    sqlite3_bind_text(stmt, index, $0.baseAddress, Int32($0.count), sqliteTransient)
                }
            }
        }
    }
}

/// SQLite copies bound bytes before the call returns (`SQLITE_TRANSIENT`, a macro Swift cannot import).
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
