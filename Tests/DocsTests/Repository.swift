import Foundation

/// The repository these tests run in, found from this file's path (Tests/DocsTests/…), and
/// the text files the documentation checks read.
enum Repository {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of a file given by its path from the root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// Paths from the root of the Swift files under `folder`, sorted; `excluding` folders
    /// (paths from the root) are skipped.
    static func swiftFiles(under folder: String, excluding: [String] = []) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        var out: [String] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
            if excluding.contains(where: { path.hasPrefix($0 + "/") }) { continue }
            out.append(path)
        }
        return out.sorted()
    }

    /// The files whose comments cite the documents: every Swift source and test (but this
    /// target's own, which holds deliberately bad citations as test data) and the README.
    static var citingFiles: [String] {
        swiftFiles(under: "Sources") + swiftFiles(under: "Tests", excluding: ["Tests/DocsTests"]) + ["README.md"]
    }
}
