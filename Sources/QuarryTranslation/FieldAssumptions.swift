import QuarryCore

/// What a person writing a query means about the fields it names, for a translation that has
/// no schema: a field compared with a literal holds a single value of that literal's type, and
/// a field the query treats as a collection (`ANY tags == 'x'`, `'x' IN tags`, `$all`, `$size`)
/// is an array of such values. Under these assumptions `age >= 21` translates as `age >= 21`
/// instead of also stating what SQL does with dates, arrays and nulls; the result is exact on
/// data that fits them (docs/SEMANTICS.md#translation). `SemanticsConversion` uses them only
/// for fields no schema describes.
public struct FieldAssumptions: Sendable {
    /// One assumed field: its class, key path and what it holds.
    public struct Field: Sendable, Equatable {
        public var className: String
        public var path: FieldPath
        var multiValued: Bool
        var kinds: ValueKinds
        var target: String?
    }

    /// The fields in the order the query first names them.
    public private(set) var fields: [Field] = []

    /// The assumptions `query` implies.
    public init(_ query: Query) {
        collect(query.predicate, className: query.className, variables: [:], depth: 0)
    }

    /// What `path` on `className` holds, if the query implies anything.
    func domain(_ path: FieldPath, in className: String?) -> ValueDomain? {
        guard let f = fields.first(where: { $0.className == (className ?? "") && $0.path == path }) else { return nil }
        // A field seen with no literal may hold a value of any type, but only one.
        let kinds = f.kinds.isEmpty ? ValueKinds.all.subtracting(.collection) : f.kinds
        return ValueDomain(multiValued: f.multiValued, kinds: kinds, maybeSingleValue: !f.multiValued)
    }

    /// The pointer class assumed for a field tested with an inner query on that class.
    func pointerTarget(_ path: FieldPath, in className: String?) -> String? {
        fields.first(where: { $0.className == (className ?? "") && $0.path == path })?.target
    }

    /// The assumptions in words, e.g. `age: a number; tags: an array of strings`.
    public var summary: String {
        fields.map { f in
            let what = f.kinds.isEmpty ? "any type" : Self.names(f.kinds, plural: f.multiValued)
            var holds = f.multiValued ? "an array of \(what)" : f.kinds.isEmpty ? "one value of any type" : what
            if let target = f.target { holds += " to \(target)" }
            let owner = f.className.isEmpty ? "" : f.className + "."
            return "\(owner)\(f.path): \(holds)"
        }.joined(separator: "; ")
    }

    // MARK: - Reading the query

    private mutating func note(
        _ className: String, _ path: FieldPath, multi: Bool, _ kinds: ValueKinds,
        target: String? = nil
    ) {
        if let i = fields.firstIndex(where: { $0.className == className && $0.path == path }) {
            fields[i].multiValued = fields[i].multiValued || multi
            fields[i].kinds.formUnion(kinds)
            if fields[i].target == nil { fields[i].target = target }
        } else {
            fields.append(Field(className: className, path: path, multiValued: multi, kinds: kinds, target: target))
        }
    }

    private mutating func collect(_ p: Filter, className: String, variables: [String: FieldPath], depth: Int) {
        // The converter reports IR nested deeper than its limits; this walk only stops.
        guard depth < 512 else { return }
        switch p {
        case .constant: return
        case .and(let ps), .or(let ps):
            for q in ps { collect(q, className: className, variables: variables, depth: depth + 1) }
        case .not(let q): collect(q, className: className, variables: variables, depth: depth + 1)
        case .leaf(let l): collect(l.condition, className: className, variables: variables, depth: depth + 1)
        }
    }

    private mutating func collect(_ c: Condition, className: String, variables: [String: FieldPath], depth: Int) {
        /// The field an operand names: a key, or a quantifier variable standing for its collection.
        func field(_ e: Expr) -> (path: FieldPath, element: Bool)? {
            switch e {
            case .key(let k): return (k, false)
            case .variable(let v): return variables[v].map { ($0, true) }
            default: return nil
            }
        }
        func record(_ e: Expr, _ literals: [Expr], multi: Bool = false) {
            guard let (path, element) = field(e) else { return }
            var kinds: ValueKinds = []
            var target: String?
            for x in literals {
                kinds.formUnion(Self.kinds(of: x))
                if case .literal(.pointer(let p)) = x { target = target ?? p.className }
            }
            note(className, path, multi: multi || element, kinds, target: target)
        }
        switch c {
        case .compare(let a, _, let b, _):
            if field(a) != nil && field(b) != nil {
                record(a, [])
                record(b, [])
            } else if field(a) != nil {
                record(a, [b])
            } else {
                record(b, [a])
            }
        case .between(let e, let lo, let hi):
            record(e, [lo, hi])
        case .inCollection(let e, let coll, _):
            if case .list(let items) = coll { record(e, items) } else { record(coll, [e], multi: true) }
        case .isNull(let e):
            record(e, [])
        case .string(let e, _, _, _):
            record(e, [.literal(.string(""))])
        case .containsAll(let e, let list), .containedBy(let e, let list):
            if case .list(let items) = list { record(e, items, multi: true) } else { record(e, [], multi: true) }
        case .arraySize(let e, _):
            record(e, [], multi: true)
        case .quantified(_, let coll, let v, let body):
            guard case .key(let k) = coll else { return }
            note(className, k, multi: true, [])
            var inner = variables
            inner[v] = k
            collect(body, className: className, variables: inner, depth: depth + 1)
        case .geo(let g):
            if case .polygonContains = g {
                note(className, g.key, multi: false, .polygon)
            } else {
                note(className, g.key, multi: false, .geoPoint)
            }
        case .text(let k, _):
            note(className, k, multi: false, .string)
        case .inQuery(let k, let q):
            note(className, k, multi: false, .pointer, target: q.className)
            collect(q.predicate, className: q.className, variables: [:], depth: depth + 1)
        case .select(let k, let q, let innerKey):
            note(className, k, multi: false, [])
            note(q.className, innerKey, multi: false, [])
            collect(q.predicate, className: q.className, variables: [:], depth: depth + 1)
        case .relatedTo:
            return
        }
    }

    /// The kinds a literal operand stands for (an array literal: its elements').
    private static func kinds(of e: Expr) -> ValueKinds {
        switch e {
        case .literal(.array(let items)): return items.reduce(into: []) { $0.formUnion(ValueKinds(of: $1)) }
        case .literal(let v): return ValueKinds(of: v)
        case .list(let items): return items.reduce(into: []) { $0.formUnion(kinds(of: $1)) }
        case .function(.now, _), .function(.relativeTime, _): return .date
        default: return []
        }
    }

    private static func names(_ kinds: ValueKinds, plural: Bool) -> String {
        let table: [(ValueKinds, String, String)] = [
            (.number, "a number", "numbers"), (.string, "a string", "strings"), (.date, "a date", "dates"),
            (.bool, "a boolean", "booleans"), (.pointer, "a pointer", "pointers"), (.object, "an object", "objects"),
            (.geoPoint, "a geo point", "geo points"), (.polygon, "a polygon", "polygons"), (.bytes, "bytes", "bytes"),
            (.file, "a file", "files"), (.collection, "an array", "arrays"),
        ]
        let words = table.filter { kinds.contains($0.0) }.map { plural ? $0.2 : $0.1 }
        return words.count <= 1
            ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }
}
