import Foundation

/// The catalog a store's readers last read, reused while the catalog's version in the reader's
/// own snapshot is unchanged (docs/STORAGE.md#fixed-cost-per-query): a short query otherwise
/// spends more on reading the catalog than on its own rows. Each store counts its version up
/// inside every transaction that changes its catalog, so a version names one committed
/// catalog. Only read transactions may use it: what a write transaction reads may still be
/// rolled back, and its version be reused by another.
package final class CatalogCache<Catalog>: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: (version: Int64, catalog: Catalog)?

    package init() {}

    /// The catalog at `version`: the one kept, or `load`'s, which is kept unless a newer one
    /// is (an older snapshot's catalog never replaces a newer one).
    package func catalog(version: Int64, load: () throws -> Catalog) rethrows -> Catalog {
        if let hit = kept(version) { return hit }
        let catalog = try load()
        lock.lock()
        defer { lock.unlock() }
        if (latest?.version ?? .min) < version { latest = (version, catalog) }
        return catalog
    }

    /// The catalog kept and its version, for a reader that sends its query on it before its
    /// own snapshot's version has come back (and checks that version before using the answer).
    package var kept: (version: Int64, catalog: Catalog)? {
        lock.lock()
        defer { lock.unlock() }
        return latest
    }

    private func kept(_ version: Int64) -> Catalog? {
        lock.lock()
        defer { lock.unlock() }
        return latest?.version == version ? latest?.catalog : nil
    }
}
