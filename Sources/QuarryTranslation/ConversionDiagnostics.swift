import QuarryCore

// `translate.inexpressible` diagnostics: which test, from which semantics, cannot be restated
// in which dialect, and why.

extension SemanticsConverter {
    /// The test written out for a message, e.g. `NOT tags == "a"`.
    static func describe(_ l: Leaf) -> String {
        (l.negated ? "NOT " : "") + describe(l.condition)
    }

    var targetName: String {
        switch target {
        case .sql: return "SQL"
        case .predicate: return "NSPredicate"
        case .document: return "Parse `where` JSON"
        }
    }

    /// The leaf has no exact restatement. `schemaHelps`: knowing more about the data (that a
    /// field holds single values, or which types) could make it translatable.
    func inexpressible(_ l: Leaf, _ reason: String, schemaHelps: Bool = false) -> Diagnostic {
        var notes: [String] = []
        if schemaHelps {
            notes.append(
                schema == nil
                    ? "a schema (the CLI's --data) showing what the field holds may let it translate"
                    : "the schema allows values of this field for which the rules differ")
        }
        return Diagnostic(
            .translate.inexpressible,
            "the \(l.semantics.rawValue) test `\(Self.describe(l))` has no exact \(targetName) equivalent: \(reason)",
            notes: notes)
    }

    /// Parse matches an array through an element equal to the value, and has no test that
    /// tells that array from the single value (`$all` is an AND of equalities, as in MongoDB).
    func arrayHoldingTheValue(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l,
            "on a field that may hold an array, Parse also matches an array holding the value, and no Parse "
                + "test tells such an array from the single value", schemaHelps: true)
    }

    /// Runs a date-coercion rewrite, reporting a comparison it cannot restate.
    func coerced<T>(_ l: Leaf, _ body: () throws(SQLCoercion.Untranslatable) -> T) throws(Diagnostic) -> T {
        do throws(SQLCoercion.Untranslatable) {
            return try body()
        } catch {
            throw inexpressible(l, error.reason, schemaHelps: true)
        }
    }

    /// The key path a leaf's operand must be for dialects that only test fields.
    func keyPath(_ e: Expr, _ l: Leaf) throws(Diagnostic) -> FieldPath {
        guard case .key(let path) = e else {
            throw inexpressible(l, "\(Self.describe(e)) is not a field; \(targetName) only tests fields")
        }
        return path
    }

    static func describe(_ c: Condition) -> String {
        switch c {
        case .compare(let l, let op, let r, let o):
            return "\(describe(l)) \(op.rawValue)\(describe(o)) \(describe(r))"
        case .between(let e, let lo, let hi):
            return "\(describe(e)) BETWEEN {\(describe(lo)), \(describe(hi))}"
        case .inCollection(let e, let coll, let o):
            return "\(describe(e)) IN\(describe(o)) \(describe(coll))"
        case .isNull(let e):
            return "\(describe(e)) == nil"
        case .string(let e, let op, let p, let o):
            let name: String
            switch op {
            case .beginsWith: name = "BEGINSWITH"
            case .endsWith: name = "ENDSWITH"
            case .contains: name = "CONTAINS"
            case .like(.glob): name = "LIKE"
            case .like(.sql): name = "LIKE (SQL pattern)"
            case .matches(let r): name = r.wholeString ? "MATCHES" : "regex"
            }
            return "\(describe(e)) \(name)\(describe(o)) \(describe(p))"
        case .containsAll(let e, let list): return "\(describe(e)) contains all of \(describe(list))"
        case .containedBy(let e, let list): return "\(describe(e)) is contained by \(describe(list))"
        case .arraySize(let e, let n): return "size of \(describe(e)) == \(n)"
        case .quantified(let q, let coll, _, _): return "\(q.rawValue.uppercased()) \(describe(coll)) …"
        case .geo(let g): return "geo test on \(g.key)"
        case .inQuery(let k, let q): return "\(k) IN (query on \(q.className))"
        case .select(let k, let q, let ik): return "\(k) IN (\(ik) of query on \(q.className))"
        case .relatedTo(let p, let key): return "related to \(p.className) \(p.objectId) by \(key)"
        case .text(let k, let s): return "\(k) text search \"\(s.terms)\""
        }
    }

    private static func describe(_ o: StringOptions) -> String {
        if o.isEmpty { return "" }
        return "[" + (o.contains(.caseInsensitive) ? "c" : "") + (o.contains(.diacriticInsensitive) ? "d" : "") + "]"
    }

    static func describe(_ e: Expr) -> String {
        switch e {
        case .literal(let v): return describe(v)
        case .key(let k): return k.description
        case .variable(let v): return "$" + v
        case .evaluatedObject: return "SELF"
        case .member(let b, let k): return "\(describe(b)).\(k)"
        case .list(let items): return "{" + items.map(describe).joined(separator: ", ") + "}"
        case .arithmetic(let op, let l, let r): return "\(describe(l)) \(op.rawValue) \(describe(r))"
        case .negate(let x): return "-" + describe(x)
        case .function(let f, let args): return "\(f.callName)(" + args.map(describe).joined(separator: ", ") + ")"
        case .aggregate(let a, let x): return "\(describe(x)).\(a.rawValue)"
        case .index(let x, _): return "\(describe(x))[…]"
        case .subquery: return "SUBQUERY(…)"
        case .cast(let x, let t): return "CAST(\(describe(x)), \"\(t.rawValue)\")"
        }
    }

    private static func describe(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.description
        case .string(let s): return "\"" + s + "\""
        case .date(let ms): return "date(\(ISODate.format(ms)))"
        case .array(let items): return "{" + items.map(describe).joined(separator: ", ") + "}"
        case .pointer(let p): return "pointer(\(p.className), \(p.objectId))"
        default: return "a \(v.typeName)"
        }
    }
}
