import Foundation
import QuarryCore
import Testing

/// `Diagnostic` is the one thrown type: several problems travel as one diagnostic with the rest
/// related, and a code is its raw string wherever it is written out.
@Suite struct DiagnosticTests {
    let first = Diagnostic(.lex.unterminatedString, "unterminated", at: SourceRange(offset: 7, length: 1))
    let second = Diagnostic(.syntax.unexpectedToken, "unexpected", at: SourceRange(offset: 9, length: 3))
    let third = Diagnostic(.limit.nesting, "too deep")

    @Test func noProblemsThrowNothing() throws {
        try Diagnostic.throwIfAny([])
    }

    @Test func problemsThrowTheFirstWithTheRestRelated() {
        var pair = second
        pair.related = [third]
        do throws(Diagnostic) {
            try Diagnostic.throwIfAny([first, pair])
            Issue.record("nothing thrown")
        } catch {
            #expect(error.code == "lex.unterminated-string")
            #expect(error.related.map(\.code) == ["syntax.unexpected-token", "limit.nesting"])
            #expect(error.all == [first, second, third])
            #expect(error.all.filter { !$0.related.isEmpty }.isEmpty)
            #expect(
                error.description == """
                    error[lex.unterminated-string]: unterminated
                    error[syntax.unexpected-token]: unexpected
                    error[limit.nesting]: too deep
                    """)
        }
    }

    @Test func theCodeIsWrittenAsItsRawString() throws {
        var d = first
        d.related = [third]
        d.parseCode = 107
        let data = try JSONEncoder().encode(d)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["code"] as? String == "lex.unterminated-string")
        #expect(try JSONDecoder().decode(Diagnostic.self, from: data) == d)
        #expect(SourceText("name = 'x").render(first).hasPrefix("error[lex.unterminated-string]: unterminated\n"))
    }

    @Test func codesAreEqualByTheirRawValue() {
        let decoded = DiagnosticCode(rawValue: "limit.nesting")
        #expect(decoded == .limit.nesting)
        #expect(Set([decoded, DiagnosticCode.limit.nesting]).count == 1)
        #expect(decoded.meaning.isEmpty && !DiagnosticCode.limit.nesting.meaning.isEmpty)
        #expect(DiagnosticCode.limit.nesting.domain == "limit")
        #expect(DiagnosticCode.limit.queryLength.parseCode == 102)
    }
}
