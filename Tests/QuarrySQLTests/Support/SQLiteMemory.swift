import CSQLite

/// A SQLite `:memory:` database for differential tests.
final class SQLiteMemory {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A cell to insert.
    enum Cell {
        case null
        case int(Int64)
        case double(Double)
        case text(String)
    }

    private var db: OpaquePointer?

    init() throws {
        guard sqlite3_open(":memory:", &db) == SQLITE_OK else { throw Failure(description: "cannot open :memory:") }
    }

    deinit { sqlite3_close(db) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw Failure(description: message.map { String(cString: $0) } ?? sql)
        }
    }

    func insert(into table: String, columns: [String], rows: [[Cell]]) throws {
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let statement = try prepare("INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(marks))")
        defer { sqlite3_finalize(statement) }
        // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for row in rows {
            sqlite3_reset(statement)
            for (i, cell) in row.enumerated() {
                let index = Int32(i + 1)
                switch cell {
                case .null: sqlite3_bind_null(statement, index)
                case .int(let v): sqlite3_bind_int64(statement, index, v)
                case .double(let v): sqlite3_bind_double(statement, index, v)
                case .text(let v): sqlite3_bind_text(statement, index, v, -1, transient)
                }
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw Failure(description: lastError) }
        }
    }

    /// The first column of every row of a query, as text.
    func strings(_ sql: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var out: [String] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: out.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
            case SQLITE_DONE: return out
            default: throw Failure(description: "\(lastError) in \(sql)")
            }
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "\(lastError) in \(sql)")
        }
        return statement
    }

    private var lastError: String { String(cString: sqlite3_errmsg(db)) }
}
