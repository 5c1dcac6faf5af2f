import HTTPTypes
import Hummingbird
import Quarry

/// A failed request: the HTTP status parse-server answers with, Parse's numeric error code and
/// a message. Parse and LeanCloud write it as `{"code":…,"error":…}`, Backendless as
/// `{"code":…,"message":…}`; a request without the application's keys gets parse-server's bare
/// `{"error":"unauthorized"}`.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    /// Parse's code (nil only for `unauthorized`, which parse-server sends without one).
    var code: Int?
    var message: String

    static let objectNotFound = 101
    static let invalidQuery = 102
    static let invalidClassName = 103
    static let missingObjectId = 104
    static let invalidKeyName = 105
    static let invalidJSON = 107
    static let incorrectType = 111
    static let operationForbidden = 119
    static let timeout = 124
    static let requestLimitExceeded = 155
    static let invalidSessionToken = 209

    static let unauthorized = APIError(status: .forbidden, code: nil, message: "unauthorized")

    /// parse-server's statuses: 404 for a missing object, 500 for an internal error, else 400.
    static func parse(_ code: Int, _ message: String) -> APIError {
        let status: HTTPResponse.Status =
            switch code {
            case objectNotFound: .notFound
            case 1: .internalServerError
            default: .badRequest
            }
        return APIError(status: status, code: code, message: message)
    }

    static func notFound(_ message: String = "Object not found.") -> APIError {
        parse(objectNotFound, message)
    }

    /// A query or value the front-ends or the engine refused: its Parse code when it has one
    /// (the JSON dialect's codes), 124 for a spent deadline, else 102.
    init(_ diagnostic: Diagnostic) {
        let code =
            diagnostic.parseCode
            ?? (diagnostic.diagnosticCode == .limit.deadline ? APIError.timeout : APIError.invalidQuery)
        let where_ = diagnostic.path.map { " (at \($0))" } ?? ""
        self = .parse(code, diagnostic.message + where_)
    }

    init(status: HTTPResponse.Status, code: Int?, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// The platform's error body.
    func body(backendless: Bool) -> JSON {
        var o = JSONObject()
        if let code { o["code"] = .int(Int64(code)) }
        o[backendless ? "message" : "error"] = .string(message)
        return .object(o)
    }
}
