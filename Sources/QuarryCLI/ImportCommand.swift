import ArgumentParser
import Quarry
import QuarrySQLite

/// `quarry import`: a data file into a store, in one transaction.
struct ImportCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Load a data file into a store (created if needed), in one transaction.",
        discussion: """
            The file is read object by object (the layouts 'quarry run --data' reads) and saved \
            into the store; an object whose objectId is already stored replaces it in place. \
            The import is atomic: if anything fails (a malformed object, a full disk) the store \
            is left as it was. --index declares a persistent index, Class.key[:hash|ordered|geo].

            Examples:
              quarry import --data people.json --store sqlite:people.db --index Person.age
              quarry run --store sqlite:people.db --class Person "age > 20"
            """)

    @Option(name: .customLong("data"), help: ArgumentHelp("The data file to import.", valueName: "file"))
    var file: String

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("The store: sqlite:PATH or postgresql://user@host:port/database.", valueName: "url"))
    var store: String

    @Option(
        name: .customLong("class"),
        help: ArgumentHelp(
            "The class for a file of objects without classes (default: the file's name).", valueName: "name"))
    var className: String?

    @Option(
        name: .customLong("index"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Declare an index, Class.key or Class.key:kind; repeat for each.", valueName: "index"))
    var indexes: [String] = []

    @Flag(help: "Print the answer (or the errors) as one JSON document on stdout.")
    var json = false

    @OptionGroup var color: ColorOption

    var reportsJSON: Bool { json }
    var colorChoice: ColorChoice { color.choice }

    func validate() throws {
        for spec in indexes where Self.index(spec) == nil {
            throw ValidationError("--index '\(spec)' is not Class.key or Class.key:kind (kind: hash, ordered or geo).")
        }
    }

    /// `Class.key` or `Class.key:kind`; nil kind lets the store choose. Nil when malformed.
    static func index(_ spec: String) -> (className: String, key: FieldPath, kind: IndexKind?)? {
        var text = Substring(spec)
        var kind: IndexKind?
        if let colon = spec.lastIndex(of: ":") {
            guard let k = IndexKind(rawValue: String(spec[spec.index(after: colon)...])) else { return nil }
            kind = k
            text = spec[..<colon]
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else { return nil }
        return (parts[0], FieldPath(Array(parts.dropFirst())), kind)
    }
}

extension ImportCommand {
    func execute(_ console: Console) throws(Failure) {
        let target = try StoreSource.opening(store)
        let path = target.location
        let progress = (console.error as? FileDescriptorSink).flatMap { $0.isTerminal ? $0 : nil }
        var counts: [(String, Int)] = []
        var total = 0
        var dataError: DataFileError?
        var storeError: Diagnostic?
        do throws(Diagnostic) {
            try target.importing { t in
                do {
                    try ReadAhead.stream(path: file, className: className) { record, name in
                        do {
                            try t.save(record, in: name)
                        } catch {
                            storeError = Diagnostic(.store.write, "could not save \(name) \(record.objectId): \(error)")
                            throw error
                        }
                        if counts.last?.0 == name { counts[counts.count - 1].1 += 1 } else { counts.append((name, 1)) }
                        total += 1
                        if let progress, total % 10_000 == 0 {
                            progress.write("\rimported \(total) objects")
                            progress.flush()
                        }
                    }
                } catch let error as DataFileError {
                    dataError = error
                    throw error
                }
                for (className, key, kind) in indexes.compactMap(Self.index) {
                    try t.declareIndex(kind, on: key, in: className)
                }
            }
        } catch {
            progress?.write("\n")
            if let storeError { throw .query(storeError, source: "") }
            if let dataError { throw .data(dataError) }
            throw .query(error, source: "")
        }
        if progress != nil { progress?.write("\r") }
        if json {
            let classes = counts.map { "\(JSONText.quote($0.0)):\($0.1)" }.joined(separator: ",")
            console.output.write(
                "{\"ok\":true,\"store\":\(JSONText.quote(path)),\"objects\":\(total),\"classes\":{\(classes)}}\n")
            return
        }
        let summary = counts.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        console.output.write("imported \(total) objects\(summary.isEmpty ? "" : " (\(summary))") into \(path)\n")
    }
}
