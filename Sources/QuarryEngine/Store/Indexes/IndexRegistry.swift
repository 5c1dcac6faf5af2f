import QuarryCore

/// What the registry needs of an index to keep it current row by row.
protocol RowIndex: AnyObject {
    var path: FieldPath { get }
    var dependents: DependentRows { get }
    func add(_ row: Int, _ e: IndexEntries)
    func remove(_ row: Int, _ e: IndexEntries)
}

extension ValueIndex: RowIndex {}
extension GeoIndex: RowIndex {}

/// The indexes declared on one class, kept current in place as objects change: the changed
/// object's own row, and the rows whose entries reached it through pointers. Entries are read
/// before the change (to take out) and after it (to put in), so the registry works the same
/// whatever the store reads rows from.
final class IndexRegistry {
    private(set) var values: [ValueIndex] = []
    private(set) var geo: [GeoIndex] = []

    /// The same indexes for a copy of the store, sharing their storage until changed.
    func copy() -> IndexRegistry {
        let c = IndexRegistry()
        c.values = values.map { $0.copy() }
        c.geo = geo.map { $0.copy() }
        return c
    }

    func add(_ index: ValueIndex) { values.append(index) }
    func add(_ index: GeoIndex) { geo.append(index) }

    func remove(kind: IndexKind, path: FieldPath) -> Bool {
        let before = values.count + geo.count
        if kind == .geo {
            geo.removeAll { $0.path == path }
        } else {
            values.removeAll { $0.kind == kind && $0.path == path }
        }
        return values.count + geo.count != before
    }

    private var all: [any RowIndex] { values + geo }

    /// Entries one index had for one row before a change.
    struct Before {
        let index: any RowIndex
        let row: Int
        let entries: IndexEntries
        /// The changed object's own row (else a row that reached it).
        let isOwn: Bool
    }

    /// How a change left the changed object's row in this class.
    enum Change {
        case inserted(row: Int)
        case replaced(row: Int)
        /// The row's object was deleted (the row stays, empty).
        case removed(row: Int)
    }

    /// Before `object` changes: the entries of its own row (`ownRow`, when it is a row of this
    /// class) and of the rows that reached it. `entries(path, row)` reads the current data.
    func before(_ object: ObjectKey, ownRow: Int?, _ entries: (FieldPath, Int) -> IndexEntries) -> [Before] {
        var out: [Before] = []
        for index in all {
            if let ownRow {
                out.append(Before(index: index, row: ownRow, entries: entries(index.path, ownRow), isOwn: true))
            }
            for row in index.dependents.rows(reaching: object) where Int(row) != ownRow {
                out.append(Before(index: index, row: Int(row), entries: entries(index.path, Int(row)), isOwn: false))
            }
        }
        return out
    }

    /// After the change: entries read before are taken out and the rows' new ones put in.
    /// `change` is nil when the object is not of this class.
    func after(_ before: [Before], _ change: Change?, _ entries: (FieldPath, Int) -> IndexEntries) {
        for index in all {
            switch change {
            case .inserted(let row)?: index.add(row, entries(index.path, row))
            case .replaced, .removed, nil: break
            }
        }
        for b in before where b.isOwn {
            switch change {
            case .replaced(let row)?:
                b.index.remove(row, b.entries)
                b.index.add(row, entries(b.index.path, row))
            case .removed(let row)?:
                b.index.remove(row, b.entries)
            case .inserted?, nil: break
            }
        }
        for b in before where !b.isOwn {
            b.index.remove(b.row, b.entries)
            b.index.add(b.row, entries(b.index.path, b.row))
        }
    }
}
