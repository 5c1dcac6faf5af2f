import QuarryCore

/// Parse REST JSON ⇄ `Value` (docs/SEMANTICS.md#values): plain JSON values map to themselves and
/// typed values use Parse's `__type` wrappers.
///
/// Decoding, wrapper by wrapper (extra members of a wrapper are ignored, as parse-server does):
///
///     {"__type":"Date","iso":"2015-03-23T00:00:00.000Z"}          → .date (ISODate)
///     {"__type":"GeoPoint","latitude":n,"longitude":n}             → .geoPoint (any finite numbers;
///                                                                     range checks are a profile's job)
///     {"__type":"Pointer","className":s,"objectId":s}              → .pointer (non-empty strings)
///     {"__type":"Relation","className":s,"objects":[Pointer…]}     → .relation; `objects` may be left
///                                                                     out (Parse's output form): no ids
///     {"__type":"Bytes","base64":s}                                → .bytes (strict base64)
///     {"__type":"File","name":s,"url":s|null}                      → .file (url optional)
///     {"__type":"Polygon","coordinates":[[lat,lon],…]}             → .polygon (at least 3 points)
///     {"__type":"Object","className":s,"objectId":s,…}             → .object keeping every member,
///                                                                     `createdAt`/`updatedAt` strings as dates
///
/// `Object` is how Parse embeds an included object in its output; it decodes to the same
/// `.object` the engine produces for an include, so written results read back unchanged.
/// Any other `__type` is an error; an object without `__type` is a plain object.
public enum ParseJSON {
    public static let wrapperTypes = ["Date", "GeoPoint", "Pointer", "Relation", "Bytes", "File", "Polygon", "Object"]

    public static func decode(_ json: JSON) throws(ValueDecodingError) -> Value {
        switch json {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .string(let s): return .string(s)
        case .array(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                do { values.append(try decode(item)) } catch { throw error.inside(.index(i)) }
            }
            return .array(values)
        case .object(let object):
            if let type = object["__type"] { return try decodeWrapper(type, object) }
            return .object(try decodeMembers(object))
        }
    }

    private static func decodeMembers(_ object: JSONObject) throws(ValueDecodingError) -> [String: Value] {
        var fields: [String: Value] = [:]
        fields.reserveCapacity(object.count)
        for m in object {
            do { fields[m.key] = try decode(m.value) } catch { throw error.inside(.key(m.key)) }
        }
        return fields
    }

