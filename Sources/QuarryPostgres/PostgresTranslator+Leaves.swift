import Quarry
import QuarryStoreSupport

/// What a test does for one non-null value.
enum PostgresOutcome {
    /// SQL that is TRUE when the value passes and FALSE when it fails (NULL only when the value
    /// is NULL); `fails`, when given, is the SQL for "fails".
    case sql(String, fails: String?)
    /// Decided without looking at the value.
    case always(Bool)
    /// The test does not apply to the value (an ordered comparison across types): never a
    /// match, whether the leaf is negated or not under `.sql`; a failed test otherwise.
    case unknown
}

extension PostgresTranslator {
    /// A leaf over one scalar operand `x`: `outcome` for a non-null x, and `nullPasses` for a
    /// null or missing x (before negation; `.sql` leaves are false on null either way).
    func scalarLeaf(_ x: String, _ outcome: PostgresOutcome, nullPasses: Bool, _ rule: LeafRule) -> String {
        if rule.semantics == .sql {
            switch outcome {
            case .sql(let passes, let fails): return rule.negated ? (fails ?? "NOT (\(passes))") : passes
            case .always(let b): return b != rule.negated ? "(\(x) IS NOT NULL)" : "FALSE"
            case .unknown: return "FALSE"
            }
        }
        let nullResult = nullPasses != rule.negated
        switch outcome {
        case .sql(let passes, let fails):
            let body = rule.negated ? (fails ?? "NOT (\(passes))") : passes
            return nullResult ? "(\(x) IS NULL OR \(body))" : body
        case .always(let b): return constantUnlessNull(x, nonNull: b != rule.negated, null: nullResult)
        case .unknown: return constantUnlessNull(x, nonNull: rule.negated, null: nullResult)
        }
    }

    private func constantUnlessNull(_ x: String, nonNull: Bool, null: Bool) -> String {
        if nonNull == null { return nonNull ? "TRUE" : "FALSE" }
        return nonNull ? "(\(x) IS NOT NULL)" : "(\(x) IS NULL)"
    }

    /// A leaf over the elements of a `jsonb` array `x`, `outcome` written over the element:
    /// existential over the non-null elements under `.sql`; under `.document` the array
    /// matches when an element passes (the array itself never passes a scalar test); under
    /// `.predicate` the array is one value, which scalar tests do not apply to.
    func arrayLeaf(_ x: String, _ outcome: PostgresOutcome, _ rule: LeafRule) -> String {
        switch rule.semantics {
        case .sql:
            switch outcome {
            case .sql(let passes, let fails): return exists(x, rule.negated ? (fails ?? "NOT (\(passes))") : passes)
            case .always(let b): return b != rule.negated ? exists(x, "value IS NOT NULL") : "FALSE"
            case .unknown: return "FALSE"
            }
        case .document:
            let found: String
            switch outcome {
            case .sql(let passes, _): found = exists(x, passes)
            case .always(let b): found = b ? exists(x, "value IS NOT NULL") : "FALSE"
            case .unknown: found = "FALSE"
            }
            return rule.negated ? "(NOT \(found))" : found
        case .predicate:
            return rule.negated ? "TRUE" : "FALSE"
        }
    }

    /// String options stay residual: PostgreSQL's case folding (`lower`, `ILIKE`) is not
    /// Quarry's Unicode simple folding, and it has no diacritic folding without extensions.
    func refuseOptions(_ options: StringOptions) throws(PostgresNotComparable) {
        if !options.isEmpty {
            throw PostgresNotComparable("case- or diacritic-insensitive comparison is evaluated by Quarry")
        }
    }

    // MARK: - Comparisons

    mutating func compare(
        _ l: Expr, _ op: ComparisonOperator, _ r: Expr, _ options: StringOptions, _ rule: LeafRule, _ row: Row
    ) throws(PostgresNotComparable) -> String {
        switch (l, r) {
        case (.key(let path), .literal(let v)):
            if let sql = try targetMembership(path, op, v, options, rule, row) { return sql }
            return try compare(try operand(path, row), op, v, options, rule)
        case (.literal(let v), .key(let path)):
            if let sql = try targetMembership(path, op.swapped, v, options, rule, row) { return sql }
            return try compare(try operand(path, row), op.swapped, v, options, rule)
        case (.key(let a), .key(let b)):
            return try compareKeys(try operand(a, row), op, try operand(b, row), options, rule)
        default:
            throw PostgresNotComparable(
                "comparisons of computed values (arithmetic, functions, aggregates) are evaluated by Quarry")
        }
    }

