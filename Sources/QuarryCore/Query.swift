/// A whole query: which class, which objects, in what order, which page, which fields.
public struct Query: Hashable, Codable, Sendable {
    public var className: String
    public var predicate: Filter
    public var order: [SortKey]
    public var skip: Int?
    public var limit: Int?
    /// Fields to return (nil: all). `objectId`, `createdAt` and `updatedAt` always come back.
    public var keys: [FieldPath]?
    public var excludeKeys: [FieldPath]
    /// Pointer fields whose targets are embedded in the results (dot paths for nested ones).
    public var includes: [FieldPath]
    /// Only the number of matches is wanted.
    public var count: Bool
    public var profile: Profile

    public init(
        className: String, predicate: Filter = .constant(true), order: [SortKey] = [],
        skip: Int? = nil, limit: Int? = nil, keys: [FieldPath]? = nil,
        excludeKeys: [FieldPath] = [], includes: [FieldPath] = [], count: Bool = false,
        profile: Profile = .exact
    ) {
        self.className = className
        self.predicate = predicate
        self.order = order
        self.skip = skip
        self.limit = limit
        self.keys = keys
        self.excludeKeys = excludeKeys
        self.includes = includes
        self.count = count
        self.profile = profile
    }
}

public enum SortDirection: String, Hashable, Codable, Sendable {
    case ascending, descending
}

public enum SortKey: Hashable, Codable, Sendable {
    case key(FieldPath, SortDirection)
    /// Nearest first (ascending) from `point` to the geo point at `key`.
    case distance(FieldPath, from: GeoPoint, SortDirection)
}

// MARK: - Profiles (docs/SEMANTICS.md#profiles)

/// The defaults that differ between the seed systems. `exact` is the library's and CLI's default.
public enum Profile: String, Hashable, Codable, Sendable, CaseIterable {
    case exact, parse, leancloud, maxleap, backendless

    /// Results returned when the query sets no limit (nil: all).
    public var defaultLimit: Int? {
        switch self {
        case .exact: return nil
        case .parse, .leancloud, .maxleap: return 100
        case .backendless: return 10
        }
    }

    /// The largest limit a query may ask for (nil: no maximum).
    public var maxLimit: Int? {
        switch self {
        case .exact: return nil
        case .parse, .leancloud, .maxleap: return 1000
        case .backendless: return 100
        }
    }

    /// Rows an inner query (`$inQuery`, `$select`, …) contributes when it sets no limit
    /// (nil: all of them, subject to the safety caps).
    public var defaultInnerLimit: Int? {
        switch self {
        case .exact, .backendless: return nil
        case .parse, .leancloud, .maxleap: return 100
        }
    }

    /// The largest limit an inner query may set.
    public var maxInnerLimit: Int? {
        switch self {
        case .exact, .backendless: return nil
        case .parse, .leancloud, .maxleap: return 1000
        }
    }
}

/// Safety caps: settings, not constants, applied in every profile. Exceeding one is a clear
/// error, never a crash or a silent truncation.
public struct Limits: Hashable, Codable, Sendable {
    /// Longest query text, in UTF-8 bytes.
    public var maxQueryLength: Int
    /// Deepest nesting of parentheses, boolean operators and expressions.
    public var maxNestingDepth: Int
    /// Most elements in one IN list or literal aggregate.
    public var maxInListSize: Int
    /// Most subqueries in one query, and their deepest nesting.
    public var maxSubqueries: Int
    public var maxSubqueryDepth: Int
    /// Most rows one inner query may materialize before the query fails.
    public var maxInnerRows: Int
    /// PCRE2 match and depth budgets for one regex match. The depth limit bounds PCRE2's
    /// interpreter; JIT-compiled matching ignores it and is bounded by its own stack instead.
    public var regexMatchLimit: UInt32
    public var regexDepthLimit: UInt32
    /// Whether patterns are JIT-compiled (faster; off, every match is the interpreter's and
    /// `regexDepthLimit` applies exactly).
    public var regexJIT: Bool
    /// PCRE2 match steps one query may spend on all its regex matches together, summed over
    /// rows (each match is charged a lower bound of its work; see docs/SEMANTICS.md, limits).
    public var regexTotalLimit: UInt64
    /// Wall-clock budget for running one query, in seconds (nil: none).
    public var deadlineSeconds: Double?
    /// Most cells (fields × objects) a class of the in-memory store may have while fewer than
    /// one cell in 64 holds a value: every column keeps a slot for every object, so a class
    /// whose objects each bring fields of their own grows quadratically. Loading a data file
    /// past it fails and a write adding fields past it is refused (docs/STORAGE.md#sparse-fields).
    public var maxSparseCells: Int

    public init(
        maxQueryLength: Int = 100_000, maxNestingDepth: Int = 100,
        maxInListSize: Int = 10_000, maxSubqueries: Int = 16, maxSubqueryDepth: Int = 4,
        maxInnerRows: Int = 1_000_000, regexMatchLimit: UInt32 = 1_000_000,
        regexDepthLimit: UInt32 = 10_000, regexJIT: Bool = true, regexTotalLimit: UInt64 = 20_000_000,
        deadlineSeconds: Double? = nil, maxSparseCells: Int = 1 << 28
    ) {
        self.maxQueryLength = maxQueryLength
        self.maxNestingDepth = maxNestingDepth
        self.maxInListSize = maxInListSize
        self.maxSubqueries = maxSubqueries
        self.maxSubqueryDepth = maxSubqueryDepth
        self.maxInnerRows = maxInnerRows
        self.regexMatchLimit = regexMatchLimit
        self.regexDepthLimit = regexDepthLimit
        self.regexJIT = regexJIT
        self.regexTotalLimit = regexTotalLimit
        self.deadlineSeconds = deadlineSeconds
        self.maxSparseCells = maxSparseCells
    }

    public static let `default` = Limits()

    /// Tighter caps for text from clients one does not trust (a public endpoint): short
    /// queries, shallow nesting, small regex budgets, a 2-second deadline and classes at most
    /// 16 million cells wide unless a cell in 64 holds a value.
    public static let untrusted = Limits(
        maxQueryLength: 10_000, maxNestingDepth: 32, maxInListSize: 1_000, maxSubqueries: 8,
        maxSubqueryDepth: 2, maxInnerRows: 100_000, regexMatchLimit: 100_000, regexDepthLimit: 1_000,
        regexTotalLimit: 2_000_000, deadlineSeconds: 2, maxSparseCells: 1 << 24)
}

extension Limits {
    /// When a query that starts now runs out of `deadlineSeconds` (nil: no deadline). NaN and
    /// negative budgets are already spent; absurdly large ones are "a long time".
    package func deadlineFromNow() -> ContinuousClock.Instant? {
        guard let seconds = deadlineSeconds else { return nil }
        let budget = seconds.isNaN ? 0 : Swift.min(Swift.max(seconds, 0), 1e9)
        return ContinuousClock.now.advanced(by: .seconds(budget))
    }

    /// The error of a query that ran out of its time budget.
    package var deadlineExceeded: Diagnostic {
        Diagnostic(.limit.deadline, "the query ran out of its time budget of \(deadlineSeconds ?? 0) seconds")
    }
}
