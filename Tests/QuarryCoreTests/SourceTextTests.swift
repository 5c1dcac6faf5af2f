import QuarryTestSupport
import Testing

@testable import QuarryCore

/// `SourceText` locates and renders diagnostics from tables it builds once (where lines start,
/// scalars every 256 bytes) and reads only the bytes around a range on a long line. The answers
/// are those of the straightforward reading that scans the text for every diagnostic, kept here
/// as the reference.
@Suite struct SourceTextTests {
    /// The reference: every diagnostic scans the text from its start and splits it into lines.
    struct Reference {
        let text: String
        var bytes: [UInt8] { Array(text.utf8) }

        func position(ofByte offset: Int) -> SourceText.Position {
            let end = max(0, min(offset, bytes.count))
            var line = 1, column = 1, scalars = 0
            for b in bytes[..<end] where b & 0xC0 != 0x80 {
                scalars += 1
                if b == 0x0A { line += 1; column = 1 } else { column += 1 }
            }
            return SourceText.Position(line: line, column: column, scalarOffset: scalars)
        }

        func line(_ n: Int) -> String {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return n >= 1 && n <= lines.count ? String(lines[n - 1]) : ""
        }

        func render(_ d: Diagnostic) -> String {
            var out = "error[\(d.code)]: \(d.message)\n"
            guard let range = d.range else { return out }
            let pos = position(ofByte: range.offset)
            out += " --> \(pos.line):\(pos.column)\n"
            let gutter = String(repeating: " ", count: String(pos.line).count)
            let length = SourceText(text).scalarLength(of: range)
            let window = SourceText.window(Array(line(pos.line).unicodeScalars), column: pos.column, length: length)
            out += "\(gutter) |\n\(pos.line) | \(window.text)\n"
            out += "\(gutter) | \(window.lead)\(String(repeating: "^", count: window.width))\n"
            return out
        }
    }

    static let pieces: [String] = ["a", "b", " ", "\t", "é", "€", "𝄞", "e\u{301}", "'", "=", "1"]

    /// Random texts of one to four lines, from empty to 700 scalars long (short lines are shown
    /// whole, long ones cut to a window), with scalars of one to four bytes and tabs; ranges at
    /// every kind of place, past the line's end included.
    @Test func locationsAndRenderingsAreTheReferences() {
        var rng = SplitMix64(seed: 0x50_0E)
        for _ in 0..<400 {
            let lines = (0..<(Int(rng.next() % 4) + 1)).map { _ in
                let count = [0, 5, 60, 119, 121, 130, 400, 700][Int(rng.next() % 8)]
                return (0..<count).map { _ in Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }.joined()
            }
            let text = lines.joined(separator: "\n")
            let bytes = Array(text.utf8)
            let boundaries = (0...bytes.count).filter { $0 == bytes.count || bytes[$0] & 0xC0 != 0x80 }
            let source = SourceText(text), reference = Reference(text: text)
            for _ in 0..<8 {
                let start = boundaries[Int(rng.next() % UInt64(boundaries.count))]
                let ends = boundaries.filter { $0 >= start }
                let end = ends[Int(rng.next() % UInt64(min(ends.count, 90)))]
                let d = Diagnostic(.syntax.unexpectedToken, "x", at: SourceRange(offset: start, length: end - start))
                #expect(source.position(ofByte: start) == reference.position(ofByte: start), "\(text) @\(start)")
                #expect(source.render(d) == reference.render(d), "\(text) @\(start)+\(end - start)")
            }
            for n in 0...(lines.count + 1) { #expect(source.line(n) == reference.line(n)) }
        }
    }

    /// A CR before a LF ends the line with it: the second line is shown as written, not empty
    /// (splitting the text by `Character` kept CR LF together, one grapheme).
    @Test func crlfEndsALine() {
        let text = "age = 1\r\nAND name = 'x"
        let source = SourceText(text)
        #expect(source.line(1) == "age = 1")
        #expect(source.line(2) == "AND name = 'x")
        let d = Diagnostic(.lex.unterminatedString, "unterminated", at: SourceRange(offset: 20, length: 2))
        #expect(source.position(ofByte: 20) == SourceText.Position(line: 2, column: 12, scalarOffset: 20))
        #expect(source.render(d).contains("2 | AND name = 'x\n  |            ^^"))
    }
}
