import QuarryCore

/// Ranges on the coordinates of a geo-indexed key, gathered from the leading conjuncts
/// (`location.latitude BETWEEN 3 AND 3.5 AND location.longitude BETWEEN -97.2 AND -96.7`) into
/// one box the grid answers. The box is a superset, edges included: the conjuncts stay in the
/// filter and check each row exactly (strict bounds are widened to closed ones here).
enum CoordinateBox {
    /// One box per geo index whose coordinates the conjuncts bound, with the first conjunct used.
    static func find(_ conjuncts: [Filter], leading: Int, store: ColumnStore, className: String)
        -> [(index: GeoIndex, box: LatLonBox, first: Int)]
    {
        guard store.indexes[className]?.geo.isEmpty == false else { return [] }
        var found: [FieldPath: (box: LatLonBox, first: Int)] = [:]
        var order: [FieldPath] = []
        for i in 0..<leading {
            guard case .leaf(let l) = conjuncts[i], !l.negated, let (key, coordinate, lo, hi) = bounds(l.condition)
            else { continue }
            if found[key] == nil {
                found[key] = (LatLonBox(), i)
                order.append(key)
            }
            found[key]!.box.narrow(coordinate, lo, hi)
        }
        return order.compactMap { key in
            // Only when every row reaches nothing or one point: then `key.latitude` reaches
            // exactly that point's latitude, and a row outside the box fails the conjunct.
            guard let index = store.geoIndex(className, key), index.onlySinglePoints, let (box, first) = found[key]
            else { return nil }
            return (index, box, first)
        }
    }

    /// Whether `find` can take a literal as a bound (a number).
    static func isBound(_ v: Value) -> Bool { number(v, rounding: .down) != nil }

    /// Whether `find` takes a range of `key`'s coordinates from the leaf.
    static func bounds(_ l: Leaf, of key: FieldPath) -> Bool {
        !l.negated && bounds(l.condition)?.0 == key
    }

    /// The geo key, the coordinate and the closed range a leaf bounds it to (a superset of its
    /// matches: strict bounds widen to closed ones).
    private static func bounds(_ c: Condition) -> (FieldPath, LatLonBox.Coordinate, Double, Double)? {
        switch c {
        case .compare(.key(let k), let op, .literal(let v), _):
            return range(k, op, v)
        case .compare(.literal(let v), let op, .key(let k), _):
            let flipped: ComparisonOperator
            switch op {
            case .lt: flipped = .gt
            case .le: flipped = .ge
            case .gt: flipped = .lt
            case .ge: flipped = .le
            default: flipped = op
            }
            return range(k, flipped, v)
        case .between(.key(let k), .literal(let lo), .literal(let hi)):
            guard let (key, coordinate) = coordinate(k), let a = number(lo, rounding: .down),
                let b = number(hi, rounding: .up)
            else { return nil }
            return (key, coordinate, a, b)
        default:
            return nil
        }
    }

    private static func range(_ k: FieldPath, _ op: ComparisonOperator, _ v: Value) -> (
        FieldPath, LatLonBox.Coordinate, Double, Double
    )? {
        guard let (key, coordinate) = coordinate(k) else { return nil }
        switch op {
        case .lt, .le: return number(v, rounding: .up).map { (key, coordinate, .nan, $0) }
        case .gt, .ge: return number(v, rounding: .down).map { (key, coordinate, $0, .infinity) }
        case .eq:
            guard let a = number(v, rounding: .down), let b = number(v, rounding: .up) else { return nil }
            return (key, coordinate, a, b)
        case .ne: return nil
        }
    }

    private static func coordinate(_ k: FieldPath) -> (FieldPath, LatLonBox.Coordinate)? {
        guard let parent = k.parent else { return nil }
        switch k.last {
        case "latitude": return (parent, .latitude)
        case "longitude": return (parent, .longitude)
        default: return nil
        }
    }

    /// A numeric literal as a double bound (NaN included: it sorts before every number); an
    /// int a double cannot hold exactly becomes an open side (rounding could otherwise cut
    /// off a value the comparison keeps).
    private static func number(_ v: Value, rounding: FloatingPointRoundingRule) -> Double? {
        switch v {
        case .int(let i):
            if let d = Double(exactly: i) { return d }
            return rounding == .down ? .nan : .infinity
        case .double(let d): return d
        default: return nil
        }
    }
}

extension CoordinateBox {
    /// The bounded sides of a box, for EXPLAIN: `latitude [3.0, 3.5] longitude [-97.2, -96.7]`.
    static func describe(_ box: LatLonBox) -> String {
        func side(_ name: String, _ lo: Double, _ hi: Double) -> String? {
            let openLow = lo.isNaN, openHigh = hi == .infinity
            guard !openLow || !openHigh else { return nil }
            let low = openLow ? "…" : PredicateText.render(.double(lo))
            let high = openHigh ? "…" : PredicateText.render(.double(hi))
            return "\(name) [\(low), \(high)]"
        }
        return [side("latitude", box.south, box.north), side("longitude", box.west, box.east)].compactMap { $0 }.joined(
            separator: " ")
    }
}
