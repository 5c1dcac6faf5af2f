import QuarryCore

/// Hears, while a template is made, which literals the lowering put into the IR as they were
/// written: a string, an integer or a decimal token as a comparison's, a list's or a regex's
/// operand; and where the lowering read every number as a geo condition's coordinate or
/// distance (docs/ARCHITECTURE.md#text-templates).
package final class JSONParameterRecorder {
    private(set) var ranges: Set<SourceRange> = []
    /// The values of geo operators whose numbers each became one of the condition's
    /// parameters (`GeoCondition.parameters`), as a double.
    private(set) var geoRanges: [SourceRange] = []

    package init() {}

    func note(_ value: Located<Value>) {
        switch value.value {
        case .string, .int, .double:
            if let range = value.location.range { ranges.insert(range) }
        default:
            break
        }
    }

    func noteGeo(_ location: Location) {
        if let range = location.range { geoRanges.append(range) }
    }

    /// Whether the number token from `start` to `end` lies in a noted geo operator's value.
    func isGeoNumber(_ start: Int, _ end: Int) -> Bool {
        geoRanges.contains { $0.offset <= start && end <= $0.end }
    }
}

/// A where object or find body with its value tokens (strings, integers, decimals that are not
/// member names) cut out (docs/ARCHITECTURE.md#text-templates).
package typealias JSONSkeleton = TextSkeleton<JSONSkeletonScanner>

/// Reads the bytes as the JSON reader does, only far enough to find the value tokens; refuses
/// a text it would not take apart the same way (a NUL, a control character in a string, an
/// unterminated string, a number with an exponent, a leading zero or no digit).
package enum JSONSkeletonScanner: SkeletonScanner {
    package static func scan(_ p: UnsafeBufferPointer<UInt8>, into cutter: inout SkeletonCutter) -> Bool {
        let n = p.count
        var i = 0
        func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
        while i < n {
            let b = p[i]
            if b == 0 { return false }
            if b == UInt8(ascii: "\"") {
                let start = i
                i += 1
                var closed = false
                while i < n {
                    let c = p[i]
                    if c == UInt8(ascii: "\"") {
                        i += 1
                        closed = true
                        break
                    }
                    if c < 0x20 { return false }
                    i += c == UInt8(ascii: "\\") ? 2 : 1
                }
                guard closed, i <= n else { return false }
                // A member name is followed by a colon: it stays in the skeleton.
                var j = i
                while j < n, p[j] == 0x20 || p[j] == 0x09 || p[j] == 0x0A || p[j] == 0x0D { j += 1 }
                if j == n || p[j] != UInt8(ascii: ":") { cutter.cut(.string, start, i) }
            } else if b == UInt8(ascii: "-") || isDigit(b) {
                let start = i
                if b == UInt8(ascii: "-") { i += 1 }
                guard i < n, isDigit(p[i]) else { return false }
                if p[i] == UInt8(ascii: "0") {
                    i += 1
                    if i < n, isDigit(p[i]) { return false }
                } else {
                    while i < n, isDigit(p[i]) { i += 1 }
                }
                var kind = SkeletonLiteralKind.integer
                if i < n, p[i] == UInt8(ascii: ".") {
                    kind = .decimal
                    i += 1
                    guard i < n, isDigit(p[i]) else { return false }
                    while i < n, isDigit(p[i]) { i += 1 }
                }
                if i < n, p[i] | 0x20 == UInt8(ascii: "e") { return false }
                cutter.cut(kind, start, i)
            } else {
                i += 1
            }
        }
        return true
    }
}

