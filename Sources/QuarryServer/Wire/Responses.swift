import HTTPTypes
import Hummingbird
import NIOCore
import Quarry

/// JSON answers and request bodies.
enum Wire {
    static func json(_ value: JSON, status: HTTPResponse.Status = .ok) -> Response {
        var bytes: [UInt8] = []
        JSONWriter.write(value, to: &bytes)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func error(_ error: APIError, backendless: Bool = false) -> Response {
        json(error.body(backendless: backendless), status: error.status)
    }

    /// The request body as a JSON object (an empty body is `{}`), read up to the cap.
    static func body(_ request: Request, limit: Int) async throws(APIError) -> JSONObject {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(
                status: .contentTooLarge, code: APIError.invalidJSON,
                message: "the request body is larger than \(limit) bytes")
        } catch {
            throw APIError(
                status: .badRequest, code: APIError.invalidJSON, message: "the request body could not be read")
        }
        let bytes = Array(buffer.readableBytesView)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return JSONObject() }
        return try object(bytes, what: "request body")
    }

    /// JSON text that must be an object (a body, a `where` parameter).
    static func object(_ bytes: [UInt8], what: String) throws(APIError) -> JSONObject {
        let parsed: JSON
        do { parsed = try JSONParser().parse(bytes) } catch {
            throw .parse(APIError.invalidJSON, "invalid JSON in the \(what): \(error.message)")
        }
        guard case .object(let o) = parsed else {
            throw .parse(APIError.invalidJSON, "the \(what) must be a JSON object, not \(parsed.typeName)")
        }
        return o
    }

    /// Runs a handler, answering an `APIError` in the platform's error shape.
    static func handle(
        backendless: Bool = false,
        _ body: () async throws(APIError) -> Response
    ) async -> Response {
        do { return try await body() } catch { return Wire.error(error, backendless: backendless) }
    }
}
