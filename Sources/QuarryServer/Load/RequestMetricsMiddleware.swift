import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import Metrics

/// The server's own request metrics through swift-metrics (docs/SERVER.md#metrics): a counter
/// `quarry_requests_total` and a latency timer `quarry_request_duration_seconds` for each
/// route (the matched pattern, such as `/parse/classes/{className}`, or `unmatched`), method and
/// status, and a meter `quarry_requests_in_flight`. The factory is the process's
/// (`MetricsSystem.bootstrap`) unless one is given, so tests can read their own.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: RequestMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let status: HTTPResponse.Status
        let response: Response
        do {
            response = try await next(request, context)
            status = response.status
        } catch {
            // Hummingbird's own errors (an unknown path: 404); the handlers answer theirs.
            let failed = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.record(context.endpointPath, request.method, failed, since: start)
            throw error
        }
        metrics.record(context.endpointPath, request.method, status, since: start)
        return response
    }
}

/// The metric objects, made once for each route, method and status.
final class RequestMetrics: @unchecked Sendable {
    static let requests = "quarry_requests_total"
    static let duration = "quarry_request_duration_seconds"
    static let inFlightLabel = "quarry_requests_in_flight"

    private let factory: any MetricsFactory
    let inFlight: Meter
    private let lock = NSLock()
    private var made: [Key: (Counter, Metrics.Timer)] = [:]

    private struct Key: Hashable {
        var route: String
        var method: HTTPRequest.Method
        var status: Int
    }

    init(factory: any MetricsFactory) {
        self.factory = factory
        inFlight = Meter(label: Self.inFlightLabel, dimensions: [], factory: factory)
    }

    func record(_ route: String?, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status, since start: UInt64) {
        let key = Key(route: route ?? "unmatched", method: method, status: status.code)
        let (counter, timer) = lock.withLock {
            if let pair = made[key] { return pair }
            let dimensions = [("route", key.route), ("method", method.rawValue), ("status", String(key.status))]
            let pair = (
                Counter(label: Self.requests, dimensions: dimensions, factory: factory),
                Metrics.Timer(
                    label: Self.duration, dimensions: dimensions, preferredDisplayUnit: .seconds, factory: factory)
            )
            made[key] = pair
            return pair
        }
        counter.increment()
        timer.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
    }
}
