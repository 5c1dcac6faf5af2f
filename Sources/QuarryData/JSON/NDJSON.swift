import Foundation
import QuarryCore

/// Newline-delimited JSON: one value per line; blank lines (only spaces, tabs, `\r`) are
/// skipped, and a `\r` before the `\n` is allowed. A diagnostic's message starts with the
/// 1-based line number; its range is a byte range of the whole input.
public enum NDJSON {
    public struct Line: Sendable {
        /// 1-based.
        public var number: Int
        /// The value's line, without its line break.
        public var range: SourceRange
        public var value: JSON
    }

    public static func parse(_ bytes: [UInt8], parser: JSONParser = JSONParser()) throws(Diagnostic) -> [Line] {
        try bytes.withUnsafeBufferPointer { buf in
            Result(catching: { () throws(Diagnostic) -> [Line] in
                var lines: [Line] = []
                try forEachLine(buf) { number, start, end throws(Diagnostic) in
                    let value = try parseLine(buf, number: number, start: start, end: end, parser: parser)
                    lines.append(
                        Line(
                            number: number, range: SourceRange(offset: start, length: end - start),
                            value: value))
                }
                return lines
            })
        }.get()
    }

    public static func parse(_ text: String, parser: JSONParser = JSONParser()) throws(Diagnostic) -> [Line] {
        try parse(Array(text.utf8), parser: parser)
    }

    /// One line's value, with the line number put in front of a diagnostic's message.
    static func parseLine(
        _ buf: UnsafeBufferPointer<UInt8>, number: Int, start: Int, end: Int,
        parser: JSONParser
    ) throws(Diagnostic) -> JSON {
        do {
            return try parser.parse(buf, from: start, to: end)
        } catch {
            var d = error
            d.message = "line \(number): \(d.message)"
            throw d
        }
    }

    /// Calls `body` with the number and byte bounds of every non-blank line.
    static func forEachLine<E: Error>(
        _ buf: UnsafeBufferPointer<UInt8>,
        _ body: (_ number: Int, _ start: Int, _ end: Int) throws(E) -> Void
    ) throws(E) {
        var number = 1
        var start = 0
        while start <= buf.count {
            // memchr compares many bytes at a time: a byte loop here was a fifth of the reader's
            // time on a large file.
            var end = buf.count
            if start < buf.count, let base = buf.baseAddress, let hit = memchr(base + start, 0x0A, buf.count - start) {
                end = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            }
            let next = end + 1
            if end > start && buf[end - 1] == 0x0D { end -= 1 }
            if !isBlank(buf, start, end) { try body(number, start, end) }
            number += 1
            start = next
        }
    }

    private static func isBlank(_ buf: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        for i in start..<end {
            switch buf[i] {
            case 0x20, 0x09, 0x0D: continue
            default: return false
            }
        }
        return true
    }
}
