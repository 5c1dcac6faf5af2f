import Foundation
import Quarry
import QuarryEngine
import QuarrySQLite
import QuarryTestSupport
import Testing

@testable import QuarryCLI

/// `quarry serve --index …` declares each class's indexes together through
/// `QueryBackend.createIndexes` (the in-memory engine builds them side by side, and refuses
/// them whole), and a refused one is still named by its option.
@Suite struct ServeIndexTests {
    static let database = SyntheticData(rows: 200).database()

    static func indexes(_ backend: any QueryBackend, of className: String) async throws -> [String] {
        let catalog = try await backend.catalog().first { $0.name == className }
        return (catalog?.indexes ?? []).map { "\($0.kind) \($0.key)" }.sorted()
    }

    /// The in-memory engine, or the SQLite store of the same objects (whose `createIndexes` is
    /// the protocol's: in turn).
    static func backend(_ kind: String, folder: URL) async throws -> any QueryBackend {
        guard kind == "sqlite" else { return InMemoryBackend(engine: Engine(database: database)) }
        let store = try SQLiteStore(path: folder.appendingPathComponent("serve.sqlite").path)
        try await store.write(
            database.classNames.flatMap { name in
                (database[name]?.records ?? []).map { StoreChange.save($0, in: name) }
            })
        return store
    }

    static func declare(_ specs: [String], on backend: any QueryBackend) async -> String? {
        await ServeCommand.declare(ServeCommand.indexes(specs, schema: database), on: backend)
    }

    @Test(arguments: ["memory", "sqlite"])
    func eachClassesIndexesAreDeclared(_ kind: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let backend = try await Self.backend(kind, folder: folder)
        let message = await Self.declare(
            ["Person.age", "City.population", "Person.name:hash", "Person.location"], on: backend)
        #expect(message == nil)
        #expect(try await Self.indexes(backend, of: "Person") == ["geo location", "hash name", "ordered age"])
        #expect(try await Self.indexes(backend, of: "City") == ["ordered population"])

        // A class that does not exist is refused and named by its option, after the classes
        // before it have their indexes.
        let refused = await Self.declare(["Person.score", "Nobody.x", "City.country"], on: backend)
        #expect(refused?.hasPrefix("--index Nobody.x: ") == true, "\(refused ?? "nil")")
        #expect(
            try await Self.indexes(backend, of: "Person") == [
                "geo location", "hash name", "ordered age", "ordered score",
            ])
        #expect(try await Self.indexes(backend, of: "City") == ["ordered population"])
    }

    @Test func aMisspelledFieldIsNamedByItsOptionAmongItsClasses() async throws {
        let engine = Engine(database: Self.database)
        let backend = InMemoryBackend(engine: engine)
        // Refused whole by the engine, then declared in turn to name the option.
        let message = await Self.declare(["Person.age", "Person.agee", "Person.name"], on: backend)
        #expect(
            message?.hasPrefix("--index Person.agee: no object of Person has a field 'agee'") == true,
            "\(message ?? "nil")")
        #expect(try await Self.indexes(backend, of: "Person") == ["ordered age"])
        // Refused whole: nothing of the batch is declared.
        await #expect(throws: Diagnostic.self) {
            try await backend.createIndexes([(.ordered, "score"), (.ordered, "agee")], in: "Person")
        }
        #expect(try await Self.indexes(backend, of: "Person") == ["ordered age"])
    }
}
