import QuarryCore
@testable import QuarryPredicate

// Shorthands that make golden IR read like the predicate it came from.

func key(_ path: String) -> Expr { .key(FieldPath(path)) }
func lit(_ v: Value) -> Expr { .literal(v) }
func variable(_ name: String) -> Expr { .variable(name) }

func leaf(_ c: Condition, negated: Bool = false) -> Filter { .leaf(c, negated: negated, .predicate) }

func cmp(_ l: Expr, _ op: ComparisonOperator, _ r: Expr, _ o: StringOptions = []) -> Filter {
    leaf(.compare(l, op, r, o))
}

/// `ANY coll <leaf over #depth>`
func quantified(_ q: Quantifier, _ coll: Expr, depth: Int = 0, _ body: (Expr) -> Condition) -> Filter {
    let name = "#\(depth)"
    return leaf(.quantified(q, coll, variable: name, leaf(body(.variable(name)))))
}

/// The first diagnostic for a text that must fail, as `code@line:column`.
func failure(
    _ text: String, _ args: [PredicateArgument] = [], variables: [String: Value]? = nil,
    profile: Profile = .exact, limits: Limits = .default, schema: (any Schema)? = nil,
    className: String? = nil
) -> String {
    do {
        let p = try PredicateFormat.parse(
            text, arguments: args, variables: variables, className: className,
            schema: schema, profile: profile, limits: limits)
        return "parsed: \(p)"
    } catch {
        guard let d = error.all.first else { return "no diagnostic" }
        guard let r = d.range else { return d.code }
        let pos = SourceText(text).position(ofByte: r.offset)
        return "\(d.code)@\(pos.line):\(pos.column)"
    }
}

/// The diagnostics for a text that must fail.
func diagnostics(_ text: String, _ args: [PredicateArgument] = [], profile: Profile = .exact) -> [Diagnostic] {
    do {
        _ = try PredicateFormat.parse(text, arguments: args, profile: profile)
        return []
    } catch {
        return error.all
    }
}
