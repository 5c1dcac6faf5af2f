import ArgumentParser
import Dispatch
import Foundation
import Quarry
import QuarrySQLite
import QuarryServer

/// `quarry serve`: the Parse, LeanCloud and Backendless data APIs over a data file (in memory)
/// or a store, until SIGTERM or SIGINT.
struct ServeCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Parse, LeanCloud and Backendless REST data APIs over a data file or a store.",
        discussion: """
            Parse REST under /parse (X-Parse-Application-Id …), LeanCloud under /1.1 (X-LC-Id \
            with X-LC-Key or X-LC-Sign), Backendless under /api/data/{table}, POST /query and \
            GET /health. Object ACLs are enforced on every read and write; the master key \
            bypasses them. Every query runs under the deadline and the safety caps.

            Examples:
              quarry serve --data Samples/sample.json --app-id demo --master-key secret
              curl -H 'X-Parse-Application-Id: demo' 'http://127.0.0.1:1337/parse/classes/Contact?limit=2'
            """)

    @Option(
        name: .customLong("data"),
        help: ArgumentHelp(
            "A data file, served from memory: writes last until the server stops and are not saved to the file "
                + "(serve a store, made with 'quarry import', to keep them).",
            valueName: "file"))
    var file: String?

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("A store: sqlite:PATH (created if needed) or postgresql://….", valueName: "url"))
    var store: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: one the system chooses; the line 'listening on' names it).")
    var port = 1337

    @Option(
        name: .customLong("app-id"), help: ArgumentHelp("The application id every request must carry.", valueName: "id")
    )
    var applicationId: String

    @Option(
        name: .customLong("rest-key"),
        help: ArgumentHelp("The REST API key requests must carry (none: not checked).", valueName: "key"))
    var restKey: String?

    @Option(name: .customLong("master-key"), help: ArgumentHelp("The master key: bypasses ACLs.", valueName: "key"))
    var masterKey: String?

    @Option(help: "Use this profile on every API instead of each platform's own (parse, leancloud, backendless).")
    var profile: Profile?

    @Option(
        help: ArgumentHelp(
            "The time budget of one query in seconds (default: Limits.untrusted's); 0 lifts it.",
            valueName: "seconds"))
    var deadline: Double?

    @Option(
        name: .customLong("max-body"), help: ArgumentHelp("The largest request body, in bytes.", valueName: "bytes"))
    var maxBody = 1 << 20

    @Option(
        name: .customLong("index"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Index Class.key (or Class.key:hash|ordered|geo) before serving; repeat for each. A store keeps it.",
            valueName: "index"))
    var indexes: [String] = []

    @Option(
        name: .customLong("max-in-flight"),
        help: ArgumentHelp("Requests handled at once (default: 4 per core, at least 8).", valueName: "n"))
    var maxInFlight = ServerConfiguration.defaultMaxInFlight

    @Option(
        name: .customLong("max-queued"),
        help: ArgumentHelp("Requests waiting for a turn beyond those; more are refused with 503.", valueName: "n"))
    var maxQueued = 256

    var reportsJSON: Bool { false }

    func validate() throws {
        guard (file == nil) != (store == nil) else {
            throw ValidationError("Give exactly one of --data FILE and --store URL.")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        if let deadline, !(deadline >= 0 && deadline.isFinite) {
            throw ValidationError("--deadline must be 0 or more seconds.")
        }
        guard maxBody > 0 else { throw ValidationError("--max-body must be positive.") }
        guard !applicationId.isEmpty else { throw ValidationError("--app-id must not be empty.") }
        guard maxInFlight > 0 else { throw ValidationError("--max-in-flight must be positive.") }
        guard maxQueued >= 0 else { throw ValidationError("--max-queued must be 0 or more.") }
        for spec in indexes where ImportCommand.index(spec) == nil {
            throw ValidationError("--index '\(spec)' is not Class.key or Class.key:kind (kind: hash, ordered or geo).")
        }
    }

    func execute(_ console: Console) throws(Failure) {
        var limits = Limits.untrusted
        if let deadline { limits.deadlineSeconds = deadline > 0 ? deadline : nil }
        let backend: any QueryBackend
        let schema: any Schema
        if let file {
            // Straight into columns, as `run` loads (docs/STORAGE.md#direct-loading).
            let loaded: Engine.Loaded
            do throws(DataFileError) {
                loaded = try ProcessMemory.loading { () throws(DataFileError) in
                    try Engine.load(contentsOfFile: file, limits: limits)
                }
            } catch {
                throw .data(error)
            }
            backend = InMemoryBackend(engine: loaded.engine)
            schema = loaded.schema
        } else {
            let opened = try StoreSource.opening(store ?? "", limits: limits)
            do throws(Diagnostic) { schema = try opened.storeSchema() } catch { throw .query(error, source: "") }
            backend = opened.backend
        }
        let declared = Self.indexes(indexes, schema: schema)
        let server = QuarryServer(
            backend: backend,
            configuration: ServerConfiguration(
                applicationId: applicationId, restKey: restKey, masterKey: masterKey,
                profile: profile, limits: limits, maxBodyBytes: maxBody))
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let host = host, port = port
        Task.detached {
            defer { done.signal() }
            if let message = await Self.declare(declared, on: backend) { return outcome.set(message) }
            // On standard output, the line a script or test waits for (the logs go to standard error).
            let announce = { @Sendable (bound: Int) in
                FileHandle.standardOutput.write(Data("quarry serve: listening on http://\(host):\(bound)\n".utf8))
            }
            do { try await server.run(host: host, port: port, onListening: announce) } catch {
                outcome.set("cannot serve on \(host):\(port): \(error)")
            }
        }
        done.wait()
        if let message = outcome.message { throw .usage(message) }
    }
}

extension ServeCommand {
    /// Declares each class's indexes together (the in-memory engine builds them side by side);
    /// the error of a refused one, naming its option. A backend that refuses a class's
    /// indexes whole does not say which option was refused: they are then declared in turn,
    /// which names it.
    static func declare(
        _ declared: [(spec: String, className: String, key: FieldPath, kind: IndexKind)], on backend: any QueryBackend
    ) async -> String? {
        var classes: [String] = []
        for index in declared where !classes.contains(index.className) { classes.append(index.className) }
        for className in classes {
            let ofClass = declared.filter { $0.className == className }
            do throws(Diagnostic) {
                try await backend.createIndexes(ofClass.map { ($0.kind, $0.key) }, in: className)
            } catch {
                for index in ofClass {
                    do throws(Diagnostic) {
                        try await backend.createIndex(index.kind, on: index.key, in: className)
                    } catch {
                        return "--index \(index.spec): \(error.message)"
                    }
                }
            }
        }
        return nil
    }

    /// `--index Class.key[:kind]`: without a kind, geo for a field of geo points, else ordered.
    static func indexes(
        _ specs: [String], schema: any Schema
    ) -> [(spec: String, className: String, key: FieldPath, kind: IndexKind)] {
        specs.compactMap { spec in
            guard let (className, key, kind) = ImportCommand.index(spec) else { return nil }
            let isGeo = key.count == 1 && schema.fieldType(key.first, in: className) == .geoPoint
            return (spec, className, key, kind ?? (isGeo ? .geo : .ordered))
        }
    }
}

/// The server's failure, handed from its task to the waiting command.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    func set(_ message: String) { lock.withLock { stored = message } }
    var message: String? { lock.withLock { stored } }
}
