import QuarryCore

/// Resolves written paths against a schema: stored names (case-insensitive fallback, as
/// Backendless resolves `Coordinates` to `coordinates`), pointer hops, and the type reached.
/// Without a schema, or below a field whose shape is unknown, names pass through unchecked.
struct ColumnResolver {
    let schema: (any Schema)?

    /// The stored key path and the type of the field it reaches (nil when unknown).
    func resolve(_ path: SQLPath, in className: String?) throws(Diagnostic) -> (FieldPath, FieldType?) {
        /// The path as written from component `i` on, after the names resolved before it.
        func unchecked(_ resolved: [String], from i: Int) -> FieldPath {
            FieldPath(resolved + path.components[i...].map(\.text))
        }
        guard let schema, var current = className, schema.hasClass(current) else {
            return (unchecked([], from: 0), nil)
        }
        var out: [String] = []
        out.reserveCapacity(path.components.count)
        var type: FieldType?
        var i = 0
        while i < path.components.count {
            let component = path.components[i]
            guard let field = schema.field(component.text, in: current) else {
                throw unknownColumn(component, in: current)
            }
            let stored = field.stored
            out.append(stored)
            type = field.type
            i += 1
            guard i < path.components.count else { break }
            switch type {
            case .pointer(let target)?, .relation(let target)?, .array(of: .pointer(let target)?)?:
                guard schema.hasClass(target) else { return (unchecked(out, from: i), nil) }
                current = target
            case .geoPoint?:
                let sub = path.components[i]
                guard let axis = ["latitude", "longitude"].first(where: { Keyword.equalsIgnoringCase($0, sub.text) })
                else {
                    throw Diagnostic(
                        .query.unknownColumn,
                        "'\(stored)' is a GeoPoint; it has only 'latitude' and 'longitude', not '\(sub.text)'",
                        at: sub.range)
                }
                out.append(axis)
                i += 1
                if i < path.components.count {
                    throw Diagnostic(
                        .query.unknownColumn,
                        "'\(stored).\(axis)' is a number; it has no field '\(path.components[i].text)'",
                        at: path.components[i].range)
                }
                return (FieldPath(out), .number)
            case nil, .mixed?, .object?, .array?:
                // Shape unknown below here: accept the rest as written.
                return (unchecked(out, from: i), nil)
            case let t?:
                throw Diagnostic(
                    .query.unknownColumn,
                    "'\(stored)' is a \(t) column; it has no field '\(path.components[i].text)'",
                    at: path.components[i].range)
            }
        }
        return (FieldPath(out), type)
    }

    /// The stored class name, or a located `query.unknown-class`.
    func resolveClass(_ name: SQLName) throws(Diagnostic) -> String {
        guard let schema, !schema.hasClass(name.text) else { return name.text }
        let matches = schema.classNames.filter { Keyword.equalsIgnoringCase($0, name.text) }
        if matches.count == 1 { return matches[0] }
        var message = "unknown class '\(name.text)'"
        if let hint = Suggestions.didYouMean(name.text, among: schema.classNames) { message += "; \(hint)" }
        throw Diagnostic(.query.unknownClass, message, at: name.range)
    }

    private func unknownColumn(_ name: SQLName, in className: String) -> Diagnostic {
        let known = schema?.fieldNames(in: className) ?? []
        let sameLetters = known.filter { $0.lowercased() == name.text.lowercased() }
        if sameLetters.count > 1 {
            return Diagnostic(
                .query.unknownColumn,
                "'\(name.text)' matches several columns of \(className) that differ only in case (\(sameLetters.joined(separator: ", "))); write the exact name",
                at: name.range)
        }
        var message = "unknown column '\(name.text)' in class \(className)"
        if let hint = Suggestions.didYouMean(name.text, among: known) { message += "; \(hint)" }
        var notes: [String] = []
        if !known.isEmpty, known.count <= 30 {
            notes.append("columns of \(className): \(known.joined(separator: ", "))")
        }
        return Diagnostic(.query.unknownColumn, message, at: name.range, notes: notes)
    }
}

/// "did you mean …?" by edit distance over lowercased names.
enum Suggestions {
    static func didYouMean(_ name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        let budget = max(1, min(3, target.count / 3))
        var best: [String] = []
        var bestDistance = Int.max
        for c in candidates {
            let d = editDistance(target, Array(c.lowercased().unicodeScalars), limit: budget)
            guard d <= budget else { continue }
            if d < bestDistance {
                bestDistance = d
                best = [c]
            } else if d == bestDistance {
                best.append(c)
            }
        }
        guard !best.isEmpty else { return nil }
        return "did you mean " + best.prefix(3).map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    /// Edit distance counting a swap of neighbours as one edit (`nmae` → `name`), or
    /// `limit + 1` once it must exceed `limit`. Long names get no suggestion.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit || a.count > 64 || b.count > 64 { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, row) = (previous, row, beforePrevious)
        }
        return previous[b.count]
    }
}