    /// `pointer.field op literal` as `p IN (SELECT objectid FROM target WHERE field op $n)`
    /// where `LeafRule.targetComparison` allows it; nil otherwise (the path stays residual).
    private mutating func targetMembership(
        _ path: FieldPath, _ op: ComparisonOperator, _ v: Value, _ options: StringOptions, _ rule: LeafRule,
        _ row: Row
    ) throws(PostgresNotComparable) -> String? {
        guard let (pointerName, fieldName) = rule.targetComparison(path, op, v),
            let pointer = row.table.field(pointerName), case .pointer(let targetClass)? = pointer.kind,
            let target = catalog.classes[targetClass], let field = target.field(fieldName)
        else { return nil }
        switch field.kind {
        case .number?, .text?, .date?, .bool?: break
        default: return nil
        }
        guard let inner = newRow(targetClass) else { return nil }
        let test = try compare(.key(FieldPath([field.name])), op, .literal(v), options, rule, inner)
        return
            "(\(Self.text(row, pointer)) IN (SELECT \(inner.alias).objectid FROM \(target.table) AS \(inner.alias) WHERE \(test)))"
    }

    private mutating func compare(
        _ x: PostgresOperand, _ op: ComparisonOperator, _ v: Value, _ options: StringOptions, _ rule: LeafRule
    ) throws(PostgresNotComparable) -> String {
        let equality = op == .eq || op == .ne
        switch x {
        case .geo: throw PostgresNotComparable("comparing a geo point with = or < is evaluated by Quarry")
        case .scalar(let sql, let kind):
            if v.isNull {
                if rule.semantics == .sql { return "FALSE" }
                // nil is a value for == and != (NSPredicate; Parse equality with null).
                guard equality else { return rule.negated ? "TRUE" : "FALSE" }
                return (op == .eq) != rule.negated ? "(\(sql) IS NULL)" : "(\(sql) IS NOT NULL)"
            }
            return scalarLeaf(
                sql, try comparison(sql, kind, op, v, options, rule, element: false), nullPasses: op == .ne, rule)
        case .array(let sql, let element):
            let value = Self.element(element)
            switch rule.semantics {
            case .predicate:
                if v.isNull {
                    guard equality else { return rule.negated ? "TRUE" : "FALSE" }
                    return (op == .eq) != rule.negated ? "(\(sql) IS NULL)" : "(\(sql) IS NOT NULL)"
                }
                if case .array = v {
                    throw PostgresNotComparable("comparing an array with an array literal is evaluated by Quarry")
                }
                return scalarLeaf(sql, equality ? .always(op == .ne) : .unknown, nullPasses: op == .ne, rule)
            case .sql:
                if v.isNull { return "FALSE" }
                return arrayLeaf(sql, try comparison(value, element, op, v, options, rule, element: true), rule)
            case .document:
                if case .array = v {
                    throw PostgresNotComparable("comparing an array with an array literal is evaluated by Quarry")
                }
                guard equality else {
                    if v.isNull { return rule.negated ? "TRUE" : "FALSE" }
                    return arrayLeaf(sql, try comparison(value, element, op, v, options, rule, element: true), rule)
                }
                try refuseOptions(options)
                // Parse: the array or one of its elements equals the value; missing counts as null.
                let same: String
                if v.isNull {
                    same = "(\(sql) IS NULL OR \(exists(sql, "value IS NULL")))"
                } else if let b = try binding(v, for: element, sqlDates: false, objectIdStrings: true, element: true) {
                    same = exists(sql, "\(value) = \(parameter(b))")
                } else {
                    same = "FALSE"
                }
                return (op == .eq) != rule.negated ? same : "(NOT \(same))"
            }
        }
    }

