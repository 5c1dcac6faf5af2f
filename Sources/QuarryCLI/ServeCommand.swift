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
        help: ArgumentHelp("A data file, served from memory (writes are not saved to it).", valueName: "file"))
    var file: String?

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("A store: sqlite:PATH (created if needed) or postgresql://….", valueName: "url"))
    var store: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
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

    var reportsJSON: Bool { false }

    func validate() throws {
        guard (file == nil) != (store == nil) else {
            throw ValidationError("Give exactly one of --data FILE and --store URL.")
        }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535.") }
        if let deadline, !(deadline >= 0 && deadline.isFinite) {
            throw ValidationError("--deadline must be 0 or more seconds.")
        }
        guard maxBody > 0 else { throw ValidationError("--max-body must be positive.") }
        guard !applicationId.isEmpty else { throw ValidationError("--app-id must not be empty.") }
    }

    func execute(_ console: Console) throws(Failure) {
        var limits = Limits.untrusted
        if let deadline { limits.deadlineSeconds = deadline > 0 ? deadline : nil }
        let backend: any QueryBackend
        if let file {
            let database: Database
            do throws(DataFileError) { database = try Database(contentsOfFile: file, className: nil) } catch {
                throw .data(error)
            }
            backend = InMemoryBackend(database: database, limits: limits)
        } else {
            backend = try StoreSource.opening(store ?? "", limits: limits).backend
        }
        let server = QuarryServer(
            backend: backend,
            configuration: ServerConfiguration(
                applicationId: applicationId, restKey: restKey, masterKey: masterKey,
                profile: profile, limits: limits, maxBodyBytes: maxBody))
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let host = host, port = port
        Task.detached {
            do { try await server.run(host: host, port: port) } catch { outcome.set("\(error)") }
            done.signal()
        }
        done.wait()
        if let message = outcome.message { throw .usage("cannot serve on \(host):\(port): \(message)") }
    }
}

/// The server's failure, handed from its task to the waiting command.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: String?

    func set(_ message: String) { lock.withLock { stored = message } }
    var message: String? { lock.withLock { stored } }
}
