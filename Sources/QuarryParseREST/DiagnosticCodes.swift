import QuarryCore

// The diagnostic codes only the Parse REST front-end reports (JSON text itself is checked by the
// JSON reader's codes; the shared ones are in QuarryCore's catalogue). Each carries the Parse
// error code Parse Server answers with for the same mistake, which `Problems.add` attaches.
// docs/DIAGNOSTICS.md is generated from the catalogues (`make docs`).

extension DiagnosticCode.JSON {
    public static let `where` = DiagnosticCode(
        "json.where",
        meaning: "A where clause that is not a JSON object: the whole text (107), or a branch of $or, "
            + "$and or $nor (102).",
        example: .parseREST("[1]"), parseCode: ParseCode.invalidJSON)
    public static let unknownOperator = DiagnosticCode(
        "json.unknown-operator",
        meaning: "A `$` operator Parse does not have, on a field (107) or at the top of a where object "
            + "(105).",
        example: .parseREST(#"{"a": {"$foo": 1}}"#), parseCode: ParseCode.invalidJSON)
    public static let `operator` = DiagnosticCode(
        "json.operator",
        meaning: "An operator that only modifies another one ($options, $maxDistance…) without it, or "
            + "two operators that exclude each other.",
        example: .parseREST(#"{"a": {"$options": "i"}}"#), parseCode: ParseCode.invalidQuery)
    public static let operand = DiagnosticCode(
        "json.operand",
        meaning: "An operator's operand of the wrong shape or type: `$in` without an array, `$exists` "
            + "without a boolean, a negative `$size`, a malformed GeoPoint.",
        example: .parseREST(#"{"a": {"$in": 5}}"#), parseCode: ParseCode.invalidJSON)
    public static let regexOptions = DiagnosticCode(
        "json.regex-options",
        meaning: "`$options` other than a string of the letters i, m, x and s.",
        example: .parseREST(#"{"a": {"$regex": "x", "$options": "gi"}}"#), parseCode: ParseCode.invalidQuery)
    public static let keyName = DiagnosticCode(
        "json.key-name",
        meaning: "A key that is not a valid Parse field name (a letter first, then letters, digits, '_' "
            + "and '.'), in the where clause, `order` or `$relatedTo`.",
        example: .parseREST(#"{"1a": 1}"#), parseCode: ParseCode.invalidKeyName)
    public static let className = DiagnosticCode(
        "json.class-name",
        meaning: "An inner query's `className` that is not a valid Parse class name.",
        example: .parseREST(#"{"p": {"$inQuery": {"className": "Po st", "where": {}}}}"#),
        parseCode: ParseCode.invalidClassName)
    public static let pointer = DiagnosticCode(
        "json.pointer",
        meaning: "A Pointer that is malformed (no objectId, a bad class name) or expected where "
            + "something else stands (`$relatedTo.object`).",
        example: .parseREST(#"{"p": {"__type": "Pointer", "className": "Post"}}"#),
        parseCode: ParseCode.invalidPointer)
    public static let value = DiagnosticCode(
        "json.value",
        meaning: "A `__type` value in the where clause that does not decode (an unknown type, a missing "
            + "field); the message is the value codec's.",
        example: .parseREST(#"{"a": {"__type": "Widget"}}"#), parseCode: ParseCode.invalidJSON)
    public static let exactMatch = DiagnosticCode(
        "json.exact-match",
        meaning: "A plain array or object as a field's value, which Parse cannot match exactly, or "
            + "operators mixed with plain keys in one object.",
        example: .parseREST(#"{"arr": [2, 3]}"#), parseCode: ParseCode.invalidQuery)
    public static let compound = DiagnosticCode(
        "json.compound",
        meaning: "$or, $and or $nor without a non-empty array of where objects.",
        example: .parseREST(#"{"$or": []}"#), parseCode: ParseCode.invalidQuery)
    public static let compoundGeo = DiagnosticCode(
        "json.compound-geo",
        meaning: "A geo constraint ($nearSphere, $within, …) inside $or, $and or $nor, which Parse does "
            + "not allow there; reported in the profiles that follow a hosted platform's rules.",
        example: .situation(#"Parse REST `{"$or": [{"l": {"$nearSphere": …}}, {"a": 1}]}` in the parse profile"#),
        parseCode: ParseCode.invalidQuery)
    public static let compoundSubquery = DiagnosticCode(
        "json.compound-subquery",
        meaning: "A builder subquery of an `or`/`and`/`nor` compound that queries another class or sets "
            + "limit, skip, order or other non-filtering parameters.",
        example: .situation("`QueryBuilder.or(…)` of a query on Post and a query on User"),
        parseCode: ParseCode.invalidQuery)
    public static let subquery = DiagnosticCode(
        "json.subquery",
        meaning: "`$inQuery`, `$notInQuery`, `$select` or `$dontSelect` without the inner-query shape "
            + "they take, or an inner query that counts or sets parameters with no effect.",
        example: .parseREST(#"{"p": {"$inQuery": {"where": {}}}}"#), parseCode: ParseCode.invalidQuery)
    public static let relatedTo = DiagnosticCode(
        "json.related-to",
        meaning: "`$relatedTo` without `{\"object\": <Pointer>, \"key\": \"relation field\"}`.",
        example: .parseREST(#"{"$relatedTo": {"object": {"__type": "Pointer", "className": "U", "objectId": "u"}}}"#),
        parseCode: ParseCode.invalidQuery)
    public static let relativeTime = DiagnosticCode(
        "json.relative-time",
        meaning: "`$relativeTime` that is not a phrase such as \"3 days ago\", or used with an operator "
            + "other than $lt, $lte, $gt and $gte.",
        example: .parseREST(#"{"d": {"$gt": {"$relativeTime": "soon"}}}"#), parseCode: ParseCode.invalidJSON)
    public static let geoBox = DiagnosticCode(
        "json.geo-box",
        meaning: "A `$within.$box` whose south-west corner lies east or north of its north-east one.",
        example: .parseREST(
            #"{"l": {"$within": {"$box": [{"__type": "GeoPoint", "latitude": 0, "longitude": 170}, {"__type": "GeoPoint", "latitude": 10, "longitude": -170}]}}}"#
        ),
        parseCode: ParseCode.invalidQuery)
    public static let geoRange = DiagnosticCode(
        "json.geo-range",
        meaning: "A GeoPoint whose latitude is outside -90…90 or longitude outside -180…180.",
        example: .parseREST(#"{"l": {"$nearSphere": {"__type": "GeoPoint", "latitude": 91, "longitude": 0}}}"#),
        parseCode: ParseCode.invalidJSON)
    public static let limit = DiagnosticCode(
        "json.limit",
        meaning: "A `limit` that is not a non-negative integer, or beyond what the profile allows.",
        example: .parseREST(#"{"where": {}, "limit": -1}"#), parseCode: ParseCode.invalidLimit)
    public static let skip = DiagnosticCode(
        "json.skip",
        meaning: "A `skip` that is not a non-negative integer, or beyond what the profile allows.",
        example: .parseREST(#"{"where": {}, "skip": 1.5}"#), parseCode: ParseCode.invalidSkip)
    public static let order = DiagnosticCode(
        "json.order",
        meaning: "An `order` key Quarry cannot sort by (`$score`: text-search relevance is not computed).",
        example: .parseREST(#"{"where": {}, "order": "$score"}"#), parseCode: ParseCode.invalidKeyName)
    public static let include = DiagnosticCode(
        "json.include",
        meaning: "`include=*` (every pointer field) without a schema to say which fields are pointers.",
        example: .parseREST(#"{"where": {}, "include": "*"}"#), parseCode: ParseCode.invalidQuery)
    public static let parameter = DiagnosticCode(
        "json.parameter",
        meaning: "A request parameter Parse does not have (102), or `count`, `keys` or `include` of the "
            + "wrong type (107).",
        example: .parseREST(#"{"where": {}, "count": "yes"}"#), parseCode: ParseCode.invalidJSON)
}

extension DiagnosticCatalogue {
    public static let parseREST = DiagnosticCatalogue([
        .json.where, .json.unknownOperator, .json.operator, .json.operand, .json.regexOptions,
        .json.keyName, .json.className, .json.pointer, .json.value, .json.exactMatch, .json.compound,
        .json.compoundGeo, .json.compoundSubquery, .json.subquery, .json.relatedTo, .json.relativeTime,
        .json.geoBox, .json.geoRange, .json.limit, .json.skip, .json.order, .json.include,
        .json.parameter,
    ])
}
