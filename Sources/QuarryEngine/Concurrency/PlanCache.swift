import QuarryCore

/// A replica's cached plans by shape, behind its lock. A plan holds per-run state (counters,
/// scratch batches, memoized answers), so each is used by one reader at a time: a reader takes
/// one out, runs it and puts it back; readers running the same shape at once each get their
/// own (docs/ARCHITECTURE.md#concurrency).
struct PlanCache {
    var planner: Planner
    var counts = PlanCounts()
    private var plans: [PlanShape: [CachedPlan]] = [:]
    private var size = 0

    init(planner: Planner) { self.planner = planner }

    private static let capacity = 256
    /// Plans kept per shape: as many as readers are likely to run it at once.
    private static let perShape = 8

    /// A plan for the shape made for the store's current version, preferring one made for the
    /// same literals; it leaves the cache until it is put back.
    ///
    /// - Parameter lasting: the caller hands this same shape object again for the same shape
    ///   (a text template's, docs/ARCHITECTURE.md#text-templates): the plans are then filed
    ///   under it, so that the next lookups find it by identity instead of comparing the whole
    ///   skeleton.
    /// - Parameter keeping: leave the plan in the cache (a caller that only checks it, under the
    ///   cache's lock); a plan made for other data is dropped either way.
    mutating func take(
        _ shape: PlanShape, _ literals: [Value], version: UInt64, lasting: Bool = false, keeping: Bool = false
    ) -> CachedPlan? {
        // One lookup (a shape compares its whole skeleton unless it is the key itself), then
        // changes in place.
        guard var at = plans.index(forKey: shape), !plans.values[at].isEmpty else { return nil }
        if lasting, !PlanShape.identical(plans.keys[at], shape) {
            let pool = plans.remove(at: at).value
            plans[shape] = pool
            at = plans.index(forKey: shape)!
        }
        let pool = plans.values[at]
        let i =
            pool.count == 1 ? 0 : pool.lastIndex { PlanShape.sameLiterals($0.literals, literals) } ?? pool.count - 1
        let current = pool[i].plan.storeVersion == version
        guard keeping, current else {
            let cached = plans.values[at].remove(at: i)
            size -= 1
            // Put back, it finds its key by identity too.
            if lasting { cached.shape = shape }
            return current ? cached : nil
        }
        if lasting { pool[i].shape = shape }
        return pool[i]
    }

    mutating func put(_ entry: CachedPlan) {
        if let at = plans.index(forKey: entry.shape) {
            guard plans.values[at].count < Self.perShape else { return }
            if size < Self.capacity {
                plans.values[at].append(entry)
                size += 1
                return
            }
        }
        if size >= Self.capacity { reset() }
        plans[entry.shape, default: []].append(entry)
        size += 1
    }

    /// Plans made for data that has changed are no use: drop them all.
    mutating func reset() {
        plans.removeAll(keepingCapacity: true)
        size = 0
    }

    /// - Parameter literals: the query's literals, for a plan cached by its shape.
    func build(_ query: Query, literals: [Value]? = nil) throws(Diagnostic) -> Plan {
        guard let p = planner.plan(query, failedInner: [:], literals: literals) else {
            throw QueryValidator.unknownClass(query.className)
        }
        return p
    }
}

/// The plan last built for a shape, with the literals and variable names it was built for.
/// Unchecked: it is either in the cache (behind the lock) or checked out by one reader.
final class CachedPlan: @unchecked Sendable {
    var shape: PlanShape
    var plan: Plan
    var literals: [Value]
    var variables: Set<String>
    init(shape: PlanShape, plan: Plan, literals: [Value], variables: Set<String>) {
        self.shape = shape
        self.plan = plan
        self.literals = literals
        self.variables = variables
    }
}

/// A plan in one reader's hands, and the cache entry to put back (nil for a plan made for
/// one run only). Unchecked for the same reason as `CachedPlan`.
struct CheckedOutPlan: @unchecked Sendable {
    let plan: Plan
    let entry: CachedPlan?
    /// How the plan was had, for the engine's observer.
    let outcome: PlanEvent.CacheOutcome
    /// The query's literals when the plan reads them from the execution (nil: its own;
    /// docs/ARCHITECTURE.md#plan-parameters).
    var literals: [Value]? = nil
}
