import QuarryCore

extension Evaluation {
    /// filter → order → count (ignoring skip and limit) → skip/limit with the profile's
    /// default and cap → includes → keys / excludeKeys.
    func run(_ query: Query) throws(Diagnostic) -> QueryResult {
        let matched = try filter(query)
        if query.count { return .count(matched.count) }
        var limit = query.limit ?? query.profile.defaultLimit
        if let l = limit, let cap = query.profile.maxLimit, l > cap { limit = cap }
        let rows = try page(try sorted(matched, query), skip: query.skip, limit: limit)
        return .records(rows.map { shape($0, query) })
    }

    /// The objects of the query's class that satisfy its predicate, in insertion order.
    func filter(_ query: Query) throws(Diagnostic) -> [Record] {
        guard source.hasClass(query.className) else { throw QueryValidator.unknownClass(query.className) }
        var matched: [Record] = []
        for position in 0..<source.objectCount(in: query.className) {
            try visitRow()
            guard let record = source.record(at: position, in: query.className) else { continue }
            if try evaluate(query.predicate, Scope(record: record, className: query.className)) {
                matched.append(record)
            }
        }
        return matched
    }

    /// The records in the query's order. Stable: ties keep their insertion order.
    func sorted(_ records: [Record], _ query: Query) throws(Diagnostic) -> [Record] {
        guard !query.order.isEmpty else { return records }
        var keys: [[SortValue]] = []
        keys.reserveCapacity(records.count)
        for record in records {
            try visitRow()
            keys.append(query.order.map { sortValue($0, record) })
        }
        let ascending = query.order.map { $0.direction == .ascending }
        let positions = records.indices.sorted { i, j in
            for n in ascending.indices {
                let c = keys[i][n].compare(keys[j][n])
                if c != 0 { return ascending[n] ? c < 0 : c > 0 }
            }
            return i < j
        }
        return positions.map { records[$0] }
    }

    /// `skip` rows dropped, then at most `limit` kept (nil: all). Negative values are errors.
    func page(_ records: [Record], skip: Int?, limit: Int?) throws(Diagnostic) -> [Record] {
        let skip = skip ?? 0
        guard skip >= 0 else { throw Diagnostic(.query.invalidSkip, "skip must be 0 or more, not \(skip)") }
        if let limit, limit < 0 {
            throw Diagnostic(.query.invalidLimit, "limit must be 0 or more, not \(limit)")
        }
        let from = Swift.min(skip, records.count)
        let to = limit.map { Swift.min(records.count - from, $0) + from } ?? records.count
        // The whole array passed on, not copied record by record.
        return from == 0 && to == records.count ? records : Array(records[from..<to])
    }

    private func sortValue(_ key: SortKey, _ record: Record) -> SortValue {
        switch key {
        case .key(let path, _):
            return .value(resolver.resolve(path, in: record).value ?? .null)
        case .distance(let path, let point, _):
            // The nearest of the points at the key (a field may hold several).
            let points = sqlValues(resolver.resolve(path, in: record)).compactMap { v -> Double? in
                guard case .geoPoint(let p) = v else { return nil }
                return Geo.meters(point, p)
            }
            return .distance(points.min())
        }
    }
}

/// What a record sorts by for one sort key.
enum SortValue {
    case value(Value)
    /// Metres to the sort point; nil (no geo point) sorts after every distance.
    case distance(Double?)

    func compare(_ other: SortValue) -> Int {
        switch (self, other) {
        case (.value(let a), .value(let b)): return Value.sortOrder(a, b)
        case (.distance(let a), .distance(let b)):
            switch (a, b) {
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            case (let x?, let y?): return x < y ? -1 : (x == y ? 0 : 1)
            }
        default: return 0
        }
    }
}

extension SortKey {
    var direction: SortDirection {
        switch self {
        case .key(_, let d), .distance(_, _, let d): return d
        }
    }
}

/// The answer to a query: the matching objects in result order, or their number when the
/// query asked only for a count.
public enum QueryResult: Hashable, Sendable {
    case records([Record])
    case count(Int)

    /// The objects (empty for a count).
    public var records: [Record] {
        if case .records(let r) = self { return r }
        return []
    }

    /// The objectIds of the objects, in order (empty for a count).
    public var objectIds: [String] { records.map(\.objectId) }
}
