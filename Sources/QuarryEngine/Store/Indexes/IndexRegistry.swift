import QuarryCore

/// The indexes declared on one class, kept current as its rows change: incrementally for
/// indexes whose entries depend only on their own row, by a rebuild before the next use for
/// the others (geo grids, pointer steps, pointer values).
final class IndexRegistry {
    private(set) var values: [ValueIndex] = []
    private(set) var geo: [GeoIndex] = []

    var isEmpty: Bool { values.isEmpty && geo.isEmpty }

    func add(_ index: ValueIndex) { values.append(index) }
    func add(_ index: GeoIndex) { geo.append(index) }

    func remove(kind: IndexKind, path: KeyPath) -> Bool {
        let before = values.count + geo.count
        if kind == .geo { geo.removeAll { $0.path == path } } else { values.removeAll { $0.kind == kind && $0.path == path } }
        return values.count + geo.count != before
    }

    /// A row of this class was added or replaced (`old` is the record it replaced).
    func rowChanged(_ row: Int, old: Record?, new: Record, _ resolver: KeyPathResolver) {
        for index in values where !index.isStale {
            if index.dependsOnOtherClasses {
                index.markStale()
                continue
            }
            if let old { index.remove(row, IndexEntries(old, index.path, resolver)) }
            index.add(row, IndexEntries(new, index.path, resolver))
        }
        for index in geo { index.markStale() }
    }

    /// A row of this class was removed; later rows moved up.
    func rowRemoved(_ row: Int, old: Record, _ resolver: KeyPathResolver) {
        for index in values where !index.isStale {
            if index.dependsOnOtherClasses {
                index.markStale()
                continue
            }
            index.remove(row, IndexEntries(old, index.path, resolver))
            index.renumber(after: row)
        }
        for index in geo { index.markStale() }
    }

    /// Another class changed: indexes that look into other classes are stale.
    func otherClassChanged() {
        for index in values where index.dependsOnOtherClasses { index.markStale() }
        for index in geo where index.dependsOnOtherClasses { index.markStale() }
    }
}
