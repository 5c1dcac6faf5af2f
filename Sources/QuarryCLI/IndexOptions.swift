import ArgumentParser
import Quarry

/// `--index KEY[:kind]`: secondary indexes the engine builds before it runs the query.
struct IndexOptions: ParsableArguments {
    @Option(
        name: .customLong("index"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Index a key path of the queried class; repeat for each. KEY:hash, KEY:ordered or KEY:geo chooses the kind.",
            discussion: "Without a kind, a field holding geo points gets a geo index and any other an ordered one "
                + "(it serves equality, IN, ranges, prefixes and ORDER BY).",
            valueName: "key"))
    var specs: [String] = []

    /// The engine over the data with the indexes built.
    func engine(_ source: DataSource) throws(Failure) -> Engine {
        let engine = source.engine
        var indexes: [(kind: IndexKind, key: FieldPath)] = []
        for spec in specs {
            let (key, kind) = try Self.parse(spec, schema: source.schema, className: source.className)
            if let problem = engine.indexProblem(key, in: source.className) {
                throw .usage("--index \(spec): \(problem.message)")
            }
            indexes.append((kind, key))
        }
        // Built side by side, one per thread.
        do throws(Diagnostic) {
            try engine.createIndexes(indexes, in: source.className)
        } catch {
            throw .usage("--index: \(error.message)")
        }
        return engine
    }

    /// `age`, `address.city`, `location:geo`.
    static func parse(_ spec: String, schema: any Schema, className: String) throws(Failure) -> (FieldPath, IndexKind) {
        var keyText = Substring(spec)
        var kind: IndexKind? = nil
        if let colon = spec.lastIndex(of: ":") {
            let name = spec[spec.index(after: colon)...]
            guard let k = IndexKind(rawValue: String(name)) else {
                throw .usage("--index \(spec): '\(name)' is not an index kind; use hash, ordered or geo")
            }
            kind = k
            keyText = spec[..<colon]
        }
        let parts = keyText.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, !parts.contains(where: \.isEmpty) else {
            throw .usage("--index \(spec): expected a key path such as 'age' or 'address.city'")
        }
        let key = FieldPath(parts)
        if let kind { return (key, kind) }
        let isGeo = parts.count == 1 && schema.fieldType(parts[0], in: className) == .geoPoint
        return (key, isGeo ? .geo : .ordered)
    }
}
