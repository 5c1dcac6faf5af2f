import Foundation
import Quarry
import QuarrySQLite

/// `--store sqlite:PATH | postgresql://…` and `--class`: the store a command reads, and the
/// class its query is on.
struct StoreSource {
    var store: any CLIStore
    var className: String
    var schema: any Schema

    /// Opens an existing store; the class settles as `DataSource` settles it.
    static func open(_ url: String, className: String?, parallelism: ScanParallelism = .automatic) throws(Failure)
        -> StoreSource
    {
        if !isPostgres(url) {
            let path = try path(of: url)
            guard FileManager.default.fileExists(atPath: path) else {
                throw .usage("there is no store at \(path); make one with 'quarry import'")
            }
        }
        let store = try opening(url, parallelism: parallelism)
        let path = store.location
        let schema: any Schema
        do throws(Diagnostic) { schema = try store.storeSchema() } catch { throw .query(error, source: "") }
        let names = schema.classNames
        if let className {
            guard schema.hasClass(className) else {
                throw .usage(
                    "the store \(path) has no class '\(className)'; it holds \(names.isEmpty ? "no class" : names.joined(separator: ", "))"
                )
            }
            return StoreSource(store: store, className: className, schema: schema)
        }
        guard names.count == 1 else {
            throw .usage(
                names.isEmpty
                    ? "the store \(path) holds no class"
                    : "the store \(path) holds several classes (\(names.joined(separator: ", "))); choose one with --class"
            )
        }
        return StoreSource(store: store, className: names[0], schema: schema)
    }

    /// `sqlite:PATH` → PATH.
    static func path(of url: String) throws(Failure) -> String {
        guard url.hasPrefix("sqlite:"), url.count > 7 else {
            throw .usage("--store \(url): expected sqlite:PATH or postgresql://user@host:port/database")
        }
        return String(url.dropFirst(7))
    }

    static func isPostgres(_ url: String) -> Bool { url.hasPrefix("postgresql://") || url.hasPrefix("postgres://") }

    /// Opens (or creates) the store: a SQLite file, or a PostgreSQL database.
    static func opening(_ url: String, limits: Limits = .default, parallelism: ScanParallelism = .automatic)
        throws(Failure) -> any CLIStore
    {
        if !isPostgres(url) { _ = try path(of: url) }
        do throws(Diagnostic) {
            if isPostgres(url) { return try PostgresCLIStore.open(url, limits: limits, parallelism: parallelism) }
            return try SQLiteStore(path: String(url.dropFirst(7)), limits: limits, parallelism: parallelism)
        } catch {
            throw .query(error, source: "")
        }
    }

    /// Declares `--index` keys in the store (kept there for later queries).
    func declare(_ specs: [String]) throws(Failure) {
        for spec in specs {
            let (key, kind) = try IndexOptions.parse(spec, schema: schema, className: className)
            do throws(Diagnostic) {
                try store.declareIndex(kind, on: key, in: className)
            } catch {
                throw .usage("--index \(spec): \(error.message)")
            }
        }
    }
}
