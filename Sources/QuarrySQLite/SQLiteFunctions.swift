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
///   a regex conjunct that may throw (docs/STORAGE.md#regular-expressions). It also notes, on its
///   connection, that a match went undecided.
/// - `quarry_regexp_undecided()`: 1 when a four-argument `quarry_regexp` went undecided since the
///   last call, else 0; each call clears the note. Selected beside a row, it tells Quarry whether
///   the row's superset was exact. A note left by a row SQLite then dropped marks the next row
///   returned as well, which only costs that row a test in Quarry.
enum SQLiteFunctions {
    static func register(on db: OpaquePointer, limits: Limits) throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        try check(db, sqlite3_create_function_v2(db, "quarry_distance", 4, flags, nil, distance, nil, nil, nil))
        try check(db, sqlite3_create_function_v2(db, "quarry_in_polygon", 3, flags, nil, inPolygon, nil, nil, nil))
        let box = Unmanaged.passRetained(LimitsBox(limits)).toOpaque()
        try check(db, sqlite3_create_function_v2(db, "quarry_regexp", 3, flags, box, regexp, nil, nil, releaseBox))
        // Not deterministic: each call must run, on its own row, to note what it could not decide.
        let lenientBox = Unmanaged.passRetained(LimitsBox(limits)).toOpaque()
        try check(
            db,
            sqlite3_create_function_v2(
                db, "quarry_regexp", 4, SQLITE_UTF8, lenientBox, lenientRegexp, nil, nil, releaseBox))
        // Holds its own reference to the same box, released with the function.
        let noteBox = Unmanaged<LimitsBox>.fromOpaque(lenientBox).retain().toOpaque()
        try check(
            db,
            sqlite3_create_function_v2(
                db, "quarry_regexp_undecided", 0, SQLITE_UTF8, noteBox, undecidedNote, nil, nil, releaseBox))
    }

    private static func check(_ db: OpaquePointer, _ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(db))) }
    }
}

private final class LimitsBox {
    let limits: Limits
    /// A lenient match went undecided since `quarry_regexp_undecided` last read this. A connection
    /// runs one statement step at a time, so no lock.
    var undecided = false
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
    context, _, argv in
    guard let subject = text(argument(argv, 2)) else { return sqlite3_result_null(context) }
    guard let box = sqlite3_user_data(context) else {
        return sqlite3_result_error(context, "quarry_regexp: no limits", -1)
    }
    let limits = Unmanaged<LimitsBox>.fromOpaque(box).takeUnretainedValue().limits
    var failure: String?
    let regex: CompiledRegex? = cached(context, 0) {
        do throws(Diagnostic) {
            return try compiledPattern(argv, limits: limits)
        } catch {
            failure = error.description
            return nil
        }
    }
    guard let regex else { return sqlite3_result_error(context, failure ?? "quarry_regexp: no pattern", -1) }
    do throws(Diagnostic) {
        sqlite3_result_int(context, try regex.matches(subject) ? 1 : 0)
    } catch {
        sqlite3_result_error(context, error.description, -1)
    }
}

/// `quarry_regexp`'s pattern (argument 0) compiled with its flags (argument 1: `imxs`, and `w`
/// for a whole-string match); nil when either is NULL.
private func compiledPattern(
    _ argv: UnsafeMutablePointer<OpaquePointer?>?, limits: Limits
) throws(Diagnostic) -> CompiledRegex? {
    guard let pattern = text(argument(argv, 0)), let letters = text(argument(argv, 1)) else { return nil }
    let flags = RegexFlags(letters: letters.filter { $0 != "w" }) ?? []
    return try CompiledRegex(
        pattern, options: RegexOptions(wholeString: letters.contains("w"), flags: flags), limits: limits)
}

/// The four-argument `quarry_regexp`: the subject's bytes as SQLite holds them (no `String` a
/// row), the compiled pattern and its match data kept for the statement, reached without a
/// reference count a row (it is called for every row a scan reads).
private let lenientRegexp: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, argv in
    guard let subject = argument(argv, 2), sqlite3_value_type(subject) != SQLITE_NULL else {
        return sqlite3_result_null(context)
    }
    guard let userData = sqlite3_user_data(context) else {
        return sqlite3_result_error(context, "quarry_regexp: no limits", -1)
    }
    let box = Unmanaged<LimitsBox>.fromOpaque(userData)
    // `sqlite3_value_text` before `sqlite3_value_bytes`: the count is then the text's.
    let bytes = sqlite3_value_text(subject)
    let utf8 = UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_value_bytes(subject)))
    let matched: Bool?
    if bytes == nil {
        matched = nil
    } else if let kept = sqlite3_get_auxdata(context, 0) {
        matched = Unmanaged<LenientRegex>.fromOpaque(kept)._withUnsafeGuaranteedRef { $0.matches(utf8) }
    } else if let made = LenientRegex(argv, limits: box._withUnsafeGuaranteedRef { $0.limits }) {
        // SQLite may drop the kept object at once; `made` holds it for this row.
        sqlite3_set_auxdata(context, 0, Unmanaged.passRetained(made).toOpaque(), releaseBox)
        matched = made.matches(utf8)
    } else {
        matched = nil
    }
    guard let matched else {
        box._withUnsafeGuaranteedRef { $0.undecided = true }
        return sqlite3_result_int(context, sqlite3_value_int(argument(argv, 3)))
    }
    sqlite3_result_int(context, matched ? 1 : 0)
}

/// A lenient `quarry_regexp`'s pattern, compiled once a statement, with its match data.
private final class LenientRegex {
    let regex: CompiledRegex
    let data: RegexMatchData

    /// Nil when the pattern does not compile (every row is then undecided).
    init?(_ argv: UnsafeMutablePointer<OpaquePointer?>?, limits: Limits) {
        guard let regex = try? compiledPattern(argv, limits: limits),
            let data = try? regex.makeMatchData()
        else { return nil }
        (self.regex, self.data) = (regex, data)
    }

    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool? { regex.matchesWithoutCharge(utf8: subject, data) }
}

private let undecidedNote: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, _ in
    guard let box = sqlite3_user_data(context) else { return sqlite3_result_int(context, 1) }
    let limitsBox = Unmanaged<LimitsBox>.fromOpaque(box).takeUnretainedValue()
    sqlite3_result_int(context, limitsBox.undecided ? 1 : 0)
    limitsBox.undecided = false
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
