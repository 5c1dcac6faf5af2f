import Quarry

/// A create or update body applied to an object: plain members set fields (Parse wrappers
/// decoded), `{"__op":…}` members apply Parse's update operators — Increment, Add, AddUnique,
/// Remove, Delete, AddRelation, RemoveRelation. Keys the server owns (`objectId`, `createdAt`,
/// `updatedAt`) are not the client's to set and are skipped.
enum ObjectBody {
    static let serverOwned: Set<String> = ["objectId", "createdAt", "updatedAt", "_method"]

    static func apply(_ body: JSONObject, to record: inout Record) throws(APIError) {
        for member in body where !serverOwned.contains(member.key) {
            let key = member.key
            guard isValidKey(key) else {
                throw .parse(APIError.invalidKeyName, "Invalid field name: \(key).")
            }
            if case .object(let o) = member.value, case .string(let op)? = o["__op"] {
                let updated = try apply(op, o, to: record[key], key: key)
                set(key, updated, in: &record)
            } else {
                set(key, try decode(member.value, key: key), in: &record)
            }
        }
    }

    /// Parse field names: a letter first, then letters, digits and `_` (parse-server's rule),
    /// plus the system `ACL`.
    static func isValidKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Parse class names: a letter (or `_` for system classes such as `_User`) first, then
    /// letters, digits and `_`.
    static func isValidClassName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
            first.properties.isAlphabetic || first == "_"
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    private static func set(_ key: String, _ value: Value?, in record: inout Record) {
        if let value {
            if record.fields[key] == nil { record.fieldOrder.append(key) }
            record.fields[key] = value
        } else if record.fields.removeValue(forKey: key) != nil {
            record.fieldOrder.removeAll { $0 == key }
        }
    }

    private static func apply(_ op: String, _ o: JSONObject, to current: Value?, key: String) throws(APIError) -> Value?
    {
        switch op {
        case "Delete":
            return nil
        case "Increment":
            guard let amount = o["amount"] else {
                throw .parse(APIError.invalidJSON, "Increment on '\(key)' needs an amount")
            }
            return try increment(current, by: try decode(amount, key: key), key: key)
        case "Add", "AddUnique", "Remove":
            let objects = try objectList(o, key: key, op: op)
            var items = try array(current, key: key, op: op)
            switch op {
            case "Add": items += objects
            case "AddUnique": for item in objects where !items.contains(item) { items.append(item) }
            default: items.removeAll { objects.contains($0) }
            }
            return .array(items)
        case "AddRelation", "RemoveRelation":
            let objects = try objectList(o, key: key, op: op)
            var targets: [Pointer] = []
            for object in objects {
                guard case .pointer(let p) = object else {
                    throw .parse(APIError.incorrectType, "\(op) on '\(key)' takes Pointers")
                }
                targets.append(p)
            }
            var (className, ids) = try relation(current, first: targets.first, key: key)
            for target in targets {
                guard target.className == className else {
                    throw .parse(
                        APIError.incorrectType,
                        "\(op) on '\(key)': the relation holds \(className), not \(target.className)")
                }
                if op == "AddRelation" {
                    if !ids.contains(target.objectId) { ids.append(target.objectId) }
                } else {
                    ids.removeAll { $0 == target.objectId }
                }
            }
            return .relation(className: className, objectIds: ids)
        default:
            throw .parse(APIError.invalidJSON, "unknown update operator '\(op)' on '\(key)'")
        }
    }

    private static func increment(_ current: Value?, by amount: Value, key: String) throws(APIError) -> Value {
        switch (current ?? .int(0), amount) {
        case (.null, _): return try increment(.int(0), by: amount, key: key)
        case (.int(let a), .int(let b)):
            let (sum, overflow) = a.addingReportingOverflow(b)
            if overflow { throw .parse(APIError.invalidJSON, "Increment on '\(key)' overflows a 64-bit integer") }
            return .int(sum)
        case (.int(let a), .double(let b)): return .double(Double(a) + b)
        case (.double(let a), .int(let b)): return .double(a + Double(b))
        case (.double(let a), .double(let b)): return .double(a + b)
        default:
            throw .parse(APIError.invalidJSON, "Increment on '\(key)' needs a number field and a number amount")
        }
    }

    private static func objectList(_ o: JSONObject, key: String, op: String) throws(APIError) -> [Value] {
        guard case .array(let items)? = o["objects"] else {
            throw .parse(APIError.invalidJSON, "\(op) on '\(key)' needs an 'objects' array")
        }
        var values: [Value] = []
        for item in items { values.append(try decode(item, key: key)) }
        return values
    }

    private static func array(_ current: Value?, key: String, op: String) throws(APIError) -> [Value] {
        switch current {
        case nil, .null?: return []
        case .array(let items)?: return items
        default: throw .parse(APIError.incorrectType, "\(op) on '\(key)' needs an array field")
        }
    }

    private static func relation(_ current: Value?, first: Pointer?, key: String) throws(APIError) -> (String, [String])
    {
        switch current {
        case .relation(let className, let ids)?: return (className, ids)
        case nil, .null?:
            guard let first else { throw .parse(APIError.invalidJSON, "a relation op on '\(key)' needs objects") }
            return (first.className, [])
        default: throw .parse(APIError.incorrectType, "'\(key)' is not a relation")
        }
    }

    static func decode(_ json: JSON, key: String) throws(APIError) -> Value {
        do { return try ParseJSON.decode(json) } catch {
            throw .parse(APIError.incorrectType, "field '\(key)': \(error.message)")
        }
    }
}
