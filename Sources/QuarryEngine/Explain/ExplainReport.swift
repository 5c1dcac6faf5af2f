import QuarryCore
import QuarryData

/// A query plan as EXPLAIN shows it: a tree of steps, each with what it does, the rows the
/// planner expects and, after EXPLAIN ANALYZE, the rows it saw and the time it took.
public struct PlanNode: Hashable, Sendable {
    /// `query`, `rewrites`, `rewrite`, `inner`, `access`, `filter`, `and`, `or`, `not`,
    /// `leaf`, `order`, `page`.
    public var kind: String
    public var detail: String
    public var estimatedRows: Int?
    /// Rows that reached the step (filters) — ANALYZE only.
    public var rowsIn: Int?
    /// Rows the step produced or kept — ANALYZE only.
    public var actualRows: Int?
    public var time: Duration?
    public var children: [PlanNode]

    public init(
        kind: String, detail: String, estimatedRows: Int? = nil, rowsIn: Int? = nil, actualRows: Int? = nil,
        time: Duration? = nil, children: [PlanNode] = []
    ) {
        self.kind = kind
        self.detail = detail
        self.estimatedRows = estimatedRows
        self.rowsIn = rowsIn
        self.actualRows = actualRows
        self.time = time
        self.children = children
    }
}

/// The answer to `Engine.explain`: the plan tree, printable as text (`description`) or JSON.
public struct ExplainReport: Hashable, Sendable, CustomStringConvertible {
    public var root: PlanNode
    public var analyzed: Bool

    public init(root: PlanNode, analyzed: Bool) {
        self.root = root
        self.analyzed = analyzed
    }

    /// The tree, one step a line, with box-drawing branches.
    public var description: String {
        var lines: [String] = []
        Self.render(root, prefix: "", childPrefix: "", into: &lines)
        return lines.joined(separator: "\n")
    }

    private static func render(_ node: PlanNode, prefix: String, childPrefix: String, into lines: inout [String]) {
        lines.append(prefix + line(node))
        for (i, child) in node.children.enumerated() {
            let last = i == node.children.count - 1
            render(
                child, prefix: childPrefix + (last ? "└─ " : "├─ "), childPrefix: childPrefix + (last ? "   " : "│  "),
                into: &lines)
        }
    }

    private static func line(_ n: PlanNode) -> String {
        var s =
            n.kind == "leaf" || n.kind == "rewrite" ? n.detail : (n.detail.isEmpty ? n.kind : "\(n.kind): \(n.detail)")
        if let e = n.estimatedRows { s += "  (est. \(e) rows)" }
        var actual: [String] = []
        if let i = n.rowsIn, let o = n.actualRows {
            actual.append("\(i) → \(o) rows")
        } else if let o = n.actualRows {
            actual.append("\(o) rows")
        }
        if let t = n.time { actual.append(milliseconds(t) + " ms") }
        if !actual.isEmpty { s += "  [actual " + actual.joined(separator: ", ") + "]" }
        return s
    }

    static func milliseconds(_ d: Duration) -> String {
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        let scaled = (ms * 1000).rounded() / 1000
        return String(scaled)
    }

    /// The same tree as JSON: `{"analyzed": …, "plan": {"kind", "detail", "estimated_rows",
    /// "rows_in", "actual_rows", "time_ms", "children"}}`, absent numbers omitted.
    public var json: String {
        "{\"analyzed\":\(analyzed),\"plan\":" + Self.json(root) + "}"
    }

    private static func json(_ n: PlanNode) -> String {
        var fields = ["\"kind\":" + JSONText.quote(n.kind), "\"detail\":" + JSONText.quote(n.detail)]
        if let e = n.estimatedRows { fields.append("\"estimated_rows\":\(e)") }
        if let i = n.rowsIn { fields.append("\"rows_in\":\(i)") }
        if let o = n.actualRows { fields.append("\"actual_rows\":\(o)") }
        if let t = n.time { fields.append("\"time_ms\":" + milliseconds(t)) }
        fields.append("\"children\":[" + n.children.map(json).joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}"
    }
}
