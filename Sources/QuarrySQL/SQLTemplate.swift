import QuarryCore

/// How the lowering put a literal into the IR when that depends on its kind alone: as it is,
/// read as a date (a date string or epoch milliseconds for a date column), as a double (a
/// distance's amount; a latitude or longitude, within its range) or as a WKT polygon's ring.
enum SQLParameterUse: Sendable {
    case plain, date, number, latitude, longitude, polygon

    /// A coordinate's values lie within ±this (the lowering and a template's prediction both
    /// read it); nil for the other uses.
    var coordinateBound: Double? {
        switch self {
        case .latitude: return 90
        case .longitude: return 180
        default: return nil
        }
    }
}

/// Hears, while a template is made, how each literal went into the IR. The last word on a
/// literal wins: a comparison reads its literal plainly, then converts it for a date column.
final class SQLParameterRecorder {
    private(set) var uses: [SourceRange: SQLParameterUse] = [:]
    func note(_ range: SourceRange, _ use: SQLParameterUse?) { uses[range] = use }
}

/// A where clause with its literal tokens (strings, integers, decimals) cut out
/// (docs/ARCHITECTURE.md#text-templates).
package typealias SQLSkeleton = TextSkeleton<SQLSkeletonScanner>

/// Reads the bytes as `SQLLexer` does, only far enough to find the literals; refuses a text
/// with a NUL or a literal the lexer rejects (an unterminated string, `1.`, `1e`, a letter
/// right after a number).
package enum SQLSkeletonScanner: SkeletonScanner {
    /// Each byte's class, looked up once a byte: a test of ranges per byte was most of the scan.
    private static let classes: [UInt8] = (0...255).map { b -> UInt8 in
        switch b {
        case 0: return nul
        case 0x27, 0x60: return quote  // ' and `
        case 0x30...0x39: return word | digit
        // Non-ASCII bytes go with the name around them: a digit after one is then kept in
        // the key, never taken for a literal the lexer may not see.
        case 0x41...0x5A, 0x61...0x7A, 0x5F, 0x80...0xFF: return word
        default: return 0
        }
    }
    private static let word: UInt8 = 1, digit: UInt8 = 2, quote: UInt8 = 4, nul: UInt8 = 8

    package static func scan(_ p: UnsafeBufferPointer<UInt8>, into cutter: inout SkeletonCutter) -> Bool {
        classes.withUnsafeBufferPointer { classes in scan(p, classes, into: &cutter) }
    }

    private static func scan(
        _ p: UnsafeBufferPointer<UInt8>, _ classes: UnsafeBufferPointer<UInt8>, into cutter: inout SkeletonCutter
    ) -> Bool {
        let n = p.count
        var i = 0
        func isDigit(_ i: Int) -> Bool { i < n && classes[Int(p[i])] & digit != 0 }
        while i < n {
            let b = p[i]
            let c = classes[Int(b)]
            if c & (quote | nul) != 0 {
                if c == nul { return false }
                // A quoted string or name.
                let start = i
                i += 1
                var closed = false
                while i < n {
                    if p[i] == 0 { return false }
                    if p[i] == b {
                        if i + 1 < n, p[i + 1] == b {
                            i += 2
                            continue
                        }
                        i += 1
                        closed = true
                        break
                    }
                    i += 1
                }
                guard closed else { return false }
                if b == UInt8(ascii: "'") { cutter.cut(.string, start, i) }
            } else if c & digit != 0 {
                let start = i
                var kind = SkeletonLiteralKind.integer
                while isDigit(i) { i += 1 }
                if i < n, p[i] == UInt8(ascii: ".") {
                    kind = .decimal
                    i += 1
                    guard isDigit(i) else { return false }
                    while isDigit(i) { i += 1 }
                }
                if i < n, p[i] | 0x20 == UInt8(ascii: "e") {
                    kind = .decimal
                    i += 1
                    if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
                    guard isDigit(i) else { return false }
                    while isDigit(i) { i += 1 }
                }
                if i < n, classes[Int(p[i])] & word != 0, p[i] < 0x80 { return false }
                cutter.cut(kind, start, i)
            } else {
                i += 1
                if c & word != 0 {
                    while i < n, classes[Int(p[i])] & word != 0 { i += 1 }
                }
            }
        }
        return true
    }
}

