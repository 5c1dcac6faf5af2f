import QuarryCore

extension Leaf {
    /// The leaf with its subject key path (the one a typed leaf reads) renamed, so that the
    /// reference can evaluate it on a synthetic object holding nothing, or null, there.
    func replacingSubject(_ path: FieldPath, with replacement: FieldPath) -> Leaf? {
        var l = self
        func swap(_ e: Expr) -> Expr? { e == .key(path) ? .key(replacement) : nil }
        switch condition {
        case .compare(let a, let op, let b, let o):
            guard let a = swap(a) else { return nil }
            l.condition = .compare(a, op, b, o)
        case .between(let e, let lo, let hi):
            guard let e = swap(e) else { return nil }
            l.condition = .between(e, lower: lo, upper: hi)
        case .inCollection(let e, let c, let o):
            if let e = swap(e) {
                l.condition = .inCollection(e, c, o)
            } else if let c = swap(c) {
                l.condition = .inCollection(e, c, o)
            } else {
                return nil
            }
        case .isNull(let e):
            guard let e = swap(e) else { return nil }
            l.condition = .isNull(e)
        case .string(let e, let op, let pattern, let o):
            guard let e = swap(e) else { return nil }
            l.condition = .string(e, op, pattern, o)
        case .containsAll(let e, let list):
            guard let e = swap(e) else { return nil }
            l.condition = .containsAll(e, list)
        case .containedBy(let e, let list):
            guard let e = swap(e) else { return nil }
            l.condition = .containedBy(e, list)
        case .arraySize(let e, let n):
            guard let e = swap(e) else { return nil }
            l.condition = .arraySize(e, n)
        case .quantified(let q, let e, let variable, let p):
            guard let e = swap(e) else { return nil }
            l.condition = .quantified(q, e, variable: variable, p)
        case .text(let k, let s):
            guard k == path else { return nil }
            l.condition = .text(replacement, s)
        case .geo(let g):
            guard g.key == path else { return nil }
            l.condition = .geo(g.withKey(replacement))
        default:
            return nil
        }
        return l
    }
}

extension GeoCondition {
    func withKey(_ k: FieldPath) -> GeoCondition {
        switch self {
        case .near(_, let p, let d): return .near(k, p, maxDistance: d)
        case .withinBox(_, let sw, let ne): return .withinBox(k, southwest: sw, northeast: ne)
        case .withinPolygon(_, let ps): return .withinPolygon(k, ps)
        case .withinCircle(_, let c, let r): return .withinCircle(k, center: c, radius: r)
        case .polygonContains(_, let p): return .polygonContains(k, p)
        case .distance(_, let from, let op, let d): return .distance(k, from: from, op, d)
        }
    }
}
