import QuarryCore

// What the three targets share: string tests in the target's spelling, the checks on Parse's
// pointer-equals-objectId rule, and the reasons a leaf has no exact restatement.

extension SemanticsConverter {

    /// A string test's operator and pattern in the target's LIKE syntax; nil when the pattern
    /// is a value other than a string (the test is then false).
    func stringTest(_ l: Leaf, _ op: StringOperator, _ pattern: Expr, _ opts: StringOptions) throws(Diagnostic)
        -> (StringOperator, String)?
    {
        guard case .literal(let v) = pattern else {
            throw inexpressible(l, "the pattern \(Self.describe(pattern)) is not a constant")
        }
        guard case .string(let text) = v else { return nil }
        // NSPredicate's empty prefix, suffix or substring is in no string: as a pattern that is
        // not a string.
        if l.semantics == .predicate, text.isEmpty, op.isSubstringTest { return nil }
        let (op2, text2) = restated(op, text, opts)
        if target == .sql {
            switch op2 {
            case .like: break
            case .matches: throw inexpressible(l, "Backendless SQL has no regular expressions")
            default:
                throw inexpressible(
                    l,
                    "SQL's only string test is LIKE, which ignores case (and marks never), so it "
                        + "cannot state a case-sensitive or diacritic-insensitive test")
            }
        }
        return (op2, text2)
    }

    /// The string test in the target dialect's own spelling where one exists: NSPredicate writes
    /// LIKE as a glob, SQL as `%`/`_` and has no case-insensitive prefix test but LIKE.
    func restated(_ op: StringOperator, _ text: String, _ opts: StringOptions) -> (StringOperator, String) {
        switch (target, op) {
        case (.predicate, _) where text.isEmpty && op.isSubstringTest:
            // Every string has the empty prefix elsewhere; NSPredicate says it with LIKE.
            return (.like(.glob), "*")
        case (.predicate, .like(.sql)):
            return (.like(.glob), LikeText.glob(LikeText.tokens(text, op.likeSyntax)))
        case (.predicate, .matches(let r)) where !r.wholeString:
            return RegexText.wholeString(text, r).map { (.matches($0.options), $0.pattern) } ?? (op, text)
        case (.sql, .like(.glob)):
            let (pattern, escape) = LikeText.sql(LikeText.tokens(text, .glob))
            return (.like(.sql(escape: escape)), pattern)
        case (.sql, .beginsWith), (.sql, .endsWith), (.sql, .contains):
            guard opts == .caseInsensitive, let tokens = LikeText.tokens(for: op, text) else { return (op, text) }
            let (pattern, escape) = LikeText.sql(tokens)
            return (.like(.sql(escape: escape)), pattern)
        default:
            return (op, text)
        }
    }

    /// A Parse regex search that is literal text, as the prefix or substring test it is
    /// (`RegexText.literalTest`), for the targets that spell those plainly: `^cl` with `i` is
    /// `BEGINSWITH[c] "cl"`, or SQL's `LIKE 'cl%'`.
    func plainerString(_ l: Leaf) -> Leaf {
        guard target != .document,
            case .string(let e, .matches(let r), .literal(.string(let p)), let opts) = l.condition,
            opts.isEmpty, let (op, text, options) = RegexText.literalTest(p, r)
        else { return l }
        var out = l
        out.condition = .string(e, op, .literal(.string(text)), options)
        return out
    }

    /// `containsAll` / `containedBy` compare elements with Parse equality under `.document`
    /// (a string equals a pointer with that objectId) and plain equality otherwise.
    func checkListEquality(_ l: Leaf, _ d: ValueDomain, _ list: Expr) throws(Diagnostic) {
        guard let values = Self.listValues(list) else {
            throw inexpressible(l, "the list \(Self.describe(list)) is not a list of values")
        }
        let strings = values.contains { if case .string = $0 { true } else { false } }
        if strings && !d.kinds.isDisjoint(with: .identities)
            || values.contains(where: { $0.translationIdentity != nil }) && d.kinds.contains(.string)
        {
            throw inexpressible(
                l, "Parse equality matches a pointer with its objectId string, which the other dialects do not",
                schemaHelps: true)
        }
    }

    /// `$select` looks its values up with Parse equality under `.document`.
    func checkSelectEquality(_ l: Leaf, _ d: ValueDomain, _ inner: ValueDomain) throws(Diagnostic) {
        if !d.kinds.isDisjoint(with: .identities) && inner.kinds.contains(.string)
            || d.kinds.contains(.string) && !inner.kinds.isDisjoint(with: .identities)
        {
            throw inexpressible(
                l, "Parse equality matches a pointer with its objectId string, which the other dialects do not",
                schemaHelps: true)
        }
    }

    static func geoKinds(_ g: GeoCondition) -> ValueKinds {
        if case .polygonContains = g { return .polygon }
        return .geoPoint
    }

    func onEachElement(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l, "it would have to be applied to each element of an array, which \(targetName) cannot do for this test",
            schemaHelps: true)
    }

    func negatedOnArrays(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l, "negated, it asks for an element that fails the test, which \(targetName) cannot ask of an array",
            schemaHelps: true)
    }

    func negatedOnOtherTypes(_ l: Leaf, _ what: String) -> Diagnostic {
        inexpressible(
            l, "negated, SQL's rule is false on \(what), and \(targetName)'s NOT is true there", schemaHelps: true)
    }

    func arrayItselfMatches(_ l: Leaf) -> Diagnostic {
        inexpressible(
            l, "one rule compares an array as a whole with the inner query's values, the other only its elements",
            schemaHelps: true)
    }
}

extension StringOperator {
    /// The LIKE syntax of a `.like` operator (glob for any other).
    var likeSyntax: LikeSyntax {
        if case .like(let s) = self { return s }
        return .glob
    }
}
