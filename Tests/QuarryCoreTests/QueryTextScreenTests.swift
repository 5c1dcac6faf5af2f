import QuarryCore
import Testing

/// `QueryTextScreen`: the length cap and the NUL check every front-end makes first, each
/// located by UTF-8 byte offset.
@Suite struct QueryTextScreenTests {
    static func failure(_ text: String, _ limits: Limits = .default) -> Diagnostic? {
        do throws(Diagnostic) {
            try QueryTextScreen.check(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        arguments: [
            ("\u{0}age > 1", 0), ("age > 1\u{0}", 7), ("naïve = 'é\u{0}'", 12), ("😀\u{0}\u{0}", 4),
        ] as [(String, Int)])
    func aNulIsLocatedByItsByteOffset(text: String, offset: Int) throws {
        let error = try #require(Self.failure(text))
        #expect(error.code == "input.nul")
        #expect(error.range == SourceRange(offset: offset, length: 1))
    }

    @Test func textWithoutNulPasses() {
        #expect(Self.failure("name = 'a\\u0000b' AND naïve > 2") == nil)
        #expect(Self.failure("") == nil)
    }

    @Test func tooLongTextIsRefusedFirst() throws {
        var limits = Limits.default
        limits.maxQueryLength = 4
        let error = try #require(Self.failure("abcdef\u{0}", limits))
        #expect(error.code == "limit.query-length")
        #expect(error.range == SourceRange(offset: 4, length: 3))
    }
}
