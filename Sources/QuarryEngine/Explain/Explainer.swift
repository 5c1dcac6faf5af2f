import QuarryCore

extension Engine {
    /// The plan of a query as a tree (`ExplainReport`): rewrites applied, inner queries and
    /// the rows they may contribute, where rows come from, filters in evaluation order, order
    /// and page. With `analyze`, the query runs and each step also shows the rows it saw and
    /// the time it took.
    public func explain(_ query: Query, variables: [String: Value] = [:], analyze: Bool = false) throws(Diagnostic)
        -> ExplainReport
    {
        try replicas.read { (r) throws(Diagnostic) in try r.explain(query, variables: variables, analyze: analyze) }
    }
}

extension Replica {
    func explain(_ query: Query, variables: [String: Value], analyze: Bool) throws(Diagnostic) -> ExplainReport {
        var validator = QueryValidator(source: store, limits: limits, variables: Set(variables.keys))
        try validator.check(query)
        guard analyze else { return ExplainReport(root: try node(query, run: nil), analyzed: false) }
        let run = RunState(
            store: store, limits: limits, variables: variables, nowMillis: nowMillis(), random: randomSource,
            timing: true)
        let start = ContinuousClock.now
        let result = try result(query, run)
        var root = try node(query, run: run)
        root.time = ContinuousClock.now - start
        switch result {
        case .count(let n): root.actualRows = n
        case .rows(let r, _, _): root.actualRows = r.count
        }
        return ExplainReport(root: root, analyzed: true)
    }

    private func node(_ query: Query, run: RunState?, inner isInner: Bool = false) throws(Diagnostic) -> PlanNode {
        var rowsQuery = query
        rowsQuery.count = false
        let execution = run?.executions[query] ?? run?.executions[rowsQuery]
        // A plan checked out here stays in this reader's hands until the node is built.
        var checkout: CheckedOutPlan? = nil
        defer { checkout.map(giveBack) }
        let plan: Plan
        if let used = execution?.plan {
            plan = used
        } else {
            checkout = try checkOut(query)
            // A plan that would read other literals from the execution is shown as made for these.
            plan =
                checkout!.literals == nil
                ? checkout!.plan : replan(query, failedInner: [:])?.plan ?? checkout!.plan
        }
        var children: [PlanNode] = []
        if !plan.rewrites.isEmpty {
            children.append(
                PlanNode(
                    kind: "rewrites", detail: "\(plan.rewrites.count) applied",
                    children: plan.rewrites.map {
                        PlanNode(kind: "rewrite", detail: $0.description)
                    }))
        }
        for inner in plan.innerQueries {
            var detail = innerLimitText(inner)
            if case .failed(let e)? = run?.inner[inner] { detail += "; failed with \(e.code)" }
            var rows: Int? = nil
            if case .rows(let r, _)? = run?.inner[inner] { rows = r.count }
            children.append(
                PlanNode(
                    kind: "inner", detail: detail, actualRows: rows, children: [try node(inner, run: run, inner: true)])
            )
        }
        let source = plan.source
        children.append(
            PlanNode(
                kind: "access", detail: source.label, estimatedRows: source.estimatedRows,
                actualRows: execution.map { _ in source.rowsOut }, time: nil))
        if !(plan.filter is ConstantNode), !(source is EmptySource) {
            let f = filterNode(plan.filter, estimatedIn: Double(source.estimatedRows), analyzed: execution != nil)
            // The filter's top-level AND is the list of its steps.
            let steps = f.kind == "and" ? f.children : [f]
            children.append(
                PlanNode(
                    kind: "filter", detail: "in evaluation order", estimatedRows: f.estimatedRows,
                    rowsIn: f.rowsIn, actualRows: f.actualRows, time: f.time, children: steps))
        }
        if let order = orderText(plan) {
            children.append(
                PlanNode(kind: "order", detail: order, time: execution.flatMap { $0.sorted ? $0.sortTime : nil }))
        }
        let page =
            isInner
            ? "skip \(query.skip ?? 0), " + (InnerQueries.limit(query).map { "limit \($0)" } ?? "no limit")
            : pageText(query)
        children.append(PlanNode(kind: "page", detail: page, actualRows: execution?.returned))
        let estimate = Int((Double(source.estimatedRows) * plan.filter.selectivity).rounded())
        let predicate = PredicateText.render(plan.normalized)
        return PlanNode(
            kind: "query", detail: "\(query.className) where \(predicate) (profile \(query.profile.rawValue))",
            estimatedRows: estimate, actualRows: execution?.matched, time: execution?.total, children: children)
    }

