import Foundation
import Quarry
import QuarrySQLite

/// A fresh store file in a folder of its own, removed when the test is done.
final class StoreFile {
    let folder: URL
    var path: String { folder.appendingPathComponent("store.sqlite").path }

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-store-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func open() throws -> SQLiteStore {
        try SQLiteStore(path: path, now: { 1_700_000_000_000 }, random: { 0.5 })
    }
}

extension SQLiteStore {
    /// Saves every object of the database, class by class in insertion order.
    func save(_ database: Database) throws {
        try apply(
            database.classNames.flatMap { name in
                (database[name]?.records ?? []).map { StoreChange.save($0, in: name) }
            })
    }
}