    /// The outcome of `x op v` for a non-null x of `kind` and a non-null literal.
    mutating func comparison(
        _ x: String, _ kind: PostgresKind?, _ op: ComparisonOperator, _ v: Value, _ options: StringOptions,
        _ rule: LeafRule, element: Bool
    ) throws(PostgresNotComparable) -> PostgresOutcome {
        let equality = op == .eq || op == .ne
        let b = try binding(
            v, for: kind, sqlDates: rule.semantics == .sql,
            objectIdStrings: rule.semantics == .document && equality, element: element)
        guard let b, equality || !(kind?.isPointer ?? false) else {
            // Different types: never equal; an ordered comparison does not apply.
            return equality ? .always(op == .ne) : .unknown
        }
        if kind == .text || kind?.isPointer == true { try refuseOptions(options) }
        let p = parameter(b)
        return .sql("\(x) \(op.sql) \(p)", fails: "\(x) \(op.complement.sql) \(p)")
    }

    private func compareKeys(
        _ a: PostgresOperand, _ op: ComparisonOperator, _ b: PostgresOperand, _ options: StringOptions, _ rule: LeafRule
    ) throws(PostgresNotComparable) -> String {
        guard rule.semantics == .sql, options.isEmpty, case .scalar(let x, let kx?) = a,
            case .scalar(let y, let ky?) = b,
            kx == ky, kx.sortsAsQuarry, op == .eq || op == .ne || !kx.isPointer
        else {
            throw PostgresNotComparable(
                "comparing two fields is pushed down only for SQL leaves over fields of one type")
        }
        // NULL on either side is NULL, negated or not: the strict SQL leaf.
        return rule.negated ? "\(x) \(op.complement.sql) \(y)" : "\(x) \(op.sql) \(y)"
    }

    // MARK: - BETWEEN

    mutating func between(_ e: Expr, _ lower: Expr, _ upper: Expr, _ rule: LeafRule, _ row: Row)
        throws(PostgresNotComparable)
        -> String
    {
        guard case .key(let path) = e, case .literal(let lo) = lower, case .literal(let hi) = upper else {
            throw PostgresNotComparable("BETWEEN is pushed down for a field and two literals only")
        }
        let x = try operand(path, row)
        if rule.semantics == .sql, lo.isNull || hi.isNull { return "FALSE" }
        switch x {
        case .geo: throw PostgresNotComparable("BETWEEN on a geo point is evaluated by Quarry")
        case .scalar(let sql, let kind):
            return scalarLeaf(sql, try betweenOutcome(sql, kind, lo, hi, rule, element: false), nullPasses: false, rule)
        case .array(let sql, let element):
            return arrayLeaf(sql, try betweenOutcome(Self.element(element), element, lo, hi, rule, element: true), rule)
        }
    }

    private mutating func betweenOutcome(
        _ x: String, _ kind: PostgresKind?, _ lo: Value, _ hi: Value, _ rule: LeafRule, element: Bool
    ) throws(PostgresNotComparable) -> PostgresOutcome {
        let sqlDates = rule.semantics == .sql
        guard !(kind?.isPointer ?? false),
            let bl = try binding(lo, for: kind, sqlDates: sqlDates, objectIdStrings: false, element: element),
            let bh = try binding(hi, for: kind, sqlDates: sqlDates, objectIdStrings: false, element: element)
        else { return .unknown }
        let pl = parameter(bl), ph = parameter(bh)
        return .sql("\(x) BETWEEN \(pl) AND \(ph)", fails: "\(x) NOT BETWEEN \(pl) AND \(ph)")
    }

    // MARK: - IN

    mutating func inCollection(_ e: Expr, _ collection: Expr, _ options: StringOptions, _ rule: LeafRule, _ row: Row)
        throws(PostgresNotComparable) -> String
    {
        try refuseOptions(options)
        switch (e, collection) {
        case (.key(let path), _):
            guard let members = collection.literalValues else {
                throw PostgresNotComparable("IN is pushed down for a literal list, or a literal in an array field")
            }
            return try keyInList(try operand(path, row), members, rule)
        case (.literal(let v), .key(let path)):
            return try literalInArray(v, try operand(path, row), rule)
        default:
            throw PostgresNotComparable("IN over computed values is evaluated by Quarry")
        }
    }

