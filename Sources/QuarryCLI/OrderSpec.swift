import QuarryCore

/// `--order`: Parse style (`-score,name`) or SQL style (`score DESC, name`).
///
/// Items are separated by commas. An item is a key path, optionally prefixed with `-`
/// (descending, as Parse writes it) or followed by `ASC` / `DESC` (any case, as SQL writes it);
/// the two styles may not both be used on one item. A key may be backquoted (`` `order` DESC``).
enum OrderSpec {
    static func parse(_ text: String) throws(InvalidValue) -> [SortKey] {
        var keys: [SortKey] = []
        let items = text.split(separator: ",", omittingEmptySubsequences: false)
        for (n, raw) in items.enumerated() {
            let item = raw.trimmingSpaces
            guard !item.isEmpty else {
                throw InvalidValue(
                    items.count == 1
                        ? "the order is empty; give keys such as '-score,name' or 'score DESC, name'"
                        : "sort key \(n + 1) is empty (a stray comma?)")
            }
            keys.append(try sortKey(item))
        }
        return keys
    }

    private static func sortKey(_ item: Substring) throws(InvalidValue) -> SortKey {
        let words = item.split(whereSeparator: \.isWhitespace)
        var direction = SortDirection.ascending
        var key = words[0]
        var prefixed = false
        if key.hasPrefix("-") {
            prefixed = true
            direction = .descending
            key = key.dropFirst()
            if key.isEmpty { throw InvalidValue("expected a key after '-' in '\(item)'") }
        }
        switch words.count {
        case 1: break
        case 2:
            switch words[1].uppercased() {
            case "ASC": direction = .ascending
            case "DESC": direction = .descending
            default:
                throw InvalidValue("expected ASC or DESC after '\(words[0])' but found '\(words[1])'")
            }
            if prefixed {
                throw InvalidValue("'\(item)' gives the direction twice; write '-\(key)' or '\(key) DESC'")
            }
        default:
            throw InvalidValue("expected 'key', '-key' or 'key ASC|DESC' but found '\(item)'")
        }
        return .key(try FieldList.keyPath(key, role: "sort key"), direction)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return s
    }
}
