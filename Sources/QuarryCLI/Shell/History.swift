import Foundation

/// The shell's history: the lines entered, oldest first, kept in a file between sessions
/// (docs/ARCHITECTURE.md#the-shell). The file is `QUARRY_HISTORY` when set (empty: none),
/// else `~/.quarry_history`.
final class History {
    private(set) var entries: [String] = []
    let path: String?
    static let capacity = 1000

    init(path: String?) {
        self.path = path
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        entries = text.split(separator: "\n").suffix(Self.capacity).map(String.init)
    }

    convenience init(environment: [String: String]) {
        if let file = environment["QUARRY_HISTORY"] {
            self.init(path: file.isEmpty ? nil : file)
        } else {
            self.init(path: environment["HOME"].map { $0 + "/.quarry_history" })
        }
    }

    /// Adds a line, unless it is blank or repeats the last one.
    func add(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), entries.last != line else { return }
        entries.append(line)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    /// Writes the file (a failure to write loses only the history).
    func save() {
        guard let path else { return }
        try? (entries.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }
}
