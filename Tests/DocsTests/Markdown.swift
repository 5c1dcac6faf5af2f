/// The headings of a Markdown document and the anchors GitHub gives them.
enum Markdown {
    /// The text of every ATX heading (`#` to `######`), outside fenced code blocks.
    static func headings(_ text: String) -> [String] {
        var out: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced, line.hasPrefix("#") else { continue }
            let hashes = line.prefix(while: { $0 == "#" })
            guard hashes.count <= 6, line.dropFirst(hashes.count).first == " " else { continue }
            out.append(trimmed(line.dropFirst(hashes.count)))
        }
        return out
    }

    /// GitHub's anchors for the headings, in order: the rendered text lowercased, characters
    /// other than letters, digits, `-`, `_` and spaces removed, spaces turned into `-`; a
    /// repeated anchor gets `-1`, `-2`… .
    static func anchors(_ text: String) -> [String] {
        var seen: [String: Int] = [:]
        return headings(text).map { heading in
            let base = slug(heading)
            let n = seen[base, default: 0]
            seen[base] = n + 1
            return n == 0 ? base : "\(base)-\(n)"
        }
    }

    /// A heading's text without the spaces and closing `#`s around it.
    private static func trimmed(_ s: Substring) -> String {
        let strip: (Character) -> Bool = { $0 == " " || $0 == "#" }
        return String(s.drop(while: strip).reversed().drop(while: strip).reversed())
    }

    static func slug(_ heading: String) -> String {
        var out = ""
        for ch in heading.lowercased() {
            if ch == " " {
                out.append("-")
            } else if ch == "-" || ch == "_" || ch.isLetter || ch.isNumber {
                out.append(ch)
            }
        }
        return out
    }
}
