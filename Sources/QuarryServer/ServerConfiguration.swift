import Foundation
import Metrics
import Quarry

/// How `quarry serve` runs: the application's keys, the profile, the safety caps and the
/// request-body cap.
public struct ServerConfiguration: Sendable {
    public var applicationId: String
    public var restKey: String?
    public var masterKey: String?
    /// Overrides each API's own profile (`parse` under /parse and /query, `leancloud` under
    /// /1.1, `backendless` under /api) when set.
    public var profile: Profile?
    /// Caps for compiling and running every request's query, the deadline among them.
    public var limits: Limits
    /// The largest request body read, in bytes; a larger one is refused with 413.
    public var maxBodyBytes: Int
    /// Requests handled at once, and requests waiting for a turn beyond them; a request past
    /// both is refused with 503 (docs/SERVER.md#backpressure). Both are at least 1.
    public var maxInFlight: Int
    public var maxQueued: Int
    /// Where the request metrics go (docs/SERVER.md#metrics); nil: the process's factory,
    /// `MetricsSystem.factory`, as bootstrapped.
    public var metricsFactory: (any MetricsFactory)?

    public init(
        applicationId: String, restKey: String? = nil, masterKey: String? = nil, profile: Profile? = nil,
        limits: Limits = ServerConfiguration.defaultLimits, maxBodyBytes: Int = 1 << 20,
        maxInFlight: Int = ServerConfiguration.defaultMaxInFlight, maxQueued: Int = 256,
        metricsFactory: (any MetricsFactory)? = nil
    ) {
        self.applicationId = applicationId
        self.restKey = restKey
        self.masterKey = masterKey
        self.profile = profile
        self.limits = limits
        self.maxBodyBytes = maxBodyBytes
        self.maxInFlight = max(1, maxInFlight)
        self.maxQueued = max(0, maxQueued)
        self.metricsFactory = metricsFactory
    }

    /// Four requests per core: handling is CPU-bound, so more at once adds latency, not
    /// throughput; the queue behind them absorbs bursts.
    public static var defaultMaxInFlight: Int { max(8, 4 * ProcessInfo.processInfo.activeProcessorCount) }

    /// The caps for text from clients one does not trust, deadline included: a hostile
    /// query cannot hold a core.
    public static var defaultLimits: Limits { .untrusted }

    var credentials: Credentials {
        Credentials(applicationId: applicationId, restKey: restKey, masterKey: masterKey)
    }
}
