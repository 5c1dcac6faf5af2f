import QuarryCore

/// ORDER BY over matched rows, as the reference sorts: by `Value.sortOrder` of each key's
/// value (missing as null, nulls first ascending) or by distance (no point: last), ties kept in
/// row order. Typed columns compare typed; everything else compares boxed values.
struct RowSorter {
    private let keys: [SortColumn]
    private let ascending: [Bool]

    /// Positions into `rows` break ties: rows of equal keys must be in row order in it.
    init(_ order: [SortKey], rows: [Int], ctx: ExecContext) {
        keys = order.map { SortColumn($0, rows: rows, ctx: ctx) }
        ascending = order.map { $0.direction == .ascending }
    }

    /// Whether position `i` sorts before position `j`.
    @inline(__always)
    func before(_ i: Int, _ j: Int) -> Bool {
        for k in keys.indices {
            let c = keys[k].compare(i, j)
            if c != 0 { return ascending[k] ? c < 0 : c > 0 }
        }
        return i < j
    }

    /// The rows in order; with `first`, only that many (a bounded heap instead of a full sort).
    func sorted(_ rows: [Int], first: Int?) -> [Int] {
        let n = rows.count
        if let k = first, k < n / 4 {
            return topK(n, k).map { rows[$0] }
        }
        return Array(0..<n).sorted(by: before).map { rows[$0] }
    }

    /// The `k` first positions in order, keeping a heap whose root is the worst kept.
    private func topK(_ n: Int, _ k: Int) -> [Int] {
        guard k > 0 else { return [] }
        var heap: [Int] = []
        heap.reserveCapacity(k)
        for i in 0..<n {
            if heap.count < k {
                heap.append(i)
                var c = heap.count - 1
                while c > 0 {
                    let p = (c - 1) / 2
                    guard before(heap[p], heap[c]) else { break }
                    heap.swapAt(p, c)
                    c = p
                }
            } else if before(i, heap[0]) {
                heap[0] = i
                var p = 0
                while true {
                    let l = 2 * p + 1, r = l + 1
                    var worst = p
                    if l < k, before(heap[worst], heap[l]) { worst = l }
                    if r < k, before(heap[worst], heap[r]) { worst = r }
                    if worst == p { break }
                    heap.swapAt(p, worst)
                    p = worst
                }
            }
        }
        return heap.sorted(by: before)
    }
}

/// One sort key's values for the matched rows, by position.
private enum SortColumn {
    /// Typed int or date values; `present[i]` false means null or missing (sorts first).
    case ints(present: [Bool], values: [Int64])
    case doubles(present: [Bool], values: [Double])
    case bools(present: [Bool], values: [Bool])
    case strings(present: [Bool], values: [String])
    case values([Value])
    case distances([Double?])

    init(_ key: SortKey, rows: [Int], ctx: ExecContext) {
        switch key {
        case .key(let path, _):
            if let typed = Self.typed(path, rows: rows, ctx: ctx) {
                self = typed
                return
            }
            let e = ctx.run.evaluation
            self = .values(
                rows.map { e.resolver.resolve(path, in: ctx.table.record($0, only: path.first)).value ?? .null })
        case .distance(let path, let point, _):
            let e = ctx.run.evaluation
            self = .distances(
                rows.map { row in
                    e.sqlValues(e.resolver.resolve(path, in: ctx.table.record(row, only: path.first))).compactMap {
                        v -> Double? in
                        guard case .geoPoint(let p) = v else { return nil }
                        return Geo.meters(point, p)
                    }.min()
                })
        }
    }

    /// Typed values when the key is a column of the class with no value of another type.
    private static func typed(_ path: FieldPath, rows: [Int], ctx: ExecContext) -> SortColumn? {
        guard path.components.count == 1, let column = ctx.table.column(path.components[0]),
            column.statistics.others == 0
        else { return nil }
        let present = rows.map { column.slots[$0] == Slot.value.rawValue }
        switch column {
        case let c as Int64Column:
            guard c.kind == .int || c.kind == .date else { return nil }
            return .ints(present: present, values: rows.map { c.values[$0] })
        case let c as DoubleColumn: return .doubles(present: present, values: rows.map { c.values[$0] })
        case let c as BoolColumn: return .bools(present: present, values: rows.map { c.values[$0] })
        case let c as StringColumn:
            return .strings(present: present, values: rows.indices.map { present[$0] ? c.string(at: rows[$0]) : "" })
        default: return nil
        }
    }

    @inline(__always)
    func compare(_ i: Int, _ j: Int) -> Int {
        switch self {
        case .ints(let p, let v):
            if p[i] != p[j] { return p[i] ? 1 : -1 }
            return p[i] ? (v[i] < v[j] ? -1 : (v[i] == v[j] ? 0 : 1)) : 0
        case .doubles(let p, let v):
            if p[i] != p[j] { return p[i] ? 1 : -1 }
            return p[i] ? Value.compareNumbers(.double(v[i]), .double(v[j])) : 0
        case .bools(let p, let v):
            if p[i] != p[j] { return p[i] ? 1 : -1 }
            return p[i] && v[i] != v[j] ? (v[i] ? 1 : -1) : 0
        case .strings(let p, let v):
            if p[i] != p[j] { return p[i] ? 1 : -1 }
            return p[i] ? Value.compareStrings(v[i], v[j]) : 0
        case .values(let v):
            return Value.sortOrder(v[i], v[j])
        case .distances(let d):
            switch (d[i], d[j]) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case (let x?, let y?): return x < y ? -1 : (x == y ? 0 : 1)
            }
        }
    }
}
