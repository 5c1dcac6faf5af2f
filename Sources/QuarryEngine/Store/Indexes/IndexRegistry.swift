import QuarryCore

/// The indexes declared on one class, kept current as its rows change: in place for indexes
/// whose entries depend only on their own row, by a rebuild before the next use for the
/// others (paths through pointers, pointer values: their entries change with other objects).
final class IndexRegistry {
    private(set) var values: [ValueIndex] = []
    private(set) var geo: [GeoIndex] = []

    func add(_ index: ValueIndex) { values.append(index) }
    func add(_ index: GeoIndex) { geo.append(index) }

    func remove(kind: IndexKind, path: KeyPath) -> Bool {
        let before = values.count + geo.count
        if kind == .geo { geo.removeAll { $0.path == path } } else { values.removeAll { $0.kind == kind && $0.path == path } }
        return values.count + geo.count != before
    }

    /// A row of this class was added or replaced; `entries(path, old)` gives what the
    /// replaced version (`old` true) or the new one reaches at a path.
    func rowChanged(_ row: Int, replaced: Bool, _ entries: (KeyPath, _ old: Bool) -> IndexEntries) {
        for index in values where !index.isStale {
            if index.dependsOnOtherClasses {
                index.markStale()
                continue
            }
            if replaced { index.remove(row, entries(index.path, true)) }
            index.add(row, entries(index.path, false))
        }
        for index in geo where !index.isStale {
            if index.dependsOnOtherClasses {
                index.markStale()
                continue
            }
            if replaced { index.remove(row, entries(index.path, true)) }
            index.add(row, entries(index.path, false))
        }
    }

    /// A row of this class was removed (`entries(path)`: what it reached); later rows moved up.
    func rowRemoved(_ row: Int, _ entries: (KeyPath) -> IndexEntries) {
        for index in values where !index.isStale {
            if index.dependsOnOtherClasses {
                index.markStale()
                continue
            }
            index.remove(row, entries(index.path))
            index.renumber(after: row)
        }
        for index in geo where !index.isStale {
            if index.dependsOnOtherClasses {
                index.markStale()
                continue
            }
            index.remove(row, entries(index.path))
            index.renumber(after: row)
        }
    }

    /// Another class changed: indexes that look into other classes are stale.
    func otherClassChanged() {
        for index in values where index.dependsOnOtherClasses { index.markStale() }
        for index in geo where index.dependsOnOtherClasses { index.markStale() }
    }
}
