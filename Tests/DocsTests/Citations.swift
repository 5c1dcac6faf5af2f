import Foundation

/// A reference to a document section in the code's comments (`docs/SEMANTICS.md#pointers`) or
/// in a document's links (`[…](SEMANTICS.md#pointers)`, `[…](#pointers)`).
struct Citation: Equatable, CustomStringConvertible {
    /// Where it is written: a path from the root and a 1-based line.
    var file: String
    var line: Int
    /// The document, as a path from the root (`docs/SEMANTICS.md`), and the anchor, if any.
    var document: String
    var anchor: String?

    var description: String { "\(file):\(line): \(document)" + (anchor.map { "#\($0)" } ?? "") }

    /// The `docs/NAME.md` and `docs/NAME.md#anchor` citations in a file's text.
    static func inCode(_ text: String, file: String) -> [Citation] {
        matches(of: #"docs/([A-Za-z0-9_-]+\.md)(#[A-Za-z0-9_-]+)?"#, in: text) { groups, line in
            Citation(
                file: file, line: line, document: "docs/" + groups[0]!, anchor: groups[1].map { String($0.dropFirst()) }
            )
        }
    }

    /// The relative links of a document in `docs/` to itself or to a sibling (`(#a)`,
    /// `(OTHER.md#a)`, `(OTHER.md)`); links that leave the folder or the site are not checked.
    static func inDocument(_ text: String, file: String) -> [Citation] {
        matches(of: #"\]\(([A-Za-z0-9_-]+\.md)?(#[A-Za-z0-9_-]+)?\)"#, in: text) { groups, line in
            guard groups[0] != nil || groups[1] != nil else { return nil }
            let document = groups[0].map { "docs/" + $0 } ?? file
            return Citation(
                file: file, line: line, document: document, anchor: groups[1].map { String($0.dropFirst()) })
        }
    }

    private static func matches(
        of pattern: String, in text: String,
        _ make: ([String?], Int) -> Citation?
    ) -> [Citation] {
        let regex = try! NSRegularExpression(pattern: pattern)
        var out: [Citation] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let s = String(line)
            for m in regex.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
                let groups = (1..<m.numberOfRanges).map { Range(m.range(at: $0), in: s).map { String(s[$0]) } }
                if let c = make(groups, i + 1), !out.contains(c) { out.append(c) }
            }
        }
        return out
    }

    /// Why the citation points nowhere, or nil when its document and heading exist.
    /// `documents` maps a document's path to its text (nil: no such file).
    func problem(_ documents: (String) -> String?) -> String? {
        guard let text = documents(document) else { return "\(self): there is no file \(document)" }
        guard let anchor else { return nil }
        let anchors = Markdown.anchors(text)
        if anchors.contains(anchor) { return nil }
        return "\(self): \(document) has no heading with the anchor #\(anchor)"
    }
}
