import Testing
import QuarryCore
import QuarrySQL

// Short IR constructors so golden expectations read like the where clause they describe.

func key(_ path: String) -> Expr { .key(FieldPath(path)) }
func lit(_ v: Value) -> Expr { .literal(v) }

func cmp(_ path: String, _ op: ComparisonOperator, _ v: Value, negated: Bool = false) -> Filter {
    .leaf(.compare(key(path), op, lit(v), []), negated: negated, .sql)
}

func sqlLeaf(_ c: Condition, negated: Bool = false) -> Filter { .leaf(c, negated: negated, .sql) }

func like(_ path: String, _ pattern: String, escape: Character? = nil, negated: Bool = false) -> Filter {
    sqlLeaf(
        .string(key(path), .like(.sql(escape: escape)), lit(.string(pattern)), .caseInsensitive),
        negated: negated)
}

/// Parses or records the diagnostics as a test failure.
func parsed(
    _ text: String, className: String? = nil, schema: (any Schema)? = nil,
    limits: Limits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> Filter? {
    do {
        return try SQLWhere.parse(text, className: className, schema: schema, limits: limits)
    } catch {
        Issue.record("\(text): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Where a diagnostic points: 1-based line and column (in scalars) and its length in scalars.
struct Location: Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var length: Int
    var description: String { "\(line):\(column)+\(length)" }
}

/// The first diagnostic of a text that must fail.
func failure(
    _ text: String, className: String? = nil, schema: (any Schema)? = nil,
    limits: Limits = .default, sourceLocation: SourceLocation = #_sourceLocation
) -> Diagnostic? {
    do {
        let p = try SQLWhere.parse(text, className: className, schema: schema, limits: limits)
        Issue.record("expected an error for \(text) but got \(p)", sourceLocation: sourceLocation)
        return nil
    } catch {
        guard let first = error.all.first else {
            Issue.record("empty Diagnostics for \(text)", sourceLocation: sourceLocation)
            return nil
        }
        return first
    }
}

func location(of d: Diagnostic, in text: String) -> Location? {
    guard let r = d.range else { return nil }
    let source = SourceText(text)
    let p = source.position(ofByte: r.offset)
    return Location(line: p.line, column: p.column, length: source.scalarLength(of: r))
}

/// Checks a bad input's code and exact location.
func expectError(
    _ text: String, _ code: String, at line: Int, _ column: Int, length: Int,
    className: String? = nil, schema: (any Schema)? = nil, limits: Limits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard
        let d = failure(
            text, className: className, schema: schema, limits: limits,
            sourceLocation: sourceLocation)
    else { return }
    #expect(d.code == code, "\(text): \(d.message)", sourceLocation: sourceLocation)
    #expect(
        location(of: d, in: text) == Location(line: line, column: column, length: length),
        "\(text): \(d.message)", sourceLocation: sourceLocation)
}

/// A schema written out by hand: class → field → type.
struct TestSchema: Schema {
    var classes: [String: [(String, FieldType?)]]

    func hasClass(_ className: String) -> Bool { classes[className] != nil }

    func resolveField(_ name: String, in className: String) -> String? {
        guard let fields = classes[className] else { return nil }
        if fields.contains(where: { $0.0 == name }) { return name }
        let matches = fields.filter { $0.0.lowercased() == name.lowercased() }
        return matches.count == 1 ? matches[0].0 : nil
    }

    func fieldType(_ field: String, in className: String) -> FieldType? {
        classes[className]?.first(where: { $0.0 == field })?.1 ?? nil
    }

    var classNames: [String] { classes.keys.sorted() }

    func fieldNames(in className: String) -> [String] { classes[className]?.map(\.0) ?? [] }
}

/// The seed's classes (reference §2.3, §3.1, §7) with their column types.
let seedSchema = TestSchema(classes: [
    "Contact": [
        ("objectId", .string), ("name", .string), ("age", .number), ("title", .string),
        ("phone", .string), ("address", .pointer(to: "Address")), ("updated", .date),
        ("created", .date), ("active", .bool), ("tags", .array(of: .string)),
    ],
    "Address": [("objectId", .string), ("city", .string), ("state", .string), ("street", .string)],
    "PhoneBook": [
        ("objectId", .string), ("name", .string), ("contacts", .relation(to: "Contact")),
        ("owner", .pointer(to: "Contact")), ("age", .number),
    ],
    "Person": [("objectId", .string), ("birthDate", .date), ("address", .relation(to: "Address"))],
    "Friend": [
        ("objectId", .string), ("name", .string), ("coordinates", .geoPoint),
        ("phoneNumber", .string),
    ],
    "Item": [("objectId", .string), ("name", .string)],
    "Order": [("objectId", .string), ("orderAmount", .number)],
    "Comment": [("objectId", .string), ("author", .pointer(to: "Users")), ("blogPost", .pointer(to: "BlogPost"))],
    "Users": [("objectId", .string), ("email", .string), ("name", .string)],
    "BlogPost": [("objectId", .string), ("title", .string)],
])
