import CSQLite
import Quarry

/// The functions the translated SQL calls, registered on each connection. Each computes what
/// Quarry computes, with the same code, so that borderline rows agree:
///
/// - `quarry_distance(lat1, lon1, lat2, lon2)`: great-circle metres (`Geo.meters`, haversine
///   with R = 6371 km); NULL when a coordinate is NULL.
/// - `quarry_in_polygon(lat, lon, vertices)`: `Geo.polygon(_:contains:)`; the vertices are
///   `lat lon;lat lon;…`, parsed once per statement.
/// - `quarry_regexp(pattern, flags, subject)`: PCRE2 through `CompiledRegex`; `flags` holds
///   `imxs` and `w` for a whole-string match. NULL for a NULL subject; an invalid pattern or a
///   spent budget fails the statement, as it fails the query in Quarry.
/// - `quarry_regexp(pattern, flags, subject, undecided)`: the match where the first, uncharged
///   limit of the budget decides it (`CompiledRegex.matchesWithoutCharge`), and `undecided` (0 or
///   1) where it does not or the pattern is invalid, instead of failing: the store's superset of
///   a regex conjunct that may throw (docs/STORAGE.md#regular-expressions).
enum SQLiteFunctions {
    static func register(on db: OpaquePointer, limits: Limits) throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        try check(db, sqlite3_create_function_v2(db, "quarry_distance", 4, flags, nil, distance, nil, nil, nil))
        try check(db, sqlite3_create_function_v2(db, "quarry_in_polygon", 3, flags, nil, inPolygon, nil, nil, nil))
        let box = Unmanaged.passRetained(LimitsBox(limits)).toOpaque()
        try check(db, sqlite3_create_function_v2(db, "quarry_regexp", 3, flags, box, regexp, nil, nil, releaseBox))
        let lenientBox = Unmanaged.passRetained(LimitsBox(limits)).toOpaque()
        try check(
            db, sqlite3_create_function_v2(db, "quarry_regexp", 4, flags, lenientBox, regexp, nil, nil, releaseBox))
    }

    private static func check(_ db: OpaquePointer, _ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(db))) }
    }
}

private final class LimitsBox {
    let limits: Limits
    init(_ limits: Limits) { self.limits = limits }
}

/// What a statement keeps between rows for a constant argument (`sqlite3_set_auxdata`).
private final class Prepared<T> {
    let value: T
    init(_ value: T) { self.value = value }
}

private let releaseBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
    guard let p else { return }
    Unmanaged<AnyObject>.fromOpaque(p).release()
}

private func argument(_ argv: UnsafeMutablePointer<OpaquePointer?>?, _ i: Int) -> OpaquePointer? {
    argv?[i]
}

private func double(_ v: OpaquePointer?) -> Double? {
    guard let v, sqlite3_value_type(v) != SQLITE_NULL else { return nil }
    return sqlite3_value_double(v)
}

private func text(_ v: OpaquePointer?) -> String? {
    guard let v, sqlite3_value_type(v) != SQLITE_NULL, let p = sqlite3_value_text(v) else { return nil }
    return String(cString: p)
}

/// The object cached for argument `index`, made by `make` on the first row.
private func cached<T>(_ context: OpaquePointer?, _ index: Int32, _ make: () -> T?) -> T? {
    if let p = sqlite3_get_auxdata(context, index) {
        return Unmanaged<Prepared<T>>.fromOpaque(p).takeUnretainedValue().value
    }
    guard let value = make() else { return nil }
    sqlite3_set_auxdata(context, index, Unmanaged.passRetained(Prepared(value)).toOpaque(), releaseBox)
    return value
}

private let distance: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, argv in
    guard let lat1 = double(argument(argv, 0)), let lon1 = double(argument(argv, 1)),
        let lat2 = double(argument(argv, 2)), let lon2 = double(argument(argv, 3))
    else { return sqlite3_result_null(context) }
    sqlite3_result_double(
        context,
        Geo.meters(
            GeoPoint(latitude: lat1, longitude: lon1),
            GeoPoint(latitude: lat2, longitude: lon2)))
}

private let inPolygon: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, argv in
    guard let lat = double(argument(argv, 0)), let lon = double(argument(argv, 1)) else {
        return sqlite3_result_null(context)
    }
    let vertices: [GeoPoint]? = cached(context, 2) {
        text(argument(argv, 2)).flatMap(SQLitePolygonText.parse)
    }
    guard let vertices else { return sqlite3_result_error(context, "quarry_in_polygon: malformed vertices", -1) }
    sqlite3_result_int(context, Geo.polygon(vertices, contains: GeoPoint(latitude: lat, longitude: lon)) ? 1 : 0)
}

private let regexp: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, argc, argv in
    guard let subject = text(argument(argv, 2)) else { return sqlite3_result_null(context) }
    guard let box = sqlite3_user_data(context) else {
        return sqlite3_result_error(context, "quarry_regexp: no limits", -1)
    }
    let limits = Unmanaged<LimitsBox>.fromOpaque(box).takeUnretainedValue().limits
    var failure: String?
    let regex: CompiledRegex? = cached(context, 0) {
        guard let pattern = text(argument(argv, 0)), let letters = text(argument(argv, 1)) else { return nil }
        let flags = RegexFlags(letters: letters.filter { $0 != "w" }) ?? []
        do throws(Diagnostic) {
            return try CompiledRegex(
                pattern, options: RegexOptions(wholeString: letters.contains("w"), flags: flags),
                limits: limits)
        } catch {
            failure = error.description
            return nil
        }
    }
    if argc == 4 {
        let undecided = sqlite3_value_int(argument(argv, 3))
        return sqlite3_result_int(context, regex?.matchesWithoutCharge(subject).map { $0 ? 1 : 0 } ?? undecided)
    }
    guard let regex else { return sqlite3_result_error(context, failure ?? "quarry_regexp: no pattern", -1) }
    do throws(Diagnostic) {
        sqlite3_result_int(context, try regex.matches(subject) ? 1 : 0)
    } catch {
        sqlite3_result_error(context, error.description, -1)
    }
}

/// The vertex list `quarry_in_polygon` takes: `lat lon;lat lon;…`, written with Swift's
/// shortest round-trip digits so the doubles come back exactly.
enum SQLitePolygonText {
    static func format(_ vertices: [GeoPoint]) -> String {
        vertices.map { "\($0.latitude) \($0.longitude)" }.joined(separator: ";")
    }

    static func parse(_ text: String) -> [GeoPoint]? {
        var out: [GeoPoint] = []
        for pair in text.split(separator: ";") {
            let parts = pair.split(separator: " ")
            guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else { return nil }
            out.append(GeoPoint(latitude: lat, longitude: lon))
        }
        return out
    }
}