/// A compiled where clause whose literals may be swapped for those of another text of the same
/// skeleton, giving what compiling that text gives, without parsing it
/// (docs/ARCHITECTURE.md#text-templates).
///
/// A literal is a parameter when the lowering put it into the IR in one of the ways
/// `SQLParameterUse` names, which a prediction repeats (with the same checks: a coordinate in
/// range, a valid ring); every other literal (a LIKE pattern with an ESCAPE, the ESCAPE itself,
/// a date as a fractional number) must be the same text for the template to apply. When the
/// template is made, a second text with a distinct made-up value in each parameter is compiled
/// in full, and the template's prediction for it (values and source ranges) must equal that
/// compile; otherwise no template.
package final class SQLTemplate: Sendable {
    /// How a parameter's token is read: its kind, and the lowering's sign and use.
    private struct Use: Sendable {
        let kind: SQLSkeleton.Kind
        let negated: Bool
        let use: SQLParameterUse
    }

    private let filter: Filter
    private let parameters: TemplateParameters<Use>
    /// The template's text with a distinct made-up value in each parameter: a second text of
    /// the template, whose prediction differs from the template's own in every parameter.
    package let variantText: String

    package typealias Prediction = TemplatePrediction<Filter>

    private init(filter: Filter, parameters: TemplateParameters<Use>, variantText: String) {
        self.filter = filter
        self.parameters = parameters
        self.variantText = variantText
    }

    /// The template of `text`, which compiles without error; nil when none of its literals
    /// may be a parameter or the check against a second compile fails.
    package static func make(
        _ text: String, skeleton: SQLSkeleton, className: String?, schema: (any Schema)?, limits: Limits
    ) -> SQLTemplate? {
        let bytes = Array(text.utf8)
        guard let tokens = try? SQLWhere.tokens(text, limits: limits) else { return nil }
        let lexed: [(Int, Int)] = tokens.compactMap { t in
            switch t.kind {
            case .string, .integer, .decimal: return (t.range.offset, t.range.end)
            default: return nil
            }
        }
        guard lexed.count == skeleton.literals.count,
            zip(lexed, skeleton.literals).allSatisfy({ $0.0 == $1.start && $0.1 == $1.end })
        else { return nil }

        let recorder = SQLParameterRecorder()
        guard let original = compile(text, className, schema, limits, recorder) else { return nil }
        var usesByEnd: [Int: (SourceRange, SQLParameterUse)] = [:]
        for (range, use) in recorder.uses { usesByEnd[range.end] = (range, use) }

        // The parameters, with made-up values that differ from each other.
        var candidates: [(token: Int, negated: Bool, use: SQLParameterUse)] = []
        var fixed: [(token: Int, bytes: [UInt8])] = []
        var sentinelText: [UInt8] = []
        var sentinelLiterals: [SQLSkeleton.Literal] = []
        var copied = 0
        for (j, literal) in skeleton.literals.enumerated() {
            guard let (range, use) = usesByEnd[literal.end], range.offset <= literal.start,
                literal.kind != .decimal || use != .date,
                range.offset == literal.start || literal.kind != .string,
                let made = sentinel(j, literal.kind, use)
            else {
                fixed.append((j, Array(bytes[literal.start..<literal.end])))
                continue
            }
            candidates.append((j, range.offset < literal.start, use))
            sentinelText += bytes[copied..<literal.start]
            sentinelLiterals.append(
                SQLSkeleton.Literal(kind: literal.kind, start: sentinelText.count, end: sentinelText.count + made.count)
            )
            sentinelText += made
            copied = literal.end
        }
        guard !candidates.isEmpty else { return nil }
        sentinelText += bytes[copied...]
        let sentinelSource = String(decoding: sentinelText, as: UTF8.self)
        guard let checked = compile(sentinelSource, className, schema, limits, nil) else { return nil }

        // Where each made-up value landed among the IR's literals.
        let originalValues = TemplateLiterals.of(original).values
        let checkedValues = TemplateLiterals.of(checked).values
        guard originalValues.count == checkedValues.count else { return nil }
        var slots: [TemplateParameters<Use>.Slot] = []
        var sentinelValues = [Value](repeating: .null, count: checkedValues.count)
        var ownValues = sentinelValues
        var isParameter = [Bool](repeating: false, count: checkedValues.count)
        var candidateSpans: [TokenSpan] = []
        for (k, c) in candidates.enumerated() {
            let span = sentinelLiterals[k]
            let made = sentinelText.withUnsafeBufferPointer { Self.value($0, span, negated: c.negated, use: c.use) }
            guard let value = made else { return nil }
            let places = checkedValues.indices.filter { TemplateSubstitution.sameLiteral(checkedValues[$0], value) }
            guard places.count == 1 else { return nil }
            let own = bytes.withUnsafeBufferPointer {
                Self.value($0, skeleton.literals[c.token], negated: c.negated, use: c.use)
            }
            guard let own else { return nil }
            let use = Use(kind: skeleton.literals[c.token].kind, negated: c.negated, use: c.use)
            slots.append(TemplateParameters.Slot(token: c.token, literal: places[0], use: use))
            sentinelValues[places[0]] = value
            ownValues[places[0]] = own
            isParameter[places[0]] = true
            candidateSpans.append(skeleton.literals[c.token].span)
        }
        // The prediction for both texts must be what compiling them gave.
        guard
            let predicted = TemplateSubstitution.substitute(
                original, sentinelValues, isParameter,
                TemplateRangeMap(from: candidateSpans, to: sentinelLiterals.map(\.span))),
            TemplateSubstitution.same(predicted, checked),
            let own = TemplateSubstitution.substitute(
                original, ownValues, isParameter, TemplateRangeMap(from: candidateSpans, to: candidateSpans)),
            TemplateSubstitution.same(own, original)
        else { return nil }
        return SQLTemplate(
            filter: original,
            parameters: TemplateParameters(spans: candidateSpans, isParameter: isParameter, slots: slots, fixed: fixed),
            variantText: sentinelSource)
    }

    /// What compiling `text` gives, when its skeleton is this template's; nil when a literal
    /// that is not a parameter differs, or a parameter's value is one the full compile must
    /// judge (an integer past `Int64.max`, a string that is not a date for a date column).
    package func predict(_ text: String, _ skeleton: SQLSkeleton) -> Prediction? {
        var text = text
        return text.withUTF8 { p -> Prediction? in
            guard
                let (values, ranges) = parameters.read(
                    p, token: { skeleton.literals[$0].span },
                    { span, use in
                        Self.value(
                            p, SQLSkeleton.Literal(kind: use.kind, start: span.start, end: span.end),
                            negated: use.negated, use: use.use)
                    }),
                let predicate = TemplateSubstitution.substitute(filter, values, parameters.isParameter, ranges)
            else { return nil }
            return Prediction(result: predicate, values: values, isParameter: parameters.isParameter)
        }
    }

    private static func compile(
        _ text: String, _ className: String?, _ schema: (any Schema)?, _ limits: Limits,
        _ recorder: SQLParameterRecorder?
    ) -> Filter? {
        try? SQLWhere.lower(
            try SQLWhere.syntaxTree(text, limits: limits), className: className, schema: schema, limits: limits,
            recording: recorder)
    }

    /// A made-up literal for parameter `j`: distinct for each `j`, of the token's kind, and a
    /// valid date where the lowering reads a date.
    private static func sentinel(_ j: Int, _ kind: SQLSkeleton.Kind, _ use: SQLParameterUse) -> [UInt8]? {
        switch (kind, use) {
        case (.string, .plain): return Array("'q\(j)z'".utf8)
        case (.string, .date):
            guard j < 1000 else { return nil }
            let ms = String(j + 1000).dropFirst()
            return Array("'2001-02-03T04:05:06.\(ms)Z'".utf8)
        case (.string, .polygon): return Array("'POLYGON((0 0, 1 0, 1 1.\(j + 1), 0 0))'".utf8)
        case (.string, _): return nil
        // Coordinates within range, distinct for each j (the fraction ends in j and a 7).
        case (.integer, .latitude), (.integer, .longitude): return j < 60 ? Array(String(21 + j).utf8) : nil
        case (.decimal, .latitude), (.decimal, .longitude): return Array("\(21 + j % 60).\(j)7".utf8)
        case (.integer, _): return Array(String(7_000_000 + 13 * j).utf8)
        case (.decimal, _): return Array("\(7000 + j).25".utf8)
        }
    }

    /// The IR value of a literal token, as the lexer, parser and lowering make it; nil where
    /// they would report an error.
    private static func value(
        _ p: UnsafeBufferPointer<UInt8>, _ l: SQLSkeleton.Literal, negated: Bool, use: SQLParameterUse
    ) -> Value? {
        switch l.kind {
        case .string:
            let inside = UnsafeBufferPointer(rebasing: p[l.start + 1..<l.end - 1])
            let quoted = inside.contains(UInt8(ascii: "'"))
            if use == .date, !quoted, let ms = BackendlessDate.canonical(utf8: inside) { return .date(ms) }
            let s: String
            if quoted {
                // A doubled quote stands for one.
                var content: [UInt8] = []
                content.reserveCapacity(inside.count)
                var i = 0
                while i < inside.count {
                    content.append(inside[i])
                    i += inside[i] == UInt8(ascii: "'") ? 2 : 1
                }
                s = String(decoding: content, as: UTF8.self)
            } else {
                s = String(decoding: inside, as: UTF8.self)
            }
            switch use {
            case .plain: return .string(s)
            case .date: return BackendlessDate.parse(s).map(Value.date)
            case .polygon: return (try? WKTPolygon.parse(s, base: 0)).map(Value.polygon)
            case .number, .latitude, .longitude: return nil
            }
        case .integer:
            var u: UInt64 = 0
            for i in l.start..<l.end {
                let (times, o1) = u.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(p[i] &- 0x30))
                guard !o1, !o2 else { return nil }
                u = sum
            }
            guard u <= UInt64(Int64.max) else { return nil }
            let i = negated ? -Int64(u) : Int64(u)
            switch use {
            case .plain: return .int(i)
            case .date: return .date(i)
            case .number, .latitude, .longitude: return number(Double(i), use)
            case .polygon: return nil
            }
        case .decimal:
            guard use != .date, use != .polygon,
                let d = DecimalText.double(UnsafeBufferPointer(rebasing: p[l.start..<l.end])),
                d.isFinite
            else { return nil }
            return use == .plain ? .double(negated ? -d : d) : number(negated ? -d : d, use)
        }
    }

    /// A number the lowering reads as a double: a coordinate only within its range.
    private static func number(_ d: Double, _ use: SQLParameterUse) -> Value? {
        guard let bound = use.coordinateBound else { return .double(d) }
        return (-bound...bound).contains(d) ? .double(d) : nil
    }
}
