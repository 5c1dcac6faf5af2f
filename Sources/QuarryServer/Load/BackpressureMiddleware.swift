import HTTPTypes
import Hummingbird

/// Holds each request to a turn of the `RequestLimiter`; a request refused a turn is answered
/// 503 with `Retry-After` and Parse's error 155 (request limit exceeded) at once, without being
/// read or run (docs/SERVER.md#backpressure).
struct BackpressureMiddleware<Context: RequestContext>: RouterMiddleware {
    let limiter: RequestLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard await limiter.acquire() else {
            var response = Wire.error(
                APIError(
                    status: .serviceUnavailable, code: APIError.requestLimitExceeded,
                    message:
                        "the server is busy: \(limiter.maxInFlight) requests running and \(limiter.maxQueued) waiting; retry later"
                ))
            response.headers[.retryAfter] = "1"
            return response
        }
        do {
            let response = try await next(request, context)
            await limiter.release()
            return response
        } catch {
            await limiter.release()
            throw error
        }
    }
}
