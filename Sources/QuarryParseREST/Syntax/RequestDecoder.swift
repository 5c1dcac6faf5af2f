import QuarryCore
import QuarryData

/// Reads Parse REST request JSON into the request model: either a bare `where` object or a
/// find body `{"where":{…},"order":"-score,name","limit":10,…}`. Structural mistakes are
/// reported here, with the JSON path and the bytes of the offending member; the semantic rules
/// (key names, 102 for exact array matches, profile limits) are the lowering's.
struct RequestDecoder {
    let root: JSONNode
    var problems = Problems()

    /// The members of a find body besides `where` (parse-server's `optionsFromBody`).
    static let parameters = ["where", "order", "limit", "skip", "keys", "excludeKeys", "include", "count"]

    init(root: JSONNode) {
        self.root = root
    }

    /// A bare where object unless the root has a `where` member holding an object: then it is a
    /// find body. (To query a field named `where`, nest it: `{"where":{"where":{…}}}`.)
    static func isRequest(_ root: JSONNode) -> Bool {
        if case .object = root["where"]?.kind { return true }
        return false
    }

    mutating func request(className: String) -> QuerySpec {
        let classLocation = Location(path: "className")
        guard case .object(let members) = root.kind else {
            problems.add(
                .json.where, "a where clause is a JSON object, not \(RequestDecoder.article(root))",
                at: Location(path: "", range: root.range))
            return QuerySpec(
                className: Located(className, classLocation), whereClause: WhereClause(location: .whereRoot))
        }
        guard RequestDecoder.isRequest(root) else {
            let clause = self.clause(root, at: Location(path: "where", range: root.range))
            return QuerySpec(className: Located(className, classLocation), whereClause: clause)
        }
        var spec = QuerySpec(
            className: Located(className, classLocation),
            whereClause: WhereClause(location: .whereRoot))
        for m in members {
            let at = Location(path: m.key, range: m.value.range)
            switch m.key {
            case "where": spec.whereClause = clause(m.value, at: at)
            case "order", "limit", "skip", "keys", "excludeKeys", "include", "count":
                parameter(m.key, m.value, at: at, into: &spec)
            default:
                problems.add(
                    .json.parameter,
                    "unknown request parameter '\(m.key)'; expected "
                        + RequestDecoder.parameters.joined(separator: ", "),
                    at: Location(path: m.key, range: m.keyRange), parseCode: ParseCode.invalidQuery)
            }
        }
        return spec
    }

    // MARK: Parameters

    /// `order`, `limit`, `skip`, `keys`, `excludeKeys`, `include`, `count` of a find body or an
    /// inner query.
    mutating func parameter(_ name: String, _ node: JSONNode, at: Location, into spec: inout QuerySpec) {
        switch name {
        case "order":
            guard let names = nameList(node, at: at) else { return }
            var entries: [OrderEntry] = []
            for raw in names {
                let descending = raw.hasPrefix("-")
                entries.append(OrderEntry(key: descending ? String(raw.dropFirst()) : raw, descending: descending))
            }
            spec.order = Located(entries, at)
        case "limit":
            if let n = integer(node) {
                spec.limit = Located(n, at)
            } else {
                problems.add(.json.limit, "a limit must be a non-negative integer, not \(node.json)", at: at)
            }
        case "skip":
            if let n = integer(node) {
                spec.skip = Located(n, at)
            } else {
                problems.add(.json.skip, "skip must be a non-negative integer, not \(node.json)", at: at)
            }
        case "keys": if let names = nameList(node, at: at) { spec.keys = Located(names, at) }
        case "excludeKeys": if let names = nameList(node, at: at) { spec.excludeKeys = Located(names, at) }
        case "include": if let names = nameList(node, at: at) { spec.includes = Located(names, at) }
        case "count":
            switch node.kind {
            case .bool(let b): spec.count = b
            case .int(let i): spec.count = i != 0
            case .string("1"), .string("true"): spec.count = true
            case .string("0"), .string("false"): spec.count = false
            default:
                problems.add(.json.parameter, "count is true, false, 1 or 0, not \(node.json)", at: at)
            }
        default:
            break
        }
    }

    /// An integer written as a JSON number (integral) or a string of digits, as URL parameters are.
    private func integer(_ node: JSONNode) -> Int? {
        switch node.kind {
        case .int(let i): return Int(exactly: i)
        case .double(let d): return d.rounded() == d ? Int(exactly: d) : nil
        case .string(let s): return Int(s)
        default: return nil
        }
    }