    private mutating func keyInList(_ x: PostgresOperand, _ members: [Value], _ rule: LeafRule)
        throws(PostgresNotComparable)
        -> String
    {
        let hasNull = rule.semantics != .sql && members.contains(where: \.isNull)
        switch x {
        case .geo: throw PostgresNotComparable("IN on a geo point is evaluated by Quarry")
        case .scalar(let sql, let kind):
            return scalarLeaf(sql, try membership(sql, kind, members, rule, element: false), nullPasses: hasNull, rule)
        case .array(let sql, let element):
            if members.contains(where: { if case .array = $0 { return true } else { return false } }) {
                throw PostgresNotComparable("IN with array members over an array field is evaluated by Quarry")
            }
            let value = Self.element(element)
            switch rule.semantics {
            case .sql: return arrayLeaf(sql, try membership(value, element, members, rule, element: true), rule)
            case .predicate: return scalarLeaf(sql, .always(false), nullPasses: hasNull, rule)
            case .document:
                var found: [String] = []
                if case .sql(let passes, _) = try membership(value, element, members, rule, element: true) {
                    found.append(exists(sql, passes))
                }
                if hasNull {
                    found.append("\(sql) IS NULL")
                    found.append(exists(sql, "value IS NULL"))
                }
                let any = found.isEmpty ? "FALSE" : "(" + found.joined(separator: " OR ") + ")"
                return rule.negated ? "(NOT \(any))" : any
            }
        }
    }

    /// The outcome of "x equals one of the members" for a non-null x.
    private mutating func membership(
        _ x: String, _ kind: PostgresKind?, _ members: [Value], _ rule: LeafRule, element: Bool
    )
        throws(PostgresNotComparable) -> PostgresOutcome
    {
        var bound: [Literal] = []
        for m in members where !m.isNull {
            if let b = try binding(
                m, for: kind, sqlDates: rule.semantics == .sql, objectIdStrings: rule.semantics == .document,
                element: element),
                !bound.contains(b)
            {
                bound.append(b)
            }
        }
        guard !bound.isEmpty else { return .always(false) }
        let list = parameterList(bound)
        return .sql("\(x) IN \(list)", fails: "\(x) NOT IN \(list)")
    }

    /// `'a' IN tags`: the literal equals an element of the array field.
    private mutating func literalInArray(_ v: Value, _ x: PostgresOperand, _ rule: LeafRule)
        throws(PostgresNotComparable)
        -> String
    {
        guard case .array(let sql, let element) = x else {
            throw PostgresNotComparable(
                "IN over a field that is not an array (a substring test in NSPredicate) is evaluated by Quarry")
        }
        let found: String
        if v.isNull {
            if rule.semantics == .sql { return "FALSE" }
            found = exists(sql, "value IS NULL")
        } else if let b = try binding(
            v, for: element, sqlDates: rule.semantics == .sql, objectIdStrings: rule.semantics == .document,
            element: true)
        {
            found = exists(sql, "\(Self.element(element)) = \(parameter(b))")
        } else {
            found = "FALSE"
        }
        if !rule.negated { return found }
        // A null array is unknown under .sql, so NOT IN does not hold for it either.
        return rule.semantics == .sql ? "(\(sql) IS NOT NULL AND NOT \(found))" : "(NOT \(found))"
    }

    // MARK: - IS NULL

    func isNull(_ e: Expr, _ rule: LeafRule, _ row: Row) throws(PostgresNotComparable) -> String {
        guard case .key(let path) = e else {
            throw PostgresNotComparable("IS NULL of a computed value is evaluated by Quarry")
        }
        let test: String
        switch try operand(path, row) {
        case .scalar(let sql, _), .geo(let sql): test = "\(sql) IS NULL"
        case .array(let sql, _):
            // Under .sql an array reaches its non-null elements: with none it is null.
            test =
                rule.semantics == .sql
                ? "(\(sql) IS NULL OR NOT \(exists(sql, "value IS NOT NULL")))" : "\(sql) IS NULL"
        }
        return rule.negated ? "(NOT (\(test)))" : "(\(test))"
    }

