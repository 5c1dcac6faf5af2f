import QuarryCore

extension ParseJSON {
    /// One object of a data file (or of a REST response) as a `Record`.
    ///
    /// `objectId` must be a non-empty string; when it is missing, `defaultObjectId` is used if
    /// given. `createdAt` and `updatedAt` may be ISO-8601 strings (Parse's REST form) or Date
    /// wrappers, both read as dates, or null. Every other field goes through `decode`. Field
    /// order is kept. Messages of errors about a field leave the field's name to the caller,
    /// which finds it in the error's path.
    public static func decodeRecord(
        _ object: JSONObject,
        defaultObjectId: String? = nil
    ) throws(ValueDecodingError) -> Record {
        let objectId: String
        switch object["objectId"] {
        case .string(let s)?:
            guard !s.isEmpty else {
                throw ValueDecodingError(.data.objectId, "must not be empty", path: ["objectId"])
            }
            objectId = s
        case nil:
            guard let defaultObjectId else { throw ValueDecodingError(.data.objectId, "the object has no 'objectId'") }
            objectId = defaultObjectId
        case let other?:
            throw ValueDecodingError(
                .data.objectId, "must be a string, not \(article(other))",
                path: ["objectId"])
        }
        // Built directly (keys are unique already): this is the loader's per-object hot path.
        var record = Record(objectId: objectId, fields: [])
        record.fields.reserveCapacity(object.count)
        record.fieldOrder.reserveCapacity(object.count)
        for m in object where m.key != "objectId" {
            let value: Value
            if m.key == "createdAt" || m.key == "updatedAt" {
                value = try systemDate(m.value, field: m.key)
            } else {
                do {
                    value = try decode(m.value)
                    try checkCoordinates(value)
                } catch {
                    throw error.inside(.key(m.key))
                }
            }
            record.fields[m.key] = value
            record.fieldOrder.append(m.key)
        }
        return record
    }

    /// A stored point (alone, in a polygon, an array or an object) must lie on the globe:
    /// latitude -90…90, longitude -180…180, as queries require of theirs. The path names the
    /// offending coordinate.
    static func checkCoordinates(_ value: Value) throws(ValueDecodingError) {
        func check(_ p: GeoPoint, _ latitude: JSONPath, _ longitude: JSONPath) throws(ValueDecodingError) {
            guard p.latitude.isFinite, abs(p.latitude) <= 90 else {
                throw ValueDecodingError(.data.geoRange, "latitude \(p.latitude) is outside -90…90", path: latitude)
            }
            guard p.longitude.isFinite, abs(p.longitude) <= 180 else {
                throw ValueDecodingError(
                    .data.geoRange, "longitude \(p.longitude) is outside -180…180", path: longitude)
            }
        }
        switch value {
        case .geoPoint(let p):
            try check(p, ["latitude"], ["longitude"])
        case .polygon(let points):
            for (i, p) in points.enumerated() {
                try check(p, ["coordinates", .index(i), .index(0)], ["coordinates", .index(i), .index(1)])
            }
        case .array(let items):
            for (i, item) in items.enumerated() {
                do { try checkCoordinates(item) } catch { throw error.inside(.index(i)) }
            }
        case .object(let members):
            for (key, member) in members {
                do { try checkCoordinates(member) } catch { throw error.inside(.key(key)) }
            }
        default:
            return
        }
    }

    static func systemDate(_ json: JSON, field: String) throws(ValueDecodingError) -> Value {
        switch json {
        case .null:
            return .null
        case .string(let s):
            guard let ms = ISODate.parse(s) else { throw badDate(s, field: field, in: nil) }
            return .date(ms)
        case .object(let o) where o["__type"] == .string("Date"):
            do { return try decode(json) } catch { throw error.inside(.key(field)) }
        default:
            throw ValueDecodingError(
                .data.field,
                "must be an ISO-8601 date string or a Date, not \(article(json))",
                path: [.key(field)])
        }
    }
}
