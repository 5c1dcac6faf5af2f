// What the text templates of the SQL and JSON dialects share (docs/ARCHITECTURE.md#text-templates):
// reading a compiled query's literals and leaf ranges, putting new values in, and comparing a
// prediction with a compile.

/// One literal token's bytes in a query text.
@usableFromInline package struct TokenSpan: Equatable, Sendable {
    @usableFromInline package let start: Int
    @usableFromInline package let end: Int

    package init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}

/// The kind of a literal token a skeleton cuts out of a query text.
package enum SkeletonLiteralKind: UInt8, Sendable {
    case string = 1, integer, decimal
}

/// A literal token a skeleton cut out.
package struct SkeletonLiteral: Sendable {
    package let kind: SkeletonLiteralKind
    /// The token's bytes, quotes included.
    package let start: Int
    package let end: Int

    package init(kind: SkeletonLiteralKind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    package var span: TokenSpan { TokenSpan(start: start, end: end) }
}

/// Builds a skeleton's key while a dialect's scan reports the literal tokens, in order: the
/// bytes between them are copied a run at a time.
package struct SkeletonCutter {
    private let p: UnsafeBufferPointer<UInt8>
    fileprivate private(set) var key: [UInt8] = []
    fileprivate private(set) var literals: [SkeletonLiteral] = []
    private var run = 0

    fileprivate init(_ p: UnsafeBufferPointer<UInt8>) {
        self.p = p
        key.reserveCapacity(p.count)
        // Room for a few literals at once: grown one by one, a five-literal text reallocated
        // the array four times (a fifth of its scan).
        literals.reserveCapacity(8)
    }

    /// The token `start..<end`, replaced in the key by a 0 byte and its kind.
    package mutating func cut(_ kind: SkeletonLiteralKind, _ start: Int, _ end: Int) {
        key.append(contentsOf: UnsafeBufferPointer(rebasing: p[run..<start]))
        key.append(0)
        key.append(kind.rawValue)
        literals.append(SkeletonLiteral(kind: kind, start: start, end: end))
        run = end
    }

    fileprivate mutating func finish() { key.append(contentsOf: UnsafeBufferPointer(rebasing: p[run...])) }
}

/// A dialect's reading of a text for its skeleton.
package protocol SkeletonScanner {
    /// Cuts each literal token out of `p`, in order; false for a text the dialect's reader
    /// would not take apart the same way (the full compile then reports what is wrong).
    static func scan(_ p: UnsafeBufferPointer<UInt8>, into cutter: inout SkeletonCutter) -> Bool
}

/// A query text with its literal tokens cut out, as `Scanner` finds them: what the texts of
/// one template have in common (docs/ARCHITECTURE.md#text-templates).
package struct TextSkeleton<Scanner: SkeletonScanner>: Sendable {
    package typealias Kind = SkeletonLiteralKind
    package typealias Literal = SkeletonLiteral

    /// The text's bytes with each literal token replaced by a 0 byte and its kind (a query
    /// text with a NUL has no skeleton).
    package let key: [UInt8]
    package let literals: [Literal]

    package init?(_ text: String) {
        var text = text
        let cut = text.withUTF8 { p -> SkeletonCutter? in
            var cutter = SkeletonCutter(p)
            guard Scanner.scan(p, into: &cutter) else { return nil }
            cutter.finish()
            return cutter
        }
        guard let cut else { return nil }
        key = cut.key
        literals = cut.literals
    }
}

/// The parameters of a text template and the tokens its texts must repeat: where each
/// parameter's token is and where its value lands among the IR's literals.
@usableFromInline package struct TemplateParameters<Use: Sendable>: Sendable {
    @usableFromInline package struct Slot: Sendable {
        /// The parameter's token among the skeleton's literal tokens.
        @usableFromInline package let token: Int
        /// Its value's place among the IR's literals, in walk order (inner queries included).
        @usableFromInline package let literal: Int
        /// How the dialect reads the token's value.
        @usableFromInline package let use: Use

        package init(token: Int, literal: Int, use: Use) {
            self.token = token
            self.literal = literal
            self.use = use
        }
    }

    // `read` and the types it uses are inlinable so that each dialect's call is specialized
    // (run generic, it looked up its types' metadata in the runtime on every call). A package
    // declaration's inlinable body reaches other modules only when it and what it uses are
    // also `@usableFromInline`; without, it is silently kept out of the module's interface.
    /// The parameters' tokens in the template's text, which a text's ranges move from.
    @usableFromInline let spans: [TokenSpan]
    /// For each of the IR's literals, whether it is a parameter.
    @usableFromInline package let isParameter: [Bool]
    /// A null for each of the IR's literals: a text's values start as a copy of it. Made anew,
    /// the array looked up its type's metadata in the runtime on every call.
    @usableFromInline let nulls: [Value]
    @usableFromInline let slots: [Slot]
    /// The literal tokens that are not parameters, and their bytes.
    @usableFromInline let fixed: [(token: Int, bytes: [UInt8])]

    package init(spans: [TokenSpan], isParameter: [Bool], slots: [Slot], fixed: [(token: Int, bytes: [UInt8])]) {
        self.spans = spans
        self.isParameter = isParameter
        nulls = Array(repeating: .null, count: isParameter.count)
        self.slots = slots
        self.fixed = fixed
    }

    /// The IR's literals for a text of the template (`p`, its bytes; `token`, where its literal
    /// tokens lie), null where a literal is not a parameter, and the map that moves the
    /// template's leaf ranges onto the text; nil when a token that is not a parameter differs
    /// or `value` refuses a parameter's token.
    @inlinable package func read(
        _ p: UnsafeBufferPointer<UInt8>, token: (Int) -> TokenSpan, _ value: (TokenSpan, Use) -> Value?
    ) -> (values: [Value], ranges: TemplateRangeMap)? {
        for (t, bytes) in fixed {
            let l = token(t)
            guard l.end - l.start == bytes.count else { return nil }
            for k in bytes.indices where bytes[k] != p[l.start + k] { return nil }
        }
        var values = nulls
        var to: [TokenSpan] = []
        to.reserveCapacity(slots.count)
        for slot in slots {
            let l = token(slot.token)
            guard let v = value(l, slot.use) else { return nil }
            values[slot.literal] = v
            to.append(l)
        }
        return (values, TemplateRangeMap(from: spans, to: to))
    }
}

/// What compiling a text of a template gives (`result`: a predicate, a query), and each
/// parameter's value at its place among the IR's literals (in walk order, inner queries
/// included); the places of the literals that are not parameters hold null.
@usableFromInline package struct TemplatePrediction<Result> {
    @usableFromInline package let result: Result
    @usableFromInline package let values: [Value]
    @usableFromInline package let isParameter: [Bool]

    @inlinable package init(result: Result, values: [Value], isParameter: [Bool]) {
        self.result = result
        self.values = values
        self.isParameter = isParameter
    }

    /// `values` with nil where a literal is not a parameter.
    package var parameters: [Value?] { zip(values, isParameter).map { $1 ? $0 : nil } }
}

/// Source offsets of one text moved to another whose literal tokens differ in length; nil for
/// an offset inside a token.
@usableFromInline package struct TemplateRangeMap {
    @usableFromInline let from: [TokenSpan]
    @usableFromInline let to: [TokenSpan]

    @inlinable package init(from: [TokenSpan], to: [TokenSpan]) {
        self.from = from
        self.to = to
    }

    func offset(_ o: Int) -> Int? {
        var shift = 0
        for (a, b) in zip(from, to) {
            if o <= a.start { break }
            guard o >= a.end else { return nil }
            shift += (b.end - b.start) - (a.end - a.start)
        }
        return o + shift
    }

    func range(_ r: SourceRange) -> SourceRange? {
        guard let start = offset(r.offset), let end = offset(r.end) else { return nil }
        return SourceRange(offset: start, length: end - start)
    }
}

/// Every literal and every leaf's source range of a predicate, inner queries included, in
/// walk order.
package struct TemplateLiterals: IRChildTransform {
    package static var readsOnly: Bool { true }
    package private(set) var values: [Value] = []
    package private(set) var ranges: [SourceRange?] = []

    package static func of(_ f: Filter) -> TemplateLiterals {
        var list = TemplateLiterals()
        _ = list.filter(f, binding: nil)
        return list
    }

    package mutating func leaf(_ l: Leaf) -> Leaf {
        ranges.append(l.range)
        return l.mapChildren(&self)
    }

    package mutating func expr(_ e: Expr) -> Expr {
        if case .literal(let v) = e { values.append(v) }
        return e.mapChildren(&self)
    }

    /// A geo condition's coordinates, distance and ring, in `GeoCondition.parameters` order.
    package mutating func condition(_ c: Condition) -> Condition {
        if case .geo(let g) = c { values += g.parameters }
        return c.mapChildren(&self)
    }

    package mutating func query(_ q: Query) -> Query {
        _ = filter(q.predicate, binding: nil)
        return q
    }
}

package enum TemplateSubstitution {
    /// The predicate with `values` at its parameters' places (in `TemplateLiterals` order) and
    /// its leaves' ranges moved by `ranges`; nil when a range falls inside a token or a geo
    /// condition refuses its new values (they are not its kinds, or `accepting` says no).
    package static func substitute(
        _ f: Filter, _ values: [Value], _ isParameter: [Bool], _ ranges: TemplateRangeMap,
        accepting: ((GeoCondition) -> Bool)? = nil
    ) -> Filter? {
        var substitution = Substitution(
            values: values, isParameter: isParameter, ranges: ranges, accepting: accepting)
        let out = substitution.filter(f, binding: nil)
        return substitution.failed ? nil : out
    }

    /// Equal, with literals compared by kind and bits (`Value ==` equates 1 and 1.0) and the
    /// leaves' source ranges compared too (a leaf's range is not part of its identity).
    package static func same(_ a: Filter, _ b: Filter) -> Bool {
        guard a == b else { return false }
        let x = TemplateLiterals.of(a), y = TemplateLiterals.of(b)
        return x.values.count == y.values.count && zip(x.values, y.values).allSatisfy { sameLiteral($0, $1) }
            && x.ranges == y.ranges
    }

    package static func sameLiteral(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): return String.sameUTF8(x, y)
        case (.date(let x), .date(let y)): return x == y
        case (.int, _), (.double, _), (.string, _), (.date, _), (_, .int), (_, .double), (_, .string), (_, .date):
            return false
        default: return a == b
        }
    }
}

