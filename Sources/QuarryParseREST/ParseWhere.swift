import QuarryCore
import QuarryData

/// The Parse REST `where` JSON front-end: the dialect the Parse, LeanCloud and MaxLeap SDKs
/// send (`GET /classes/GameScore?where={…}&order=-score&limit=10`).
///
/// `parse` reads either a bare where object or a whole find body
/// `{"where":{…},"order":"-score,name","limit":10,"skip":0,"keys":"a,b","excludeKeys":"c",
/// "include":"post.author","count":1}` and lowers it to a Core `Query` with Parse / MongoDB
/// semantics in every leaf:
///
/// - `"key": value` is equality; on an array field it means "contains". Matching an array or
///   object value exactly is Parse error 102. `null` matches a missing or null field.
/// - `$eq $ne $lt $lte $gt $gte`, `$in $nin $all $containedBy`, `$exists`, `$regex` with
///   `$options` (`imxs`), `$size`; `$ne`, `$nin`, `$notInQuery` and `$dontSelect` also match a
///   missing field. Comparisons take `{"$relativeTime": "3 days ago"}`. `$exists` asks for a
///   non-null value: the IR does not tell a stored null from a missing field there (as
///   parse-server on Postgres; on MongoDB a stored null "exists").
/// - `$regex` patterns of the SDKs' quoted form (`^\Q…\E`, `\Q…\E$`, `\Q…\E`, with at most the
///   `i` option) lower to `beginsWith` / `endsWith` / `contains`; see `QuotedRegex`.
/// - `$nearSphere` with `$maxDistance` (radians), `$maxDistanceInRadians`,
///   `$maxDistanceInKilometers` or `$maxDistanceInMiles` (Earth radius 6371 km): results are
///   sorted nearest first unless the request gives an `order`. `$within.$box` (no boxes across
///   the antimeridian), `$geoWithin.$polygon` / `$centerSphere`, `$geoIntersects.$point`.
/// - `$inQuery`, `$notInQuery`, `$select`, `$dontSelect` take inner queries
///   `{"className": …, "where": {…}}` and may carry `limit`, `skip` and `order`; how many rows
///   an inner query contributes is the engine's business (`Profile.defaultInnerLimit`).
/// - `$relatedTo {object, key}`, `$or`, `$and`, `$nor`.
/// - `$text {"$search": {"$term", "$language", "$caseSensitive", "$diacriticSensitive"}}` is a
///   token search (`Condition.text`): the field's string and the terms are split into runs of
///   Unicode letters and digits; the object matches when every term appears as a token of the
///   field (case- and diacritic-insensitive unless asked otherwise); a quoted phrase `"a b"`
///   must appear as consecutive tokens; a term with a leading `-` must not appear.
///
/// Bad input is reported as a `Diagnostic` listing every problem in `all`, each with a code (`json.key-name`, …), Parse's
/// numeric code (102 invalid query, 105 key name, 106 pointer, 107 JSON, 117 limit, 118 skip),
/// the JSON path (`where.$or[1].score.$gt`) and the bytes it concerns.
public enum ParseWhere {
    /// The query a where object or find body asks for, checked against the profile's rules.
    public static func parse(
        _ text: String, className: String, profile: Profile = .exact,
        limits: Limits = .default
    ) throws(Diagnostic) -> Query {
        let spec = try request(text, className: className, limits: limits)
        return try Lowerer.lower(spec, profile: profile, limits: limits)
    }

    /// The query as Parse REST JSON: a bare where object when it has no parameters, else a find
    /// body. IR that `where` JSON cannot express is a `translate.inexpressible` diagnostic; a
    /// schema lets SQL and NSPredicate tests on single-valued fields translate (see `Printer`).
    public static func print(_ query: Query, schema: (any Schema)? = nil) throws(Diagnostic) -> String {
        JSONWriter.string(try json(query, schema: schema))
    }

    static func json(_ query: Query, schema: (any Schema)?) throws(Diagnostic) -> JSON {
        RequestEncoder.json(try Printer.spec(query, schema: schema))
    }

    static func request(_ text: String, className: String, limits: Limits) throws(Diagnostic) -> QuerySpec {
        do throws(Diagnostic) {
            try QueryTextScreen.check(text, limits: limits)
        } catch {
            var d = error
            d.parseCode = d.diagnosticCode == .input.nul ? ParseCode.invalidJSON : ParseCode.invalidQuery
            throw d
        }
        let root: JSONNode
        do {
            // A where level takes up to four JSON levels (`{"$or":[{"k":{"$in":[…]}}]}`).
            root = try JSONParser(maxDepth: limits.maxNestingDepth * 4 + 4).parseLocated(text)
        } catch {
            var d = error
            d.parseCode = d.diagnosticCode.parseCode ?? ParseCode.invalidJSON
            throw d
        }
        var decoder = RequestDecoder(root: root)
        let spec = decoder.request(className: className)
        try decoder.problems.check()
        return spec
    }
}

extension QueryBuilder {
    /// The REST request the SDKs would send for this query (see `ParseWhere.print`).
    public func encoded(profile: Profile = .exact, limits: Limits = .default) throws(Diagnostic) -> String {
        try ParseWhere.print(build(profile: profile, limits: limits))
    }
}
