import Testing
@testable import QuarryData
import QuarryCore

@Suite struct NDJSONTests {
    @Test func oneValuePerNonBlankLine() throws {
        let text = "{\"a\":1}\r\n\n   \n[2, 3]\n\"x\"\t\n"
        let lines = try NDJSON.parse(text)
        #expect(lines.map(\.number) == [1, 4, 5])
        #expect(lines.map(\.value) == [["a": 1], [2, 3], "x"])
        #expect(lines[0].range == SourceRange(offset: 0, length: 7))
        #expect(lines[1].range == SourceRange(offset: 14, length: 6))
    }

    @Test func lastLineWithoutNewlineAndEmptyInput() throws {
        #expect(try NDJSON.parse("1\n2").map(\.value) == [1, 2])
        #expect(try NDJSON.parse("").isEmpty)
        #expect(try NDJSON.parse("\n\n").isEmpty)
    }

    @Test func errorsNameTheLineAndPointIntoIt() throws {
        let text = "{\"a\":1}\n\n{\"b\":}\n"
        var caught: Diagnostic?
        do { _ = try NDJSON.parse(text) } catch { caught = error }
        let d = try #require(caught)
        #expect(d.code == "json.syntax")
        #expect(d.message == "line 3: expected a value but found '}'")
        #expect(d.range == SourceRange(offset: 14, length: 1))
        let pos = SourceText(text).position(ofByte: 14)
        #expect((pos.line, pos.column) == (3, 6))
    }

    @Test func aValueMayNotSpanLines() throws {
        var caught: Diagnostic?
        do { _ = try NDJSON.parse("[1,\n2]") } catch { caught = error }
        #expect(caught?.message == "line 1: expected a value but found the end of the input")
        #expect(caught?.range?.offset == 3)
    }
}
