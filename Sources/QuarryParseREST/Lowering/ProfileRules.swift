import QuarryCore

/// The per-profile rules a `where` request is checked against (docs/SEMANTICS.md#profiles). The
/// engine applies default limits and inner-query truncation from `Profile`; these are the rules
/// that reject or rewrite what the request itself says.
struct ProfileRules {
    let profile: Profile

    /// Parse, LeanCloud and MaxLeap share the hosted-Parse lineage and its restrictions.
    var isCompatibility: Bool {
        switch profile {
        case .parse, .leancloud, .maxleap: return true
        case .exact, .backendless: return false
        }
    }

    /// Hosted Parse: "The maximum value accepted by skip is 10,000."
    var maxSkip: Int? { profile == .parse ? 10_000 : nil }

    /// Hosted Parse: "Using the nearGeoPoint constraint will also limit results to within 100 miles."
    var nearDefaultMaxDistance: Distance? { profile == .parse ? Distance(100, .miles) : nil }

    /// LeanCloud's inverted selection: `keys=-author` leaves `author` out.
    var allowsInvertedKeys: Bool { profile == .leancloud }

    /// The limit to put in the query, or nil after reporting why the written one is invalid.
    /// Parse rejects limits outside 0…max with 117; LeanCloud and MaxLeap cap larger ones
    /// ("LeanCloud would only return 1,000 results even it is set to be greater than 1000");
    /// Backendless page sizes run from 1 to 100.
    func limit(
        _ written: Located<Int>, inner: Bool, counting: Bool,
        problems: inout Problems
    ) -> Int? {
        let n = written.value
        let max = inner ? profile.maxInnerLimit : profile.maxLimit
        if n < 0 {
            problems.add(
                .json.limit, "a limit must be a non-negative integer, not \(n)",
                at: written.location)
            return nil
        }
        switch profile {
        case .exact:
            return n
        case .parse:
            if let max, n > max {
                problems.add(
                    .json.limit, "a limit must be between 0 and \(max) in the parse profile, not \(n)",
                    at: written.location,
                    notes: ["hosted Parse: \"anything from 1 to 1000 is a valid limit\""])
                return nil
            }
            return n
        case .leancloud, .maxleap:
            if let max, n > max { return max }
            return n
        case .backendless:
            if n == 0 && counting { return n }
            if let max, n < 1 || n > max {
                problems.add(
                    .json.limit, "the page size must be between 1 and \(max), not \(n)",
                    at: written.location)
                return nil
            }
            return n
        }
    }

    func skip(_ written: Located<Int>, problems: inout Problems) -> Int? {
        let n = written.value
        if n < 0 {
            problems.add(
                .json.skip, "skip must be a non-negative integer, not \(n)",
                at: written.location)
            return nil
        }
        if let maxSkip, n > maxSkip {
            problems.add(
                .json.skip, "skip must be at most \(maxSkip) in the parse profile, not \(n)",
                at: written.location,
                notes: ["sort on an indexed key such as createdAt and filter past the last row instead"])
            return nil
        }
        return n
    }

    /// Every profile rejects coordinates beyond ±90 / ±180 (and NaN); Parse and MaxLeap also
    /// reject the extremes themselves ("Latitude should not be -90.0 or 90.0").
    func check(_ p: GeoPoint, at location: Location, problems: inout Problems) {
        if outOfRange(p.latitude, 90) {
            let range = excludesExtremes ? "strictly between -90 and 90" : "between -90 and 90"
            problems.add(
                .json.geoRange, "latitude \(p.latitude) is out of range; it must be \(range)",
                at: location)
        }
        if outOfRange(p.longitude, 180) {
            let range = excludesExtremes ? "strictly between -180 and 180" : "between -180 and 180"
            problems.add(
                .json.geoRange, "longitude \(p.longitude) is out of range; it must be \(range)",
                at: location)
        }
    }

    private var excludesExtremes: Bool { profile == .parse || profile == .maxleap }

    private func outOfRange(_ v: Double, _ limit: Double) -> Bool {
        !v.isFinite || abs(v) > limit || (excludesExtremes && abs(v) == limit)
    }

    /// A distance is a non-negative number (in every profile).
    static func validDistance(_ d: Distance) -> Bool { d.value.isFinite && d.value >= 0 }

    /// A box whose south-west corner lies east of its north-east one: it would cross the
    /// antimeridian, which boxes may not.
    static func crossesAntimeridian(_ sw: GeoPoint, _ ne: GeoPoint) -> Bool { sw.longitude > ne.longitude }

    /// A box whose south-west corner lies north of its north-east one.
    static func southIsNorthOfNorth(_ sw: GeoPoint, _ ne: GeoPoint) -> Bool { sw.latitude > ne.latitude }

    /// Whether the lowering takes a geo condition with these values: its points within range,
    /// its distances non-negative numbers, a box's corners in order. A text template asks it of
    /// a condition it gave new values (docs/ARCHITECTURE.md#text-templates); each check is the
    /// one `Lowerer` reports with its location.
    func accepts(_ g: GeoCondition) -> Bool {
        func point(_ p: GeoPoint) -> Bool { !outOfRange(p.latitude, 90) && !outOfRange(p.longitude, 180) }
        func distance(_ d: Distance) -> Bool { Self.validDistance(d) }
        switch g {
        case .near(_, let p, let d): return point(p) && (d.map(distance) ?? true)
        case .withinBox(_, let sw, let ne):
            return point(sw) && point(ne) && !Self.crossesAntimeridian(sw, ne) && !Self.southIsNorthOfNorth(sw, ne)
        // A ring's points are never a template's parameters (its point count is checked too).
        case .withinPolygon: return false
        case .withinCircle(_, let p, let r): return point(p) && distance(r)
        case .polygonContains(_, let p): return point(p)
        case .distance(_, _, _, let d): return distance(d)
        }
    }
}
