import QuarryCore
import QuarryData

/// Where a piece of a query came from: its JSON path (`where.$or[1].score.$gt`) and, when it
/// was decoded from text, its bytes. Builder-made pieces carry the path the SDK would send.
struct Location: Hashable, Sendable {
    var path: String
    var range: SourceRange?

    init(path: String, range: SourceRange? = nil) {
        self.path = path
        self.range = range
    }

    /// A member of the object at this location. Without a range of its own it keeps the
    /// enclosing range, which still points the reader at the right text.
    func member(_ name: String, range: SourceRange? = nil) -> Location {
        Location(path: path.isEmpty ? name : path + "." + name, range: range ?? self.range)
    }

    func index(_ i: Int, range: SourceRange? = nil) -> Location {
        Location(path: path + "[\(i)]", range: range ?? self.range)
    }

    static let request = Location(path: "")
    static let whereRoot = Location(path: "where")
}

/// A value together with where it was written.
struct Located<T: Sendable>: Sendable {
    var value: T
    var location: Location

    init(_ value: T, _ location: Location) {
        self.value = value
        self.location = location
    }
}

/// Collects diagnostics while a front-end walks the input, so that one run reports every
/// problem it can find (up to a bound), each with its Parse code and JSON path.
struct Problems: Sendable {
    private(set) var all: [Diagnostic] = []
    /// Enough to fix a query in one go; more would only bury the first.
    static let maximum = 50

    var isEmpty: Bool { all.isEmpty }

    /// Records a problem; its Parse code is the catalogue's unless `parseCode` overrides it.
    mutating func add(
        _ code: DiagnosticCode, _ message: String, at location: Location,
        parseCode: Int? = nil, notes: [String] = []
    ) {
        guard all.count < Problems.maximum else { return }
        all.append(
            Diagnostic(
                code, message, at: location.range, notes: notes,
                path: location.path.isEmpty ? nil : location.path,
                parseCode: parseCode ?? code.parseCode))
    }

    func check() throws(Diagnostic) {
        try Diagnostic.throwIfAny(all)
    }
}
