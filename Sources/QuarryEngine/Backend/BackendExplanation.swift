import QuarryCore
import QuarryData

/// How a backend runs a query: what it sends to its database (SQL with placeholders, never
/// the literals), what Quarry evaluates itself on the returned rows (the residual), and the
/// database's own plan. The in-memory engine has no statement; its plan is the engine's.
public struct BackendExplanation: Hashable, Sendable {
    public var backend: String
    /// The statement sent, with `?NNN` placeholders; nil when nothing is sent.
    public var statement: String?
    /// How many parameters the statement binds (their values are not shown: they are data).
    public var parameterCount: Int
    /// Conjuncts Quarry evaluates on the returned rows, rendered, each with why it stayed.
    public var residual: [ResidualPart]
    /// Whether the order, and skip/limit, run in the database.
    public var orderPushed: Bool
    public var pagePushed: Bool
    /// The database's plan (`EXPLAIN QUERY PLAN` rows, or the engine's plan), one line each.
    public var plan: [String]

    public init(
        backend: String, statement: String?, parameterCount: Int, residual: [ResidualPart],
        orderPushed: Bool, pagePushed: Bool, plan: [String]
    ) {
        self.backend = backend
        self.statement = statement
        self.parameterCount = parameterCount
        self.residual = residual
        self.orderPushed = orderPushed
        self.pagePushed = pagePushed
        self.plan = plan
    }

    /// A conjunct left to Quarry and why.
    public struct ResidualPart: Hashable, Sendable {
        public var predicate: String
        public var reason: String
        public init(predicate: String, reason: String) {
            self.predicate = predicate
            self.reason = reason
        }
    }

    /// The text form `quarry explain --store` prints.
    public var text: String {
        var lines = ["backend: \(backend)"]
        if let statement {
            lines.append("sql: \(statement)")
            lines.append("parameters: \(parameterCount) bound")
        }
        if residual.isEmpty {
            lines.append("residual: none")
        } else {
            lines.append("residual (evaluated by Quarry on the returned rows):")
            for part in residual { lines.append("  \(part.predicate)  -- \(part.reason)") }
        }
        lines.append("order: \(orderPushed ? "in the database" : "by Quarry")")
        lines.append("skip/limit: \(pagePushed ? "in the database" : "by Quarry")")
        lines.append("plan:")
        lines.append(contentsOf: plan.map { "  " + $0 })
        return lines.joined(separator: "\n")
    }

    /// The `--json` form.
    public var json: JSON {
        var o: JSONObject = [
            "backend": .string(backend),
            "parameters": .int(Int64(parameterCount)),
            "orderPushed": .bool(orderPushed),
            "pagePushed": .bool(pagePushed),
            "plan": .array(plan.map { .string($0) }),
        ]
        o["sql"] = statement.map { .string($0) } ?? .null
        o["residual"] = .array(residual.map { ["predicate": .string($0.predicate), "reason": .string($0.reason)] })
        return .object(o)
    }
}