    private func filterNode(_ f: FilterNode, estimatedIn: Double, analyzed: Bool) -> PlanNode {
        let kind: String
        switch f {
        case is AndNode: kind = "and"
        case is OrNode: kind = "or"
        case is NotNode: kind = "not"
        default: kind = "leaf"
        }
        var children: [PlanNode] = []
        var reaching = estimatedIn
        for child in f.children {
            children.append(filterNode(child, estimatedIn: kind == "and" ? reaching : estimatedIn, analyzed: analyzed))
            if kind == "and" { reaching *= child.selectivity }
        }
        var detail = kind == "leaf" ? f.label : ""
        if kind == "leaf" {
            detail +=
                "  {cost \(Self.short(f.cost)), pass \(Self.short(f.selectivity * 100))%"
                + (f is FallbackNode ? ", reference evaluator" : "") + (f.mayThrow ? ", may fail" : "") + "}"
        }
        return PlanNode(
            kind: kind, detail: detail, estimatedRows: Int((estimatedIn * f.selectivity).rounded()),
            rowsIn: analyzed ? f.rowsIn : nil, actualRows: analyzed ? f.rowsOut : nil,
            time: analyzed && f.elapsed > .zero ? f.elapsed : nil, children: children)
    }

    private static func short(_ x: Double) -> String {
        let r = (x * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    private func innerLimitText(_ q: Query) -> String {
        let kept = InnerQueries.limit(q).map { "keeps at most \($0) rows" } ?? "keeps every row"
        var why: [String] = []
        if let own = q.limit {
            why.append("its limit \(own)")
        } else if let d = q.profile.defaultInnerLimit {
            why.append("profile \(q.profile.rawValue) default \(d)")
        }
        if let cap = q.profile.maxInnerLimit, let own = q.limit, own > cap { why.append("capped at \(cap)") }
        return kept + (why.isEmpty ? "" : " (" + why.joined(separator: ", ") + ")")
            + ", fails past \(limits.maxInnerRows)"
    }

    private func orderText(_ plan: Plan) -> String? {
        let q = plan.query
        guard !q.count, !q.order.isEmpty else { return nil }
        let keys = q.order.map { key -> String in
            switch key {
            case .key(let p, let d): return "\(p) \(d == .ascending ? "ASC" : "DESC")"
            case .distance(let p, let from, let d):
                return "distance(\(p), (\(from.latitude), \(from.longitude))) \(d == .ascending ? "ASC" : "DESC")"
            }
        }.joined(separator: ", ")
        if plan.ordered { return "\(keys), from the index walk (no sort)" }
        var limit = q.limit ?? q.profile.defaultLimit
        if let l = limit, let cap = q.profile.maxLimit, l > cap { limit = cap }
        if let limit { return "\(keys), top \((q.skip ?? 0).addingSaturated(limit)) kept in a heap" }
        return "\(keys), stable sort"
    }

    private func pageText(_ q: Query) -> String {
        if q.count { return "count" }
        var limit = q.limit ?? q.profile.defaultLimit
        if let l = limit, let cap = q.profile.maxLimit, l > cap { limit = cap }
        return "skip \(q.skip ?? 0), " + (limit.map { "limit \($0)" } ?? "no limit")
    }
}
