import Foundation

/// A target and the dependencies it declares, as `Package.swift` and the module table of
/// docs/ARCHITECTURE.md#modules each state them.
struct TargetEntry: Equatable {
    var name: String
    /// `library`, `executable`, `test` or `system library`.
    var kind: String
    var dependencies: Set<String>
}

enum ModuleGraph {
    /// The targets of a package manifest, read from its text: each top-level `.target(…)`,
    /// `.executableTarget(…)`, `.testTarget(…)` or `.systemLibrary(…)` call, its `name:` and the
    /// names in its `dependencies:` (a product dependency by its product name).
    static func targets(inManifest text: String) -> [TargetEntry] {
        let kinds = [
            ".target(": "library", ".executableTarget(": "executable", ".testTarget(": "test",
            ".systemLibrary(": "system library",
        ]
        let chars = Array(text)
        var out: [TargetEntry] = []
        var i = 0
        scan: while i < chars.count {
            for (opener, kind) in kinds where matches(chars, at: i, Array(opener)) {
                let open = i + opener.count - 1
                guard let close = closing(chars, from: open) else { break scan }
                let body = String(chars[(open + 1)..<close])
                if let name = firstString(after: "name:", in: body) {
                    out.append(TargetEntry(name: name, kind: kind, dependencies: dependencies(in: body)))
                }
                i = close + 1
                continue scan
            }
            i += 1
        }
        return out
    }

    /// The rows of the Markdown table between `<!-- module-table:begin -->` and
    /// `<!-- module-table:end -->`: target, kind, dependencies (`—` for none), description.
    static func targets(inTable markdown: String) -> [TargetEntry] {
        guard let start = markdown.range(of: "<!-- module-table:begin -->"),
            let end = markdown.range(of: "<!-- module-table:end -->", range: start.upperBound..<markdown.endIndex)
        else { return [] }
        let rows = markdown[start.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("|") }
        return rows.dropFirst(2).compactMap { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map(unquoted)
            guard cells.count >= 3 else { return nil }
            let deps = cells[2] == "—" ? [] : cells[2].split(separator: ",").map { unquoted($0) }
            return TargetEntry(name: cells[0], kind: cells[1], dependencies: Set(deps))
        }
    }

    /// What differs between the manifest's targets and the table's rows, one line each.
    static func differences(manifest: [TargetEntry], table: [TargetEntry]) -> [String] {
        var out: [String] = []
        let rows = Dictionary(table.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for name in duplicates(table.map(\.name)) { out.append("\(name): listed more than once in the table") }
        for target in manifest {
            guard let row = rows[target.name] else {
                out.append("\(target.name): in Package.swift but not in the table")
                continue
            }
            if row.kind != target.kind {
                out.append("\(target.name): Package.swift declares kind \(target.kind), the table says \(row.kind)")
            }
            if row.dependencies != target.dependencies {
                out.append(
                    "\(target.name): Package.swift depends on \(sorted(target.dependencies)), "
                        + "the table on \(sorted(row.dependencies))")
            }
        }
        let declared = Set(manifest.map(\.name))
        for row in table where !declared.contains(row.name) {
            out.append("\(row.name): in the table but not in Package.swift")
        }
        return out
    }

    private static func matches(_ chars: [Character], at i: Int, _ word: [Character]) -> Bool {
        i + word.count <= chars.count && Array(chars[i..<(i + word.count)]) == word
    }

    /// The index of the bracket that closes the one at `open` (string literals skipped).
    private static func closing(_ chars: [Character], from open: Int) -> Int? {
        var depth = 0
        var inString = false
        var i = open
        while i < chars.count {
            let c = chars[i]
            if inString {
                if c == "\\" { i += 1 } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "(" || c == "[" {
                depth += 1
            } else if c == ")" || c == "]" {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }

    private static func firstString(after label: String, in text: String) -> String? {
        guard let at = text.range(of: label) else { return nil }
        return strings(in: String(text[at.upperBound...])).first
    }

    /// The names in `dependencies: [ … ]`: string literals, except a product's package name.
    private static func dependencies(in body: String) -> Set<String> {
        guard let label = body.range(of: "dependencies:"), let open = body[label.upperBound...].firstIndex(of: "[")
        else { return [] }
        let chars = Array(body[open...])
        guard let close = closing(chars, from: 0) else { return [] }
        var list = String(chars[1..<close])
        while let package = list.range(of: #"package:\s*"[^"]*""#, options: .regularExpression) {
            list.removeSubrange(package)
        }
        return Set(strings(in: list))
    }

    /// The contents of the string literals in `text`, in order.
    private static func strings(in text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    private static func unquoted<S: StringProtocol>(_ s: S) -> String {
        String(s).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
    }

    private static func duplicates(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { !seen.insert($0).inserted }
    }

    private static func sorted(_ names: Set<String>) -> String {
        names.isEmpty ? "nothing" : names.sorted().joined(separator: ", ")
    }
}
