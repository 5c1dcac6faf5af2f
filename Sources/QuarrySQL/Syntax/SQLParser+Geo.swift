import QuarryCore

/// The unit functions a `distance(…)` is compared with.
enum SQLUnits {
    static let all: [(name: String, unit: DistanceUnit)] = [
        ("ft", .feet), ("yd", .yards), ("mi", .miles), ("km", .kilometers), ("m", .meters),
    ]

    static func unit(named name: String) -> DistanceUnit? {
        all.first { Keyword.equalsIgnoringCase(name, $0.name) }?.unit
    }

    static func name(of unit: DistanceUnit) -> String? { all.first { $0.unit == unit }?.name }

    static var list: String { all.map { "\($0.name)(x)" }.joined(separator: ", ") }
}

extension SQLParser {
    /// `distance(lat, lon, key.latitude, key.longitude) op unit(x)`
    mutating func distance() throws(Diagnostic) -> SQLPredicate {
        let start = current.range.offset
        let args = try arguments()
        let call = span(start)
        guard args.count == 4 else {
            throw Diagnostic(
                .syntax.wrongArity,
                "distance() takes 4 arguments (latitude, longitude, column.latitude, column.longitude) but \(args.count) \(args.count == 1 ? "was" : "were") given",
                at: call)
        }
        let latitude = try numberArgument(args[0], "the latitude of the center")
        let longitude = try numberArgument(args[1], "the longitude of the center")
        let latitudeColumn = try pathArgument(args[2], "a GeoPoint column's latitude, as in coordinates.latitude")
        let longitudeColumn = try pathArgument(args[3], "a GeoPoint column's longitude, as in coordinates.longitude")

        let allowed = "<, >, =, >= or <="
        let opToken = current
        guard let op = try comparisonOperator() else {
            throw unexpected("a comparison (\(allowed)) after distance(…)", afterRange: nil)
        }
        switch op.spelling {
        case .notEqual, .notEqualSQL, .after, .before, .atOrAfter, .atOrBefore:
            throw Diagnostic(
                .geo.distanceOperator,
                "distance(…) can be compared only with \(allowed), not '\(text(op.range))'",
                at: span(opToken.range.offset))
        default: break
        }
        if literalStartsHere() {
            let bare = try literalScalar(expected: "a distance", afterRange: op.range)
            throw Diagnostic(
                .geo.distanceNeedsUnit,
                "distance(…) is compared with a distance in units, as in mi(\(text(bare.range))); the units are \(SQLUnits.list)",
                at: bare.range)
        }
        guard case .identifier(let unitText, let quoted) = current.kind, isSymbol(.leftParen, at: position + 1) else {
            throw unexpected("a distance in units (\(SQLUnits.list))", afterRange: op.range)
        }
        let unitToken = current
        guard !quoted, SQLUnits.unit(named: unitText) != nil else {
            throw Diagnostic(
                .geo.unknownUnit,
                "unknown unit '\(unitText)'; the units are \(SQLUnits.list)", at: unitToken.range)
        }
        let unitArgs = try arguments()
        guard unitArgs.count == 1 else {
            throw Diagnostic(
                .syntax.wrongArity,
                "\(unitText)() takes 1 argument but \(unitArgs.count) were given",
                at: span(unitToken.range.offset))
        }
        let amount = try numberArgument(unitArgs[0], "a number of \(unitText)")
        let unit = SQLName(text: unitText, quoted: false, range: unitToken.range)
        let d = SQLDistance(
            latitude: latitude, longitude: longitude, latitudeColumn: latitudeColumn,
            longitudeColumn: longitudeColumn, op: op, unit: unit, amount: amount)
        return SQLPredicate(kind: .distance(d), range: span(start))
    }

    /// `Within(column, 'WKT') = TRUE|FALSE`
    mutating func within() throws(Diagnostic) -> SQLPredicate {
        let start = current.range.offset
        let args = try arguments()
        guard args.count == 2 else {
            throw Diagnostic(
                .syntax.wrongArity,
                "Within() takes 2 arguments (column, 'POLYGON((…))') but \(args.count) \(args.count == 1 ? "was" : "were") given",
                at: span(start))
        }
        let column = try pathArgument(args[0], "a GeoPoint column")
        guard case .literal(let geometry) = args[1], case .string = geometry.value else {
            throw Diagnostic(
                .syntax.unexpectedToken,
                "expected the geometry as a string, as in 'POLYGON((lon lat, …))'",
                at: args[1].range)
        }
        let message = "Within(…) is compared with = TRUE or = FALSE"
        let opToken = current
        guard let op = try comparisonOperator(), op.spelling == .equal else {
            throw Diagnostic(
                .geo.withinComparison, message + " but found \(describe(opToken))",
                at: span(opToken.range.offset))
        }
        guard let b = booleanKeyword(current) else {
            throw Diagnostic(
                .geo.withinComparison, message + " but found \(describe(current))",
                at: current.range)
        }
        let expected = SQLLiteral(value: .bool(b), range: current.range)
        advance()
        return SQLPredicate(
            kind: .within(
                SQLWithin(
                    column: column, geometry: geometry, op: op,
                    expected: expected)),
            range: span(start))
    }

    /// `name ( scalar, … )`, starting at the name.
    private mutating func arguments() throws(Diagnostic) -> [SQLScalar] {
        let nameToken = current
        advance()  // name
        try enter()
        advance()  // (
        var args: [SQLScalar] = []
        if isSymbol(.rightParen) {
            advance()
            leave()
            return args
        }
        while true {
            args.append(try scalar(expected: "an argument", after: args.isEmpty ? nameToken.range : nil))
            if isSymbol(.comma) {
                advance()
                continue
            }
            guard isSymbol(.rightParen) else { throw unexpected("',' or ')' in the arguments", after: lastToken) }
            advance()
            leave()
            return args
        }
    }

    private func numberArgument(_ arg: SQLScalar, _ what: String) throws(Diagnostic) -> SQLLiteral {
        switch arg {
        case .literal(let l):
            switch l.value {
            case .int, .double: return l
            default: break
            }
        case .path: break
        }
        throw Diagnostic(.syntax.unexpectedToken, "expected \(what), a number", at: arg.range)
    }

    private func pathArgument(_ arg: SQLScalar, _ what: String) throws(Diagnostic) -> SQLPath {
        guard case .path(let p) = arg else {
            throw Diagnostic(.syntax.unexpectedToken, "expected \(what)", at: arg.range)
        }
        return p
    }

    private func literalStartsHere() -> Bool {
        switch current.kind {
        case .integer, .decimal, .string, .symbol(.minus): return true
        default: return false
        }
    }
}
