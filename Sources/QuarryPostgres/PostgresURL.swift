import Foundation
import Quarry

/// `postgresql://user[:password]@host[:port]/database[?host=/socket/folder]`, as libpq reads it
/// (docs/STORAGE.md#postgresql-connections), and `prepared_statements=off` for a pooler that
/// does not keep them (docs/STORAGE.md#prepared-statements).
struct PostgresURL {
    var user: String
    var password: String?
    var host: String
    var port: Int
    var database: String
    /// The Unix socket (`<folder>/.s.PGSQL.<port>`) when `?host=` names a folder.
    var socketPath: String?
    /// Whether repeated statements are sent prepared.
    var preparedStatements = true

    init(_ text: String) throws(Diagnostic) {
        guard let c = URLComponents(string: text), c.scheme == "postgresql" || c.scheme == "postgres" else {
            throw Diagnostic(.store.postgres, "'\(text)' is not a postgresql://user@host:port/database URL")
        }
        user = c.percentEncodedUser.flatMap { $0.removingPercentEncoding } ?? "postgres"
        password = c.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        host = c.host ?? "localhost"
        port = c.port ?? 5432
        let path = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
        database = path.isEmpty ? user : path
        if let folder = c.queryItems?.first(where: { $0.name == "host" })?.value, folder.hasPrefix("/") {
            socketPath = "\(folder)/.s.PGSQL.\(port)"
        }
        if let prepared = c.queryItems?.first(where: { $0.name == "prepared_statements" }) {
            switch prepared.value {
            case "on": preparedStatements = true
            case "off": preparedStatements = false
            default:
                throw Diagnostic(
                    .store.postgres,
                    "prepared_statements=\(prepared.value ?? "") in '\(text)' is neither 'on' nor 'off'")
            }
        }
    }

    var location: String {
        "postgresql://\(user)@\(socketPath == nil ? "\(host):\(port)" : "[\(socketPath!)]")/\(database)"
    }
}
