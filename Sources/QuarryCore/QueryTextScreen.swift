/// The checks every front-end makes on query text before reading it, so that the three
/// dialects answer the same: the length cap, and no NUL character (docs/SEMANTICS.md, limits).
///
/// A raw NUL is rejected rather than read: C-based peers and logs cut text at it, so a query
/// holding one would not mean the same thing everywhere. Escaped forms that a dialect defines
/// (JSON's `\u0000`) are values, not raw characters, and stay allowed.
public enum QueryTextScreen {
    public static func check(_ text: String, limits: Limits) throws(Diagnostic) {
        let length = text.utf8.count
        if length > limits.maxQueryLength {
            throw Diagnostic(
                .limit.queryLength,
                "the query is \(length) bytes long; the limit is \(limits.maxQueryLength) (Limits.maxQueryLength)",
                at: SourceRange(offset: limits.maxQueryLength, length: length - limits.maxQueryLength))
        }
        // Over the bytes in place when the string has them (native strings do): the view's
        // own search steps index by index.
        let nul =
            text.utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: 0) }
            ?? text.utf8.firstIndex(of: 0).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
        if let nul {
            throw Diagnostic(
                .input.nul, "the query holds a NUL character; remove it (write \\u0000 inside a JSON string)",
                at: SourceRange(offset: nul, length: 1))
        }
    }
}
