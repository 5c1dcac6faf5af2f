import Hummingbird
import Logging
import Metrics
import Quarry
import ServiceLifecycle

/// The reference backend: Parse REST under `/parse`, LeanCloud under `/1.1`, Backendless under
/// `/api/data`, `POST /query` and `GET /health`, over any `QueryBackend` (docs/SERVER.md).
///
/// ```swift
/// let server = QuarryServer(backend: InMemoryBackend(database: db, limits: config.limits),
///                           configuration: ServerConfiguration(applicationId: "app"))
/// try await server.run(host: "127.0.0.1", port: 1337)   // until SIGTERM or SIGINT
/// ```
public struct QuarryServer: Sendable {
    public let backend: any QueryBackend
    public let configuration: ServerConfiguration
    public let logger: Logger

    public init(
        backend: any QueryBackend, configuration: ServerConfiguration,
        logger: Logger = Logger(label: "quarry.serve"),
        now: @escaping @Sendable () -> Int64 = ReferenceEvaluator.systemClock
    ) {
        self.backend = backend
        self.configuration = configuration
        self.logger = logger
        self.now = now
    }

    private let now: @Sendable () -> Int64

    /// Every route, behind request metrics (swift-metrics: counters and latency timers per
    /// route, method and status), backpressure and request logging (swift-log).
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        let metrics = RequestMetrics(factory: configuration.metricsFactory ?? MetricsSystem.factory)
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(
            middleware: BackpressureMiddleware(
                limiter: RequestLimiter(maxInFlight: configuration.maxInFlight, maxQueued: configuration.maxQueued)))
        router.add(middleware: LogRequestsMiddleware(.info))
        router.get("/health") { _, _ in Wire.json(["status": "ok"]) }
        let service = DataService(backend: backend, limits: configuration.limits, writes: WriteQueue(), now: now)
        let resolver = PrincipalResolver(backend: backend, now: now)
        let credentials = configuration.credentials
        let parse = ParseRoutes(
            service: service, resolver: resolver,
            authenticate: { headers throws(APIError) in try credentials.parse(headers) },
            profile: configuration.profile ?? .parse, maxBodyBytes: configuration.maxBodyBytes)
        parse.register(on: router, prefix: "/parse")
        ParseRoutes(
            service: service, resolver: resolver,
            authenticate: { headers throws(APIError) in try credentials.leanCloud(headers) },
            profile: configuration.profile ?? .leancloud, maxBodyBytes: configuration.maxBodyBytes
        )
        .register(on: router, prefix: "/1.1")
        BackendlessRoutes(
            service: service,
            parse: ParseRoutes(
                service: service, resolver: resolver,
                authenticate: { headers throws(APIError) in try credentials.backendless(headers) },
                profile: configuration.profile ?? .backendless,
                maxBodyBytes: configuration.maxBodyBytes),
            credentials: credentials
        )
        .register(on: router)
        QueryRoute(service: service, parse: parse).register(on: router)
        return router
    }

    /// The application on `host:port` (port 0: one the system chooses, handed to `onListening`).
    public func application(
        host: String, port: Int, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "quarry"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting connections and finishes the
    /// requests in flight before returning (swift-service-lifecycle's graceful shutdown).
    public func run(host: String, port: Int, onListening: @escaping @Sendable (Int) async -> Void = { _ in })
        async throws
    {
        try await application(host: host, port: port, onListening: onListening)
            .runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }
}
