import Foundation
import Testing

/// The files and folders the documents name by their path from the root exist.
@Suite struct PathTests {
    /// The backquoted paths under `Sources/`, `Tests/`, `Grammar/` or `Benchmarks/` in a text.
    static func paths(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { p in ["Sources/", "Tests/", "Grammar/", "Benchmarks/"].contains { p.hasPrefix($0) } }
    }

    @Test func everyPathTheDocumentsNameExists() throws {
        var named: [String] = []
        var missing: [String] = []
        for document in ["docs/ARCHITECTURE.md", "docs/SEMANTICS.md"] {
            for path in Self.paths(in: try Repository.text(document)) {
                named.append(path)
                if !Repository.exists(path) { missing.append("\(document): \(path)") }
            }
        }
        #expect(named.count >= 10)
        #expect(missing.isEmpty, "\n\(missing.joined(separator: "\n"))")
    }

    @Test func pathsAreReadFromCodeSpans() {
        #expect(
            Self.paths(in: "see `Sources/A.swift` and `Tests/B/` but not Sources/C or `D.swift`")
                == ["Sources/A.swift", "Tests/B/"])
    }
}