    // MARK: - Strings

    /// BEGINSWITH, ENDSWITH, CONTAINS and LIKE become a case-sensitive LIKE with `\` as the
    /// escape: in a UTF-8 database `_` is one Unicode scalar and `%` any run, as in Quarry.
    /// With options, an ASCII pattern narrows the rows and the test stays residual, unless
    /// `ILIKE` decides it exactly (`like`); regular expressions stay residual (PostgreSQL's
    /// regex engine is not PCRE2).
    mutating func string(
        _ e: Expr, _ op: StringOperator, _ patternExpr: Expr, _ options: StringOptions, _ rule: LeafRule, _ row: Row
    ) throws(PostgresNotComparable) -> String {
        guard case .key(let path) = e, case .literal(let patternValue) = patternExpr else {
            throw PostgresNotComparable("string tests are pushed down for a field and a literal pattern only")
        }
        guard case .string(let pattern) = patternValue else { return rule.withoutOperand ? "TRUE" : "FALSE" }
        // As Foundation's `hasPrefix:@""` is NO, an empty substring is in no string (predicate).
        if rule.semantics == .predicate, pattern.isEmpty, op.isSubstringTest {
            return rule.withoutOperand ? "TRUE" : "FALSE"
        }
        var superset: [LikeText.Token]?
        if case .matches(var regex) = op {
            if options.contains(.caseInsensitive) { regex.flags.insert(.caseInsensitive) }
            // Only as a superset, where the leaf counts positively: a row failing it cannot
            // match, and PCRE turns it away at its first steps, uncharged
            // (docs/STORAGE.md#postgresql-residuals).
            guard regexSupersets, !rule.negated, !options.contains(.diacriticInsensitive),
                let glob = RegexText.globSuperset(pattern, regex)
            else {
                throw PostgresNotComparable(
                    "regular expressions are evaluated by Quarry (PCRE2, which PostgreSQL's engine is not)")
            }
            // The GLOB's literals are never `?` or `*`.
            superset = glob.unicodeScalars.map { $0 == "?" ? .one : $0 == "*" ? .any : .literal($0) }
        }
        if !options.isEmpty, superset == nil {
            // Folded only as a superset filter, where the leaf counts positively (see below).
            guard !rule.negated, pattern.unicodeScalars.allSatisfy(\.isASCII) else {
                throw PostgresNotComparable(Self.unfoldable)
            }
        }
        if pattern.utf8.contains(0) {
            throw PostgresNotComparable("PostgreSQL text cannot hold the NUL in a pattern; Quarry matches it")
        }
        let tokens: [LikeText.Token]
        if let superset {
            tokens = superset
        } else if case .like(let syntax) = op {
            tokens = LikeText.tokens(pattern, syntax)
        } else {
            tokens = LikeText.tokens(for: op, pattern) ?? []
        }
        switch try operand(path, row) {
        case .geo: return rule.withoutOperand ? "TRUE" : "FALSE"
        case .scalar(let sql, let kind):
            guard kind == .text else { return scalarLeaf(sql, .unknown, nullPasses: false, rule) }
            return scalarLeaf(sql, .sql(like(sql, tokens, options), fails: nil), nullPasses: false, rule)
        case .array(let sql, let element):
            guard element == .text else { return arrayLeaf(sql, .unknown, rule) }
            // The elements' undecided test reads the element, which only the leaf's EXISTS has.
            let test = like(Self.element(element), tokens, options, undecidedOutside: false)
            return arrayLeaf(sql, .sql(test, fails: nil), rule)
        }
    }