/// A compiled where object or find body whose value tokens may be swapped for those of another
/// text of the same skeleton, giving what compiling that text gives, without parsing it
/// (docs/ARCHITECTURE.md#text-templates).
///
/// A token is a parameter when the lowering put it into the IR as it was written, or read it as
/// a number of a geo condition's (`JSONParameterRecorder`; a `$nearSphere` center is also the
/// order's center); every other token (a limit, a class name, a date's or a pointer's parts, a
/// polygon's points, `$options`, an order) must be the same text for the template to apply.
/// A new value is taken only where the JSON reader would read it the same way without judging
/// it: a string with no escape, an integer of at most 18 digits other than `-0`, a finite
/// decimal; and a geo condition's new values only where the lowering takes them
/// (`ProfileRules.accepts`). Any other makes the engine compile the text in full. When the
/// template is made, a second text with a distinct made-up value in each parameter is compiled
/// in full, and the template's prediction for it (values and source ranges) must equal that
/// compile; otherwise no template.
package final class JSONTemplate: Sendable {
    /// How a parameter's token is read: by its kind, and as a double when it is a geo
    /// condition's coordinate or distance.
    private struct Use: Sendable {
        let kind: JSONSkeleton.Kind
        let geo: Bool
    }

    private let query: Query
    private let parameters: TemplateParameters<Use>
    private let rules: ProfileRules
    /// The order's distances whose center is a `$nearSphere`'s: the key's index, and the
    /// places of the center's latitude and longitude among the IR's literals.
    private let orderCenters: [OrderCenter]

    private struct OrderCenter: Sendable {
        let key: Int
        let latitude: Int
        let longitude: Int
    }
    /// The template's text with a distinct made-up value in each parameter.
    package let variantText: String

    package typealias Prediction = TemplatePrediction<Query>

    private init(
        query: Query, parameters: TemplateParameters<Use>, rules: ProfileRules, orderCenters: [OrderCenter],
        variantText: String
    ) {
        self.query = query
        self.parameters = parameters
        self.rules = rules
        self.orderCenters = orderCenters
        self.variantText = variantText
    }

    /// The template of `text`, which compiles without error on `className`; nil when none of
    /// its tokens may be a parameter or the check against a second compile fails.
    package static func make(
        _ text: String, skeleton: JSONSkeleton, className: String, profile: Profile, limits: Limits
    ) -> JSONTemplate? {
        let bytes = Array(text.utf8)
        let rules = ProfileRules(profile: profile)
        let recorder = JSONParameterRecorder()
        guard let original = compile(text, className, profile, limits, recorder) else { return nil }

        var candidates: [(token: Int, own: Value, use: Use)] = []
        var fixed: [(token: Int, bytes: [UInt8])] = []
        var sentinelText: [UInt8] = []
        var sentinelSpans: [TokenSpan] = []
        var copied = 0
        for (j, literal) in skeleton.literals.enumerated() {
            let plain = recorder.ranges.contains(
                SourceRange(offset: literal.start, length: literal.end - literal.start))
            let use = Use(
                kind: literal.kind,
                geo: !plain && literal.kind != .string && recorder.isGeoNumber(literal.start, literal.end))
            guard plain || use.geo,
                let own = bytes.withUnsafeBufferPointer({ Self.value($0, literal, use) }),
                let made = sentinel(j, use)
            else {
                fixed.append((j, Array(bytes[literal.start..<literal.end])))
                continue
            }
            candidates.append((j, own, use))
            sentinelText += bytes[copied..<literal.start]
            sentinelSpans.append(TokenSpan(start: sentinelText.count, end: sentinelText.count + made.count))
            sentinelText += made
            copied = literal.end
        }
        guard !candidates.isEmpty else { return nil }
        sentinelText += bytes[copied...]
        let sentinelSource = String(decoding: sentinelText, as: UTF8.self)
        guard let checked = compile(sentinelSource, className, profile, limits, nil) else { return nil }

        // Where each made-up value landed among the IR's literals.
        let originalValues = TemplateLiterals.of(original.predicate).values
        let checkedValues = TemplateLiterals.of(checked.predicate).values
        guard originalValues.count == checkedValues.count else { return nil }
        var slots: [TemplateParameters<Use>.Slot] = []
        var sentinelValues = [Value](repeating: .null, count: checkedValues.count)
        var ownValues = sentinelValues
        var isParameter = [Bool](repeating: false, count: checkedValues.count)
        var candidateSpans: [TokenSpan] = []
        for (k, (token, own, use)) in candidates.enumerated() {
            let span = sentinelSpans[k]
            let literal = skeleton.literals[token]
            let made = sentinelText.withUnsafeBufferPointer {
                Self.value($0, JSONSkeleton.Literal(kind: literal.kind, start: span.start, end: span.end), use)
            }
            guard let value = made else { return nil }
            let places = checkedValues.indices.filter { TemplateSubstitution.sameLiteral(checkedValues[$0], value) }
            guard places.count == 1 else { return nil }
            slots.append(TemplateParameters.Slot(token: token, literal: places[0], use: use))
            sentinelValues[places[0]] = value
            ownValues[places[0]] = own
            isParameter[places[0]] = true
            candidateSpans.append(literal.span)
        }
        // A `$nearSphere` orders by distance from its center: the order's center moves with it.
        var orderCenters: [OrderCenter] = []
        for (k, key) in original.order.enumerated() {
            guard case .distance(_, let center, _) = key,
                let i = ownValues.indices.dropLast().first(where: {
                    isParameter[$0] && isParameter[$0 + 1]
                        && TemplateSubstitution.sameLiteral(ownValues[$0], .double(center.latitude))
                        && TemplateSubstitution.sameLiteral(ownValues[$0 + 1], .double(center.longitude))
                })
            else { continue }
            orderCenters.append(OrderCenter(key: k, latitude: i, longitude: i + 1))
        }
        // The prediction for both texts must be what compiling them gave.
        guard
            let predicted = substitute(
                original, sentinelValues, isParameter, TemplateRangeMap(from: candidateSpans, to: sentinelSpans),
                rules, orderCenters),
            same(predicted, checked),
            let own = substitute(
                original, ownValues, isParameter, TemplateRangeMap(from: candidateSpans, to: candidateSpans), rules,
                orderCenters),
            same(own, original)
        else { return nil }
        return JSONTemplate(
            query: original,
            parameters: TemplateParameters(spans: candidateSpans, isParameter: isParameter, slots: slots, fixed: fixed),
            rules: rules, orderCenters: orderCenters, variantText: sentinelSource)
    }

    /// What compiling `text` gives, when its skeleton is this template's; nil when a token that
    /// is not a parameter differs, or a parameter's value is one the full compile must judge.
    package func predict(_ text: String, _ skeleton: JSONSkeleton) -> Prediction? {
        var text = text
        return text.withUTF8 { p -> Prediction? in
            guard
                let (values, ranges) = parameters.read(
                    p, token: { skeleton.literals[$0].span },
                    { span, use in
                        Self.value(p, JSONSkeleton.Literal(kind: use.kind, start: span.start, end: span.end), use)
                    }),
                let predicted = Self.substitute(query, values, parameters.isParameter, ranges, rules, orderCenters)
            else { return nil }
            return Prediction(result: predicted, values: values, isParameter: parameters.isParameter)
        }
    }

    private static func compile(
        _ text: String, _ className: String, _ profile: Profile, _ limits: Limits, _ recorder: JSONParameterRecorder?
    ) -> Query? {
        guard let spec = try? ParseWhere.request(text, className: className, limits: limits) else { return nil }
        return try? Lowerer.lower(spec, profile: profile, limits: limits, recording: recorder)
    }

    private static func substitute(
        _ q: Query, _ values: [Value], _ isParameter: [Bool], _ ranges: TemplateRangeMap, _ rules: ProfileRules,
        _ orderCenters: [OrderCenter]
    ) -> Query? {
        guard
            let predicate = TemplateSubstitution.substitute(
                q.predicate, values, isParameter, ranges, accepting: { rules.accepts($0) })
        else { return nil }
        var out = q
        out.predicate = predicate
        for c in orderCenters {
            guard case .distance(let path, _, let direction) = q.order[c.key],
                case .double(let latitude) = values[c.latitude], case .double(let longitude) = values[c.longitude]
            else { return nil }
            out.order[c.key] = .distance(path, from: GeoPoint(latitude: latitude, longitude: longitude), direction)
        }
        return out
    }

    private static func same(_ a: Query, _ b: Query) -> Bool {
        a == b && TemplateSubstitution.same(a.predicate, b.predicate)
    }

    /// A made-up token for parameter `j`, of its kind, distinct for each `j`; a geo number one
    /// that is a valid coordinate and distance, growing with `j` so that a box's corners stay
    /// in order.
    private static func sentinel(_ j: Int, _ use: Use) -> [UInt8]? {
        switch (use.kind, use.geo) {
        case (.string, _): return Array("\"q\(j)z\"".utf8)
        case (.integer, false): return Array(String(7_000_000 + 13 * j).utf8)
        case (.decimal, false): return Array("\(7000 + j).25".utf8)
        case (.integer, true): return j < 60 ? Array(String(21 + j).utf8) : nil
        case (.decimal, true): return j < 60 ? Array("\(21 + j).\(j)7".utf8) : nil
        }
    }

    /// The IR value of a token as the JSON reader reads it; nil where it would judge the token
    /// (an escape) or read it otherwise (`-0` and integers past 18 digits, which it may make
    /// doubles; a decimal too large for a double, which it refuses).
    private static func value(_ p: UnsafeBufferPointer<UInt8>, _ l: JSONSkeleton.Literal, _ use: Use) -> Value? {
        guard let v = value(p, l) else { return nil }
        guard use.geo else { return v }
        // A geo condition keeps its numbers as doubles, an integer converted as the request
        // decoder converts it.
        switch v {
        case .int(let i): return .double(Double(i))
        default: return v
        }
    }

    private static func value(_ p: UnsafeBufferPointer<UInt8>, _ l: JSONSkeleton.Literal) -> Value? {
        switch l.kind {
        case .string:
            let inside = UnsafeBufferPointer(rebasing: p[l.start + 1..<l.end - 1])
            guard !inside.contains(UInt8(ascii: "\\")) else { return nil }
            return .string(String(decoding: inside, as: UTF8.self))
        case .integer:
            var i = l.start
            let negative = p[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            guard l.end - i <= 18 else { return nil }
            var u: Int64 = 0
            while i < l.end {
                u = u * 10 + Int64(p[i] &- 0x30)
                i += 1
            }
            if negative, u == 0 { return nil }
            return .int(negative ? -u : u)
        case .decimal:
            guard let d = DecimalText.double(UnsafeBufferPointer(rebasing: p[l.start..<l.end])), d.isFinite else {
                return nil
            }
            return .double(d)
        }
    }
}