/// The predicate with new values at its parameters' places and its leaves' ranges moved.
private struct Substitution: IRChildTransform {
    let values: [Value]
    let isParameter: [Bool]
    let ranges: TemplateRangeMap
    /// What the dialect's lowering takes of a geo condition's values, when it checks more than
    /// their kinds.
    let accepting: ((GeoCondition) -> Bool)?
    var next = 0
    var failed = false

    mutating func leaf(_ l: Leaf) -> Leaf {
        var out = l.mapChildren(&self)
        if let r = l.range {
            if let moved = ranges.range(r) { out.range = moved } else { failed = true }
        }
        return out
    }

    mutating func expr(_ e: Expr) -> Expr {
        if case .literal = e {
            defer { next += 1 }
            if next < values.count, isParameter[next] { return .literal(values[next]) }
            return e
        }
        return e.mapChildren(&self)
    }

    mutating func condition(_ c: Condition) -> Condition {
        guard case .geo(let g) = c else { return c.mapChildren(&self) }
        var own = g.parameters
        let start = next
        next += own.count
        var changed = false
        for k in own.indices where start + k < values.count && isParameter[start + k] {
            own[k] = values[start + k]
            changed = true
        }
        guard changed else { return c }
        guard let bound = g.with(parameters: own[...]), accepting?(bound) ?? true else {
            failed = true
            return c
        }
        return .geo(bound)
    }

    mutating func query(_ q: Query) -> Query {
        var q = q
        q.predicate = filter(q.predicate, binding: nil)
        return q
    }
}