    private static func decodeWrapper(_ type: JSON, _ o: JSONObject) throws(ValueDecodingError) -> Value {
        guard case .string(let name) = type else {
            throw ValueDecodingError(
                .data.unknownType, "__type must be a string, not \(article(type))",
                path: ["__type"])
        }
        switch name {
        case "Date":
            return .date(try date(o, "iso", in: name))
        case "GeoPoint":
            return .geoPoint(
                GeoPoint(
                    latitude: try number(o, "latitude", in: name),
                    longitude: try number(o, "longitude", in: name)))
        case "Pointer":
            return .pointer(try pointer(o))
        case "Relation":
            let className = try string(o, "className", in: name)
            guard let objects = o["objects"], !objects.isNull else {
                return .relation(className: className, objectIds: [])
            }
            guard case .array(let items) = objects else {
                throw ValueDecodingError(
                    .data.wrapper,
                    "Relation field 'objects' must be an array of Pointers, not \(article(objects))",
                    path: ["objects"])
            }
            var ids: [String] = []
            ids.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                let path: JSONPath = ["objects", .index(i)]
                guard case .object(let p) = item, p["__type"] == .string("Pointer") else {
                    throw ValueDecodingError(
                        .data.wrapper, "Relation objects must be Pointers, not \(article(item))",
                        path: path)
                }
                let target: Pointer
                do { target = try pointer(p) } catch { throw error.inside(.index(i)).inside(.key("objects")) }
                guard target.className == className else {
                    throw ValueDecodingError(
                        .data.wrapper,
                        "Relation to '\(className)' holds a Pointer to '\(target.className)'", path: path)
                }
                ids.append(target.objectId)
            }
            return .relation(className: className, objectIds: ids)
        case "Bytes":
            let text = try string(o, "base64", in: name, allowEmpty: true)
            switch Base64.decode(text) {
            case .success(let bytes): return .bytes(bytes)
            case .failure(let e):
                throw ValueDecodingError(
                    .data.base64, "Bytes field 'base64' is not valid base64: \(e.message)",
                    path: ["base64"])
            }
        case "File":
            let fileName = try string(o, "name", in: name)
            var url: String?
            if let u = o["url"], !u.isNull {
                guard case .string(let s) = u else {
                    throw ValueDecodingError(
                        .data.wrapper, "File field 'url' must be a string, not \(article(u))",
                        path: ["url"])
                }
                url = s
            }
            return .file(FileRef(name: fileName, url: url))
        case "Polygon":
            return .polygon(try polygon(o))
        case "Object":
            _ = try string(o, "className", in: name)
            _ = try string(o, "objectId", in: name)
            var fields = try decodeMembers(o)
            for key in ["createdAt", "updatedAt"] {
                if case .string(let s)? = o[key] {
                    guard let ms = ISODate.parse(s) else { throw badDate(s, field: key, in: "Object") }
                    fields[key] = .date(ms)
                }
            }
            return .object(fields)
        default:
            throw ValueDecodingError(
                .data.unknownType,
                "unknown __type '\(name)': expected one of \(wrapperTypes.joined(separator: ", "))",
                path: ["__type"])
        }
    }

    // MARK: Wrapper fields

    private static func pointer(_ o: JSONObject) throws(ValueDecodingError) -> Pointer {
        Pointer(
            className: try string(o, "className", in: "Pointer"),
            objectId: try string(o, "objectId", in: "Pointer"))
    }

    private static func polygon(_ o: JSONObject) throws(ValueDecodingError) -> [GeoPoint] {
        guard let coordinates = o["coordinates"] else {
            throw ValueDecodingError(.data.wrapper, "Polygon is missing 'coordinates'")
        }
        guard case .array(let items) = coordinates else {
            throw ValueDecodingError(
                .data.wrapper,
                "Polygon field 'coordinates' must be an array of [latitude, longitude] pairs, not \(article(coordinates))",
                path: ["coordinates"])
        }
        var points: [GeoPoint] = []
        points.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .array(let pair) = item, pair.count == 2,
                let lat = pair[0].doubleValue, let lon = pair[1].doubleValue
            else {
                throw ValueDecodingError(
                    .data.wrapper,
                    "Polygon point must be a [latitude, longitude] pair of numbers, not \(item)",
                    path: ["coordinates", .index(i)])
            }
            points.append(GeoPoint(latitude: lat, longitude: lon))
        }
        guard points.count >= 3 else {
            throw ValueDecodingError(
                .data.wrapper, "Polygon needs at least 3 points, found \(points.count)",
                path: ["coordinates"])
        }
        return points
    }

    static func string(
        _ o: JSONObject, _ field: String, in wrapper: String,
        allowEmpty: Bool = false
    ) throws(ValueDecodingError) -> String {
        guard let v = o[field] else { throw missing(field, in: wrapper) }
        guard case .string(let s) = v else { throw wrongType(field, in: wrapper, expected: "a string", found: v) }
        guard allowEmpty || !s.isEmpty else {
            throw ValueDecodingError(
                .data.wrapper, "\(wrapper) field '\(field)' must not be empty", path: [.key(field)])
        }
        return s
    }

    private static func number(_ o: JSONObject, _ field: String, in wrapper: String) throws(ValueDecodingError)
        -> Double
    {
        guard let v = o[field] else { throw missing(field, in: wrapper) }
        guard let d = v.doubleValue else { throw wrongType(field, in: wrapper, expected: "a number", found: v) }
        return d
    }

    private static func date(_ o: JSONObject, _ field: String, in wrapper: String) throws(ValueDecodingError) -> Int64 {
        let s = try string(o, field, in: wrapper)
        guard let ms = ISODate.parse(s) else { throw badDate(s, field: field, in: wrapper) }
        return ms
    }

    /// With a wrapper, the message names it and the field; without, the caller names the field.
    static func badDate(_ s: String, field: String, in wrapper: String?) -> ValueDecodingError {
        let subject = wrapper.map { "\($0) field '\(field)' is not" } ?? "not"
        return ValueDecodingError(
            .data.date,
            "\(subject) an ISO-8601 date-time: \(JSONText.quote(s)) (expected e.g. 2015-03-23T00:00:00.000Z)",
            path: [.key(field)])
    }

    private static func missing(_ field: String, in wrapper: String) -> ValueDecodingError {
        ValueDecodingError(.data.wrapper, "\(wrapper) is missing '\(field)'")
    }

    private static func wrongType(_ field: String, in wrapper: String, expected: String, found: JSON)
        -> ValueDecodingError
    {
        ValueDecodingError(
            .data.wrapper, "\(wrapper) field '\(field)' must be \(expected), not \(article(found))",
            path: [.key(field)])
    }

    /// "a string", "an object", "null": for messages.
    static func article(_ json: JSON) -> String {
        switch json {
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        default: return "a \(json.typeName)"
        }
    }
}
