import QuarryCore

// The diagnostic codes of JSON text, Parse REST JSON values and data files.
// docs/DIAGNOSTICS.md is generated from this catalogue and the other modules' (`make docs`).

extension DiagnosticCode.JSON {
    public static let syntax = DiagnosticCode(
        "json.syntax",
        meaning: "The text is not JSON: a token the JSON grammar does not allow where it stands.",
        example: .parseREST(#"{"score": {"$gt": 3,}}"#), parseCode: ParseCode.invalidJSON)
    public static let depth = DiagnosticCode(
        "json.depth",
        meaning: "Arrays and objects nest deeper than the JSON reader's limit (512 levels by default).",
        example: .situation("a data file with 600 nested arrays"), parseCode: ParseCode.invalidQuery)
    public static let number = DiagnosticCode(
        "json.number",
        meaning: "A JSON number is malformed (leading zeros, no digit after '-', '.' or the exponent) "
            + "or too large for a double.",
        example: .parseREST(#"{"score": 012}"#), parseCode: ParseCode.invalidJSON)
    public static let string = DiagnosticCode(
        "json.string",
        meaning: "A JSON string is malformed: unterminated, an invalid escape, a lone surrogate or a "
            + "raw control character.",
        example: .parseREST(#"{"name": "Bob\q"}"#), parseCode: ParseCode.invalidJSON)
    public static let utf8 = DiagnosticCode(
        "json.utf8",
        meaning: "The JSON bytes are not valid UTF-8.",
        example: .situation("a data file holding the byte 0xFF"), parseCode: ParseCode.invalidJSON)
}

extension DiagnosticCode.Data {
    public static let geoRange = DiagnosticCode(
        "data.geo-range",
        meaning: "A stored GeoPoint (alone, in a Polygon, an array or an object) lies off the globe: "
            + "latitude outside -90…90 or longitude outside -180…180.",
        example: .situation(#"a data file value {"__type": "GeoPoint", "latitude": 1000, "longitude": 0}"#))
    public static let unknownType = DiagnosticCode(
        "data.unknown-type",
        meaning: "A `__type` wrapper names a type Quarry does not know, or `__type` is not a string.",
        example: .situation(#"a data file value {"__type": "Widget"}"#))
    public static let wrapper = DiagnosticCode(
        "data.wrapper",
        meaning: "A `__type` wrapper (Pointer, GeoPoint, Bytes, File, Polygon, Relation, Object) lacks a "
            + "field or has one of the wrong type.",
        example: .situation(#"a data file value {"__type": "Pointer", "className": "Post"}"#))
    public static let date = DiagnosticCode(
        "data.date",
        meaning: "A Date wrapper's `iso`, or a record's `createdAt`/`updatedAt`, is not an ISO-8601 "
            + "date-time.",
        example: .situation(#"a data file value {"__type": "Date", "iso": "yesterday"}"#))
    public static let base64 = DiagnosticCode(
        "data.base64",
        meaning: "A Bytes wrapper's `base64` field is not valid base64.",
        example: .situation(#"a data file value {"__type": "Bytes", "base64": "@@"}"#))
    public static let objectId = DiagnosticCode(
        "data.object-id",
        meaning: "A record's `objectId` is missing (where no default applies), empty or not a string.",
        example: .situation(#"a data file record {"objectId": 7}"#))
    public static let field = DiagnosticCode(
        "data.field",
        meaning: "A record's `createdAt` or `updatedAt` is neither an ISO-8601 string, a Date wrapper "
            + "nor null.",
        example: .situation(#"a data file record {"objectId": "a", "createdAt": 5}"#))
    public static let duplicateId = DiagnosticCode(
        "data.duplicate-id",
        meaning: "Two objects of one class in a data file have the same `objectId`.",
        example: .situation(#"a data file {"Post": [{"objectId": "a"}, {"objectId": "a"}]}"#))
    public static let shape = DiagnosticCode(
        "data.shape",
        meaning: "A data file is not one of the accepted layouts (an object of classes, an array of "
            + "objects, `{\"results\": […]}`, NDJSON), names a class twice or holds an entry that is "
            + "not an object.",
        example: .situation("a data file holding `42`"))
    public static let decode = DiagnosticCode(
        "data.decode",
        meaning: "A stored value does not fit the Swift type it is decoded into (`ValueDecoder`, "
            + "`engine.find(Contact.self, …)`): a missing field, a value of another kind, a number too "
            + "large; the path is the coding path.",
        example: .situation("decoding an object whose `age` is the string \"ten\" into a struct with `age: Int`"))
    public static let encode = DiagnosticCode(
        "data.encode",
        meaning: "A Swift value cannot be stored (`ValueEncoder`, `engine.insert(contact, into:)`): it is "
            + "not an object, or holds an integer beyond Int64 or a date beyond Quarry's range.",
        example: .situation("inserting a struct whose `count: UInt64` is 2^63"))
    public static let io = DiagnosticCode(
        "data.io",
        meaning: "A data file cannot be read (it does not exist, or permission is denied).",
        example: .situation("`quarry run --data missing.json …`"))
}

extension DiagnosticCatalogue {
    public static let data = DiagnosticCatalogue([
        .json.syntax, .json.depth, .json.number, .json.string, .json.utf8,
        .data.unknownType, .data.wrapper, .data.date, .data.base64, .data.objectId, .data.field,
        .data.duplicateId, .data.shape, .data.io, .data.geoRange, .data.decode, .data.encode,
    ])
}
