#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input a line at a time, for `quarry shell` (docs/ARCHITECTURE.md#the-shell).
public protocol LineSource: AnyObject {
    /// Whether a person types the lines (a prompt and a banner are shown, history is kept).
    var isInteractive: Bool { get }
    /// The next line's bytes without its line ending; nil at the end of input. A line longer
    /// than `maxLineBytes` comes back cut to `maxLineBytes + 1` bytes, the rest skipped.
    func next(prompt: String) -> [UInt8]?
    /// Restores what the source changed (the terminal's mode) and saves its history.
    func close()
}

/// The longest line a source keeps whole: the longest query, and one byte to tell it is longer.
let maxLineBytes = 1 << 20

/// Lines split off a block of bytes, for input that is read at once (in-process consoles).
final class BufferedLines: LineSource {
    private let read: (Int) throws -> [UInt8]
    private var lines: [ArraySlice<UInt8>]?
    private var position = 0

    init(_ read: @escaping (Int) throws -> [UInt8]) { self.read = read }

    var isInteractive: Bool { false }

    func next(prompt: String) -> [UInt8]? {
        if lines == nil {
            let bytes = (try? read(1 << 30)) ?? []
            var split = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
            if split.last?.isEmpty == true { split.removeLast() }
            lines = split
        }
        guard let lines, position < lines.count else { return nil }
        defer { position += 1 }
        return LineEnding.strip(Array(lines[position].prefix(maxLineBytes + 1)))
    }

    func close() {}
}

/// Lines read from a descriptor as they arrive (a pipe or a file), so that a script can
/// write a query, read its answer and write the next.
final class DescriptorLines: LineSource {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var atEnd = false

    init(_ fd: Int32) { self.fd = fd }

    var isInteractive: Bool { false }

    func next(prompt: String) -> [UInt8]? {
        var skipping = false
        var line: [UInt8] = []
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                if !skipping { line += buffer[..<newline] }
                buffer.removeSubrange(...newline)
                return LineEnding.strip(Array(line.prefix(maxLineBytes + 1)))
            }
            if !skipping {
                line += buffer
                if line.count > maxLineBytes { skipping = true }
            }
            buffer.removeAll(keepingCapacity: true)
            if atEnd { return line.isEmpty && !skipping ? nil : Array(line.prefix(maxLineBytes + 1)) }
            fill()
        }
    }

    private func fill() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if n > 0 {
                buffer += chunk[0..<n]
                return
            }
            if n < 0 && errno == EINTR { continue }
            atEnd = true
            return
        }
    }

    func close() {}
}

enum LineEnding {
    /// A line without the CR of a CRLF ending.
    static func strip(_ line: [UInt8]) -> [UInt8] {
        line.last == 0x0D ? Array(line.dropLast()) : line
    }
}
