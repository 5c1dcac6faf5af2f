import QuarryCore
import Testing
import QuarryTestSupport
@testable import QuarryPredicate

/// The IR traversal in QuarryCore (`IRNode`: `mapChildren`, `children`, `forEach`, `contains`)
/// and the variable collector built on it.
@Suite struct IRTraversalTests {
    // MARK: - Properties over random IR

    /// Rebuilding any node from its children unchanged gives the node back, whether the
    /// transform stops at the children or goes down the whole tree and into inner queries.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func mapChildrenWithIdentityIsIdentity(seed: UInt64) {
        var gen = RandomIR(seed: seed, subset: .predicateFormat(withArguments: true))
        for i in 0..<300 {
            let ir = gen.filter(depth: 4)
            var shallow = Unchanged(deep: false), deep = Unchanged(deep: true)
            IRNode.filter(ir).forEach(innerQueries: true) { node, _ in
                #expect(node.mapChildren(&shallow) == node, "seed \(seed) #\(i): \(node)")
                return true
            }
            #expect(IRNode.filter(ir).mapChildren(&deep) == .filter(ir), "seed \(seed) #\(i)")
            #expect(deep.visited == Self.reflectedCounts(of: ir).values.reduce(0, +) - 1, "seed \(seed) #\(i)")
        }
    }

    /// The walk reaches every filter, leaf, condition, expression and inner query that
    /// reflection finds in the value, so a new IR case that holds IR cannot be missed.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func forEachVisitsEveryNodeReflectionFinds(seed: UInt64) {
        var gen = RandomIR(seed: seed, subset: .predicateFormat(withArguments: true))
        for i in 0..<300 {
            let ir = gen.filter(depth: 4)
            #expect(
                Self.visitedCounts(of: ir, innerQueries: true) == Self.reflectedCounts(of: ir),
                "seed \(seed) #\(i): \(ir)")
        }
    }

    /// `children` lists what `forEach` visits one level down, in the same order.
    @Test func childrenAreTheNodesOneLevelDown() {
        var gen = RandomIR(seed: 41, subset: .predicateFormat(withArguments: true))
        for _ in 0..<200 {
            let ir = gen.filter(depth: 4)
            IRNode.filter(ir).forEach(innerQueries: true) { node, _ in
                var below: [IRNode] = []
                var first = true
                node.forEach(innerQueries: true) { child, _ in
                    if first {
                        first = false
                        return true
                    }
                    below.append(child)
                    return false
                }
                #expect(node.children(innerQueries: true) == below)
                return true
            }
        }
    }

    // MARK: - Golden walks

    /// Every node, parents first, with its depth and the variables bound around it.
    @Test func goldenWalkListsNodesWithDepthAndScope() {
        let inner = Query(className: "Post", predicate: cmp(variable("z"), .lt, .function(.abs, [key("n")])))
        let ir: Filter = .and([
            cmp(key("a"), .eq, lit(.int(1))),
            .not(
                leaf(
                    .quantified(
                        .any, key("tags"), variable: "x",
                        leaf(.string(variable("x"), .beginsWith, .member(variable("y"), FieldPath("n")), []))))),
            leaf(.inQuery(FieldPath("p"), inner)),
        ])
        var lines: [String] = []
        IRNode.filter(ir).forEach(innerQueries: true) { node, context in
            let scope = context.bound.isEmpty ? "" : " " + context.bound.sorted().joined(separator: ",")
            lines.append("\(context.depth) \(Self.label(node))\(scope)")
            return true
        }
        #expect(
            lines == [
                "0 filter and",
                "1 filter leaf",
                "2 leaf",
                "2 condition compare",
                "3 expr key",
                "3 expr literal",
                "1 filter not",
                "2 filter leaf",
                "3 leaf",
                "3 condition quantified",
                "4 expr key",
                "4 filter leaf x",
                "5 leaf x",
                "5 condition string x",
                "6 expr variable x",
                "6 expr member x",
                "7 expr variable x",
                "1 filter leaf",
                "2 leaf",
                "2 condition inQuery",
                "3 query Post",
                "4 filter leaf",
                "5 leaf",
                "5 condition compare",
                "6 expr variable",
                "6 expr function",
                "7 expr key",
            ])
    }

    /// Counts written by hand for IR that holds every condition and expression case, with and
    /// without the inner queries.
    @Test func goldenCountsCoverEveryCase() {
        let point = GeoPoint(latitude: 1, longitude: 2)
        let team = Query(
            className: "Team",
            predicate: .or([
                leaf(.isNull(.evaluatedObject)),  // filter, leaf, condition, expr
                .constant(true),  // filter
            ]))
        let post = Query(className: "Post", predicate: leaf(.select(FieldPath("t"), team, innerKey: FieldPath("id"))))
        let doc: Filter = .and([
            leaf(
                .between(
                    .arithmetic(.add, key("a"), lit(.int(1))), lower: .negate(lit(.int(2))),
                    upper: .cast(lit(.string("3")), .number))),  // 3 + 2 + 2 exprs
            leaf(.inCollection(key("b"), .list([lit(.int(1)), variable("v")]), [])),  // 4 exprs
            leaf(.containsAll(key("c"), .list([]))),  // 2 exprs
            leaf(.containedBy(key("d"), .list([lit(.int(1))]))),  // 3 exprs
            leaf(.arraySize(.index(key("e"), .at(lit(.int(0)))), 2)),  // 3 exprs
            leaf(
                .compare(
                    .aggregate(
                        .count,
                        .subquery(
                            key("f"), variable: "s",
                            cmp(.index(variable("s"), .first), .eq, lit(.null)))),
                    .gt, lit(.int(0)), [])),  // 4 exprs outside the body; a filter, leaf, condition, 3 exprs in it
            leaf(.geo(.near(FieldPath("g"), point, maxDistance: nil))),  // no exprs
            leaf(.relatedTo(Pointer(className: "U", objectId: "u"), key: "likes")),
            leaf(.text(FieldPath("h"), TextSearch(terms: "x"))),
            leaf(.inQuery(FieldPath("p"), post)),
        ])
        #expect(
            Self.visitedCounts(of: doc, innerQueries: false) == [
                "filter": 12, "leaf": 11, "condition": 11, "expr": 26,
            ])
        // Post: a filter, a leaf, a condition; Team: three filters, a leaf, a condition, an expr.
        #expect(
            Self.visitedCounts(of: doc, innerQueries: true) == [
                "filter": 16, "leaf": 13, "condition": 13, "expr": 27, "query": 2,
            ])
        #expect(Self.visitedCounts(of: doc, innerQueries: true) == Self.reflectedCounts(of: doc))
        #expect(
            IRNode.condition(.select(FieldPath("t"), team, innerKey: FieldPath("id"))).children(innerQueries: false)
                == [])
        #expect(
            IRNode.condition(.select(FieldPath("t"), team, innerKey: FieldPath("id"))).children(innerQueries: true)
                == [.query(team)])
        #expect(IRNode.query(team).children(innerQueries: false) == [.filter(team.predicate)])
    }

    /// Returning false from the visit skips the node's children, not its siblings.
    @Test func forEachSkipsBelowANodeOnRequest() {
        let ir: Filter = .and([.not(cmp(key("a"), .eq, lit(.int(1)))), cmp(key("b"), .eq, lit(.int(2)))])
        var labels: [String] = []
        IRNode.filter(ir).forEach(innerQueries: false) { node, _ in
            labels.append(Self.label(node))
            if case .filter(.not) = node { return false }
            return true
        }
        #expect(
            labels == [
                "filter and", "filter not", "filter leaf", "leaf", "condition compare", "expr key", "expr literal",
            ])
    }

    // MARK: - Variables

    /// The core's collector and the predicate module's used to disagree: only the core's went
    /// into `inQuery` / `select` inner queries. There is one now, and it does: the run that
    /// evaluates the outer query binds the inner queries' variables too.
    @Test func variableNamesIncludeInnerQueries() {
        let inner = Query(
            className: "Post",
            predicate: .and([
                cmp(variable("inInQuery"), .eq, lit(.int(1))),
                leaf(
                    .quantified(
                        .any, key("tags"), variable: "boundInInner", cmp(variable("boundInInner"), .eq, lit(.int(2))))),
            ]))
        let selected = Query(className: "Team", predicate: cmp(variable("inSelect"), .eq, lit(.int(3))))
        let ir: Filter = .and([
            leaf(.inQuery(FieldPath("p"), inner)),
            leaf(.select(FieldPath("t"), selected, innerKey: FieldPath("id"))),
            cmp(
                .aggregate(.count, .subquery(key("f"), variable: "s", cmp(variable("s"), .eq, variable("outer")))),
                .gt, lit(.int(0))),
        ])
        #expect(ir.variableNames() == ["inInQuery", "boundInInner", "inSelect", "s", "outer"])
        // The SUBQUERY sits 4 levels down (and, filter, leaf with its condition, aggregate);
        // the inner queries' variables 5 and more.
        #expect(ir.variableNames(maxDepth: 1) == [])
        #expect(ir.variableNames(maxDepth: 4) == [])
        #expect(ir.variableNames(maxDepth: 5) == ["s"])
    }

    /// The NSPredicate printer picks fresh SUBQUERY variable names outside every name the
    /// predicate holds, those of the inner queries it prints as arguments included.
    @Test func printerFreshNamesAvoidInnerQueryVariables() throws {
        let inner = Query(className: "Post", predicate: cmp(variable("v0"), .eq, lit(.int(1))))
        let ir: Filter = .and([
            cmp(
                .aggregate(.count, .subquery(key("items"), variable: "#0", cmp(variable("#0"), .eq, lit(.int(2))))),
                .gt, lit(.int(0))),
            leaf(.inQuery(FieldPath("p"), inner)),
        ])
        let (text, arguments) = try PredicateFormat.printWithArguments(ir)
        #expect(text == "SUBQUERY(items, $v1, $v1 == 2).@count > 0 AND p IN %@")
        #expect(arguments == [.query(inner)])
    }

    /// A variable is mentioned when it occurs free: not under a binder of the same name, and
    /// not in an inner query.
    @Test func mentionsSeesFreeOccurrencesOnly() {
        let body = cmp(variable("v"), .eq, lit(.int(1)))
        #expect(Expr.arithmetic(.add, lit(.int(1)), variable("v")).mentions("v"))
        #expect(!Expr.subquery(key("a"), variable: "v", body).mentions("v"))
        #expect(Expr.subquery(key("a"), variable: "w", body).mentions("v"))
        #expect(
            !Expr.subquery(
                key("a"), variable: "w", leaf(.inQuery(FieldPath("p"), Query(className: "P", predicate: body)))
            )
            .mentions("v"))
    }

    // MARK: - Helpers

    /// Gives every child back as it was; with `deep`, after going down it (inner queries too).
    struct Unchanged: IRChildTransform {
        let deep: Bool
        var visited = 0
        mutating func filter(_ child: Filter, binding: String?) -> Filter {
            visited += 1
            return deep ? child.mapChildren(&self) : child
        }
        mutating func leaf(_ child: Leaf) -> Leaf {
            visited += 1
            return deep ? child.mapChildren(&self) : child
        }
        mutating func condition(_ child: Condition) -> Condition {
            visited += 1
            return deep ? child.mapChildren(&self) : child
        }
        mutating func expr(_ child: Expr) -> Expr {
            visited += 1
            return deep ? child.mapChildren(&self) : child
        }
        mutating func query(_ child: Query) -> Query {
            visited += 1
            return deep ? child.mapChildren(&self) : child
        }
    }

    static func label(_ node: IRNode) -> String {
        func caseName(_ value: Any) -> String {
            let name = "\(value)".prefix { $0 != "(" }
            return String(name.split(separator: ".").last ?? name)
        }
        switch node {
        case .filter(let f): return "filter " + caseName(f)
        case .leaf: return "leaf"
        case .condition(let c): return "condition " + caseName(c)
        case .expr(let e): return "expr " + caseName(e)
        case .query(let q): return "query " + q.className
        }
    }

    static func kind(_ node: IRNode) -> String {
        switch node {
        case .filter: return "filter"
        case .leaf: return "leaf"
        case .condition: return "condition"
        case .expr: return "expr"
        case .query: return "query"
        }
    }

    static func visitedCounts(of ir: Filter, innerQueries: Bool) -> [String: Int] {
        var counts: [String: Int] = [:]
        IRNode.filter(ir).forEach(innerQueries: innerQueries) { node, _ in
            counts[kind(node), default: 0] += 1
            return true
        }
        return counts
    }

    /// The IR values reflection finds anywhere in `ir`, by kind: an oracle that knows nothing
    /// of the IR's cases.
    static func reflectedCounts(of ir: Filter) -> [String: Int] {
        var counts: [String: Int] = [:]
        func reflect(_ value: Any) {
            switch value {
            case is Filter: counts["filter", default: 0] += 1
            case is Leaf: counts["leaf", default: 0] += 1
            case is Condition: counts["condition", default: 0] += 1
            case is Expr: counts["expr", default: 0] += 1
            case is Query: counts["query", default: 0] += 1
            default: break
            }
            for child in Mirror(reflecting: value).children { reflect(child.value) }
        }
        reflect(ir)
        return counts
    }
}
