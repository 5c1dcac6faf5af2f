import QuarryCore

/// A Parse REST JSON value that does not decode, with where it sits inside the decoded JSON.
///
/// Codes: `data.unknown-type` (a `__type` Quarry does not know, or not a string),
/// `data.wrapper` (a wrapper's field missing or of the wrong type), `data.date` (not an ISO-8601
/// date-time), `data.base64`, `data.object-id` (a record without a usable objectId),
/// `data.field` (a system field of the wrong type).
public struct ValueDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var diagnosticCode: DiagnosticCode
    /// Names the wrapper and the field: `Pointer is missing 'objectId'`.
    public var message: String
    /// From the decoded value to the offending one; empty for the value itself.
    public var path: JSONPath

    public init(_ code: DiagnosticCode, _ message: String, path: JSONPath = []) {
        self.diagnosticCode = code
        self.message = message
        self.path = path
    }

    /// The code as tools match on it: `data.wrapper`.
    public var code: String { diagnosticCode.rawValue }

    public var description: String {
        path.isEmpty ? "error[\(code)]: \(message)" : "error[\(code)]: \(path): \(message)"
    }

    /// The same error one level further out.
    func inside(_ component: JSONPath.Component) -> ValueDecodingError {
        var e = self
        e.path.components.insert(component, at: 0)
        return e
    }

    /// A diagnostic for a value decoded at `base` within a document; with the document's
    /// located tree, the range points at the offending value (or the nearest enclosing one).
    public func diagnostic(under base: JSONPath = [], in root: JSONNode? = nil) -> Diagnostic {
        let full = base.appending(path)
        return Diagnostic(
            diagnosticCode, message, at: root?.nearestRange(of: full),
            path: full.isEmpty ? nil : full.description)
    }
}
