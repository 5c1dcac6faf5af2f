import Quarry

/// A query of the same shape with other literals, for timing the planning of a cached shape
/// with new literals: each scalar literal of the predicate changes value and keeps its type.
/// Numbers and dates move by a little; a string's last digit (else its last ASCII letter)
/// steps on, so that LIKE and regex patterns keep their wildcards and date strings still parse
/// (`preparedVariation` falls back to stepping every number of a string, for WKT rings).
enum LiteralVariation {
    static func vary(_ query: Query) -> Query {
        var q = query
        q.predicate = vary(query.predicate)
        return q
    }

    private static func vary(_ p: Filter) -> Filter {
        switch p {
        case .constant: return p
        case .and(let ps): return .and(ps.map(vary))
        case .or(let ps): return .or(ps.map(vary))
        case .not(let q): return .not(vary(q))
        case .leaf(var l):
            switch l.condition {
            case .compare(let a, let op, let b, let o): l.condition = .compare(vary(a), op, vary(b), o)
            case .between(let e, let lo, let hi): l.condition = .between(vary(e), lower: vary(lo), upper: vary(hi))
            case .inCollection(let e, let c, let o): l.condition = .inCollection(vary(e), vary(c), o)
            case .string(let e, let op, let pattern, let o): l.condition = .string(vary(e), op, vary(pattern), o)
            default: break
            }
            return .leaf(l)
        }
    }

    private static func vary(_ e: Expr) -> Expr {
        switch e {
        case .literal(let v): return .literal(vary(v))
        case .list(let items): return .list(items.map(vary))
        default: return e
        }
    }

    private static func vary(_ v: Value) -> Value {
        switch v {
        case .int(let i): return .int(i &+ 1)
        case .double(let d): return .double(d + 0.25)
        case .date(let ms): return .date(ms &+ 1000)
        case .string(let s): return .string(step(s))
        default: return v
        }
    }

    /// The same for a SQL where clause's text: each literal token changes as above and keeps
    /// its kind, everything else stays byte for byte (so that the two texts share a text
    /// template, docs/ARCHITECTURE.md#text-templates); nil when the text cannot be read. With
    /// `everyNumber`, a string steps the last digit of each number in it instead of its last
    /// digit alone: a WKT ring then moves every point and stays closed.
    static func vary(sqlText text: String, everyNumber: Bool = false) -> String? {
        guard let skeleton = SQLSkeleton(text) else { return nil }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        for literal in skeleton.literals {
            out += bytes[copied..<literal.start]
            let token = String(decoding: bytes[literal.start..<literal.end], as: UTF8.self)
            switch literal.kind {
            case .string: out += Array(step(token, everyNumber: everyNumber).utf8)
            case .integer:
                guard let n = Int64(token) else { return nil }
                out += Array(String(n &+ 1).utf8)
            case .decimal:
                guard let d = Double(token) else { return nil }
                out += Array((d + 0.25).description.utf8)
            }
            copied = literal.end
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The same for a Parse REST where object or find body: what a client varies changes, as
    /// above — the operands of operators (`"$gt": 50`, the members of `"$in": […]`, a regex)
    /// and a geo point's coordinates, each moved by 1 whatever its kind (so that a box's
    /// corners stay in order) — and everything else stays byte for byte (`$options`, an
    /// order, a limit, a class name, a date's text); nil when the text is not JSON.
    static func vary(jsonText text: String) -> String? {
        guard let root = try? JSONParser().parseLocated(text) else { return nil }
        var tokens: [(node: JSONNode, coordinate: Bool)] = []
        func collect(_ node: JSONNode, under key: String?) {
            switch node.kind {
            case .array(let items): items.forEach { collect($0, under: key) }
            case .object(let members): members.forEach { collect($0.value, under: $0.key) }
            case .int, .double, .string:
                let coordinate = key == "latitude" || key == "longitude"
                guard let key, key != "$options", key.hasPrefix("$") || coordinate else { return }
                tokens.append((node, coordinate))
            default: break
            }
        }
        collect(root, under: nil)
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var copied = 0
        for (node, coordinate) in tokens.sorted(by: { $0.node.range.offset < $1.node.range.offset }) {
            out += bytes[copied..<node.range.offset]
            switch node.kind {
            case .int(let n): out += Array(String(n &+ 1).utf8)
            case .double(let d): out += Array((d + (coordinate ? 1 : 0.25)).description.utf8)
            case .string(let s): out += Array(JSONWriter.string(.string(step(s))).utf8)
            default: out += bytes[node.range.offset..<node.range.end]
            }
            copied = node.range.end
        }
        out += bytes[copied...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The first variation of the text that `prepare` accepts: a new-literals time measured on
    /// a text that fails would time the failure (stepping the last digit of a WKT ring leaves
    /// it open). Nil when none is accepted.
    static func preparedVariation(
        of text: String, dialect: Dialect = .sql, _ prepare: (String) throws(Diagnostic) -> Void
    ) -> String? {
        if dialect == .json {
            guard let other = vary(jsonText: text), other != text, (try? prepare(other)) != nil else { return nil }
            return other
        }
        for everyNumber in [false, true] {
            guard let other = vary(sqlText: text, everyNumber: everyNumber) else { return nil }
            if other != text, (try? prepare(other)) != nil { return other }
        }
        return nil
    }

    private static func step(_ s: String, everyNumber: Bool = false) -> String {
        var scalars = Array(s.unicodeScalars)
        func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        func bump(_ i: Int) { scalars[i] = scalars[i] == "9" ? "0" : Unicode.Scalar(scalars[i].value + 1)! }
        let lastDigits = scalars.indices.filter {
            isDigit(scalars[$0]) && ($0 + 1 == scalars.count || !isDigit(scalars[$0 + 1]))
        }
        if everyNumber, !lastDigits.isEmpty {
            lastDigits.forEach(bump)
        } else if let i = scalars.lastIndex(where: isDigit) {
            bump(i)
        } else if let i = scalars.lastIndex(where: { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) {
            let c = scalars[i]
            scalars[i] = c == "z" ? "a" : c == "Z" ? "A" : Unicode.Scalar(c.value + 1)!
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }
}