    /// `x LIKE pattern`, case-sensitive: Quarry's own matching. With case- or diacritic-
    /// insensitive options (an ASCII pattern, checked by the caller), a superset that marks the
    /// translation `narrowing`, so the conjunct stays residual and Quarry decides each returned
    /// row: for ASCII text Quarry's folding is ASCII's (diacritic folding changes nothing, case
    /// folding maps A-Z alone), which `ILIKE` in the "C" collation matches exactly; text with
    /// any other character (U+212A KELVIN SIGN folds to `k`) always passes. That text is found
    /// by a regex match of one non-ASCII character, which PostgreSQL's planner estimates as
    /// rare, rather than `octet_length(x) <> char_length(x)`, which it estimates as nearly
    /// every row: the OR then read as matching every row, and the planner walked the `seq`
    /// index instead of a parallel scan and a sort (docs/STORAGE.md#postgresql-residuals).
    ///
    /// Case folding alone with a pattern without `_` needs less (`scalarsFoldingIntoLiterals`):
    /// a non-ASCII character can match a literal of the pattern only through a folding that
    /// holds it (ǰ → j + U+030C for `J%`), and is otherwise taken by `%` under both foldings.
    /// So only text holding such a character passes besides `ILIKE`'s, found by one `LIKE
    /// '%ǰ%'` each (a plain LIKE costs PostgreSQL less than the regex, and is estimated as
    /// rare too); with no such character for the pattern's letters, `ILIKE` alone is exact.
    ///
    /// The added tests are also where the narrowed test may differ from Quarry's (`undecided`):
    /// on a row where they are FALSE, `ILIKE` was exact. With `undecidedOutside` false they read
    /// what only the leaf can (an array's element), and every returned row is Quarry's to decide.
    private mutating func like(
        _ x: String, _ tokens: [LikeText.Token], _ options: StringOptions, undecidedOutside: Bool = true
    ) -> String {
        let pattern = parameter(Self.like(tokens), "text")
        guard !options.isEmpty else { return "\(x) LIKE \(pattern) ESCAPE '\\'" }
        // A field's text is read in the "C" collation already (`PostgresTranslator+Operands`).
        let inC = x.hasSuffix(" COLLATE \"C\")") ? x : "(\(x) COLLATE \"C\")"
        let ilike = "\(inC) ILIKE \(pattern) ESCAPE '\\'"
        let widening: String
        if let reaching = Self.scalarsFoldingIntoLiterals(tokens, options) {
            if reaching.isEmpty { return "(\(ilike))" }
            widening = reaching.map { "\(x) LIKE \(parameter("%\($0)%", "text"))" }.joined(separator: " OR ")
        } else {
            widening = "\(x) ~ '[^\\x01-\\x7f]'"
        }
        narrowing = .folding
        if undecidedOutside { undecided.append(widening) } else { undecidedEverywhere = true }
        let operator_ = options.contains(.caseInsensitive) ? "ILIKE" : "LIKE"
        return "(\(inC) \(operator_) \(pattern) ESCAPE '\\' OR \(widening))"
    }

    /// With case folding alone and a pattern of ASCII literals and `%`, the non-ASCII scalars
    /// whose folding holds one of its literals (`StringFolding.nonASCIIFoldingInto`), each once;
    /// nil for other options or patterns (see `like`).
    static func scalarsFoldingIntoLiterals(_ tokens: [LikeText.Token], _ options: StringOptions) -> [Unicode.Scalar]? {
        guard options == .caseInsensitive else { return nil }
        var letters = Set<UInt8>()
        var out: [Unicode.Scalar] = []
        for t in tokens {
            switch t {
            case .any: continue
            case .one: return nil
            case .literal(let u):
                guard u.isASCII else { return nil }
                let lower = UInt8((0x41...0x5A).contains(u.value) ? u.value + 0x20 : u.value)
                guard letters.insert(lower).inserted else { continue }
                for s in StringFolding.nonASCIIFoldingInto[lower] ?? [] where !out.contains(s) { out.append(s) }
            }
        }
        return out
    }

    /// A LIKE pattern with `\` escaping `%`, `_` and itself.
    static func like(_ tokens: [LikeText.Token]) -> String {
        var out = String.UnicodeScalarView()
        for t in tokens {
            switch t {
            case .any: out.append("%")
            case .one: out.append("_")
            case .literal(let u) where u == "%" || u == "_" || u == "\\":
                out.append("\\")
                out.append(u)
            case .literal(let u): out.append(u)
            }
        }
        return String(out)
    }
}