    /// A comma-separated string (`"-score,name"`) or an array of strings; blanks are dropped.
    private mutating func nameList(_ node: JSONNode, at: Location) -> [String]? {
        switch node.kind {
        case .string(let s):
            return s.split(separator: ",").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
        case .array(let items):
            var out: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let s) = item.kind else {
                    problems.add(
                        .json.parameter, "expected a key name, not \(RequestDecoder.article(item))",
                        at: at.index(i, range: item.range))
                    return nil
                }
                out.append(s)
            }
            return out
        default:
            problems.add(
                .json.parameter, "expected a comma-separated string of keys, not \(RequestDecoder.article(node))",
                at: at)
            return nil
        }
    }

    // MARK: Where objects

    mutating func clause(_ node: JSONNode, at: Location) -> WhereClause {
        var clause = WhereClause(location: at)
        guard case .object(let members) = node.kind else {
            problems.add(
                .json.where, "a where clause is a JSON object, not \(RequestDecoder.article(node))", at: at,
                parseCode: ParseCode.invalidQuery)
            return clause
        }
        for m in members {
            let valueAt = at.member(m.key, range: m.value.range)
            // The same path (one string for both), the key's own range.
            let keyAt = Location(path: valueAt.path, range: m.keyRange)
            switch m.key {
            case "$or", "$and", "$nor":
                let kind = CompoundKind(rawValue: m.key)!
                guard case .array(let items) = m.value.kind else {
                    problems.add(
                        .json.compound,
                        "bad \(m.key) format: use an array of where objects, not "
                            + RequestDecoder.article(m.value), at: valueAt)
                    continue
                }
                let branches = items.enumerated().map { i, item in
                    Branch(clause: self.clause(item, at: valueAt.index(i, range: item.range)))
                }
                clause.members.append(.compound(Compound(kind: kind, branches: branches, location: valueAt)))
            case "$relatedTo":
                if let member = relatedTo(m.value, at: valueAt) { clause.members.append(member) }
            default:
                if m.key.hasPrefix("$") {
                    problems.add(
                        .json.unknownOperator,
                        "unknown operator '\(m.key)' in a where object; expected "
                            + "$or, $and, $nor, $relatedTo or a key", at: keyAt,
                        parseCode: ParseCode.invalidKeyName)
                    continue
                }
                if let constraint = fieldConstraint(m.value, at: valueAt) {
                    clause.members.append(.field(FieldEntry(key: m.key, location: keyAt, constraint: constraint)))
                }
            }
        }
        return clause
    }

    private mutating func relatedTo(_ node: JSONNode, at: Location) -> WhereMember? {
        guard case .object = node.kind, let objectNode = node["object"], let keyNode = node["key"] else {
            problems.add(
                .json.relatedTo, "$relatedTo takes {\"object\": <Pointer>, \"key\": \"relation field\"}",
                at: at)
            return nil
        }
        let objectAt = at.member("object", range: objectNode.range)
        guard case .pointer(let pointer)? = value(objectNode, at: objectAt) else {
            problems.add(.json.pointer, "$relatedTo.object must be a Pointer", at: objectAt)
            return nil
        }
        let keyAt = at.member("key", range: keyNode.range)
        guard case .string(let key) = keyNode.kind else {
            problems.add(.json.relatedTo, "$relatedTo.key must be the name of a relation field", at: keyAt)
            return nil
        }
        return .relatedTo(Located(pointer, objectAt), key: Located(key, keyAt), at)
    }

    /// A plain value (equality) or an operator dictionary.
    private mutating func fieldConstraint(_ node: JSONNode, at: Location) -> FieldConstraint? {
        guard case .object(let members) = node.kind, node["__type"] == nil else {
            return value(node, at: at).map { .equals(Located($0, at)) }
        }
        let operators = members.filter { $0.key.hasPrefix("$") }
        if operators.isEmpty { return value(node, at: at).map { .equals(Located($0, at)) } }
        if operators.count != members.count {
            problems.add(
                .json.exactMatch,
                "an object that mixes operators ($…) with plain keys cannot be matched; "
                    + "use only operators", at: at)
            return nil
        }
        return .operators(self.operators(members, at: at))
    }

    // MARK: Values

    /// A Parse REST value, `__type` wrappers decoded. A malformed Pointer is Parse error 106.
    mutating func value(_ node: JSONNode, at: Location) -> Value? {
        do {
            return try ParseJSON.decode(node.json)
        } catch {
            var location = at
            for c in error.path.components {
                switch c {
                case .key(let k): location = location.member(k)
                case .index(let i): location = location.index(i)
                }
            }
            location.range = node.nearestRange(of: error.path)
            let pointer = isInsidePointer(node, error.path)
            problems.add(pointer ? .json.pointer : .json.value, error.message, at: location)
            return nil
        }
    }

    /// Whether the innermost `__type` wrapper on the path is a Pointer.
    private func isInsidePointer(_ node: JSONNode, _ path: JSONPath) -> Bool {
        var components = path.components
        while true {
            if let wrapper = node.node(at: JSONPath(components)), case .string(let type)? = wrapper["__type"]?.kind {
                return type == "Pointer"
            }
            if components.isEmpty { return false }
            components.removeLast()
        }
    }

    static func article(_ node: JSONNode) -> String {
        switch node.kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs (as parse-server trims order entries).
    /// Trimmed in place (a `String` built from the reversed characters was a third of compiling
    /// a request with an order).
    var trimmingSpaces: String {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
