import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Metrics
import MetricsTestKit
import NIOCore
import Quarry
@testable import QuarryServer
import Testing

/// Backpressure (a bound on requests in flight and waiting) and the server's own request
/// metrics, read through swift-metrics' test factory.
@Suite struct LoadTests {
    typealias H = ServerHarness

    @Test func theLimiterQueuesUpToItsBoundThenRefuses() async throws {
        let limiter = RequestLimiter(maxInFlight: 1, maxQueued: 1)
        #expect(await limiter.acquire())
        let queued = Task { await limiter.acquire() }
        while await limiter.load != (1, 1) { await Task.yield() }
        #expect(await limiter.acquire() == false)
        await limiter.release()
        #expect(await queued.value)
        #expect(await limiter.load == (1, 0))
        await limiter.release()
        #expect(await limiter.load == (0, 0))
        #expect(await limiter.acquire())
    }

    /// A route that holds its request until released, behind the server's middleware.
    @Test func aRequestPastTheBoundIsRefusedWith503AndCounted() async throws {
        let metrics = TestMetrics()
        let limiter = RequestLimiter(maxInFlight: 1, maxQueued: 1)
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        let router = Router()
        router.add(middleware: RequestMetricsMiddleware(metrics: RequestMetrics(factory: metrics)))
        router.add(middleware: BackpressureMiddleware(limiter: limiter))
        router.get("/slow") { _, _ -> String in
            for await _ in gate { break }
            return "done"
        }
        let app = Application(router: router)
        try await app.test(.router) { client in
            async let first = client.execute(uri: "/slow", method: .get) { $0.status }
            async let second = client.execute(uri: "/slow", method: .get) { $0.status }
            while await limiter.load != (1, 1) { await Task.yield() }
            let refused = try await client.execute(uri: "/slow", method: .get) { response in
                (
                    response.status, response.headers[.retryAfter],
                    try JSONParser().parse(Array(response.body.readableBytesView))
                )
            }
            #expect(refused.0 == .serviceUnavailable && refused.1 == "1")
            #expect(refused.2["code"] == 155)
            opener.yield()
            opener.yield()
            #expect(try await first == .ok)
            #expect(try await second == .ok)
        }
        let dimensions = { (status: String) in [("route", "/slow"), ("method", "GET"), ("status", status)] }
        #expect(try metrics.expectCounter(RequestMetrics.requests, dimensions("503")).totalValue == 1)
        #expect(try metrics.expectCounter(RequestMetrics.requests, dimensions("200")).totalValue == 2)
        #expect(try metrics.expectTimer(RequestMetrics.duration, dimensions("200")).values.count == 2)
    }

    @Test func everyRequestIsCountedAndTimedByRouteMethodAndStatus() async throws {
        let metrics = TestMetrics()
        var configuration = H.configuration
        configuration.metricsFactory = metrics
        try await H.withServer(configuration) { (c: H.Client) async throws in
            _ = try await c.send(.get, "/parse/classes/Post")
            _ = try await c.send(.get, "/parse/classes/Post?where=%7B")
            _ = try await c.send(.get, "/parse/classes/Post/p1")
            _ = try await c.send(.get, "/health", headers: [:])
            _ = try await c.send(.post, "/parse/classes/Post", body: #"{"title":"t"}"#)
        }
        func count(_ route: String, _ method: String, _ status: String) throws -> Int64 {
            try metrics.expectCounter(
                RequestMetrics.requests, [("route", route), ("method", method), ("status", status)]
            ).totalValue
        }
        #expect(try count("/parse/classes/{className}", "GET", "200") == 1)
        #expect(try count("/parse/classes/{className}", "GET", "400") == 1)
        #expect(try count("/parse/classes/{className}/{objectId}", "GET", "200") == 1)
        #expect(try count("/health", "GET", "200") == 1)
        #expect(try count("/parse/classes/{className}", "POST", "201") == 1)
        let timer = try metrics.expectTimer(
            RequestMetrics.duration, [("route", "/parse/classes/{className}"), ("method", "GET"), ("status", "200")])
        #expect(timer.values.count == 1 && timer.values[0] > 0)
        #expect(try metrics.expectMeter(RequestMetrics.inFlightLabel).values.last == 0)
    }
}
