import Quarry

/// `--data` and `--class`: the engine over a data file, its schema, and the class a command's
/// query is on. The file goes straight into the engine's columns (docs/STORAGE.md#direct-loading).
struct DataSource {
    var loaded: Engine.Loaded
    var className: String

    /// The engine over the file's data (with `.default` limits unless the command gave others).
    var engine: Engine { loaded.engine }
    /// The file's classes, fields and field types, for the front-ends' checks.
    var schema: any Schema { loaded.schema }

    /// Loads the file and settles the class: `--class` when given (it must exist), else the
    /// file's only class; several classes without `--class` is a usage error listing them. On a
    /// terminal, a progress line on standard error tells how much of the file is read. A path of
    /// `-` reads standard input (objects of a class-less layout go into `--class`, else into the
    /// class `stdin`).
    static func load(
        _ path: String, className: String?, limits: Limits = .default,
        parallelism: ScanParallelism = .automatic, console: Console
    ) throws(Failure) -> DataSource {
        let progress = path == "-" ? nil : ProgressLine(console, path)
        let loaded: Engine.Loaded
        do throws(DataFileError) {
            if path == "-" {
                let database = try DataFile.load(
                    bytes: try standardInput(console), fileName: "<stdin>", className: className ?? "stdin")
                loaded = Engine.Loaded(
                    engine: Engine(database: database, limits: limits, parallelism: parallelism), schema: database,
                    direct: false)
            } else {
                loaded = try ProcessMemory.loading { () throws(DataFileError) in
                    try Engine.load(
                        contentsOfFile: path, className: className, limits: limits, parallelism: parallelism,
                        progress: progress.map { p in p.show })
                }
            }
            progress?.clear()
        } catch {
            progress?.clear()
            throw .data(error)
        }
        let names = loaded.schema.classNames
        if let className {
            guard loaded.schema.hasClass(className) else {
                throw .usage("the data in \(path) has no class '\(className)'; it holds \(listing(names))")
            }
            return DataSource(loaded: loaded, className: className)
        }
        guard names.count == 1 else {
            throw .usage(
                names.isEmpty
                    ? "the data in \(path) holds no class; name one with --class"
                    : "the data in \(path) holds several classes (\(names.joined(separator: ", "))); choose one with --class"
            )
        }
        return DataSource(loaded: loaded, className: names[0])
    }

    /// The most `--data -` reads: as much as a file may hold.
    static let maxStandardInput = 1 << 36

    private static func standardInput(_ console: Console) throws(DataFileError) -> [UInt8] {
        do {
            return try console.readInput(maxStandardInput)
        } catch {
            throw DataFileError(code: .data.io, message: "\(error)", file: "<stdin>")
        }
    }

    private static func listing(_ names: [String]) -> String {
        names.isEmpty ? "no class" : (names.count == 1 ? "only '\(names[0])'" : names.joined(separator: ", "))
    }
}

/// `loading data.json: 42% (36 of 86 MB)` on standard error while a file loads, redrawn in
/// place, only when standard error is a terminal; cleared when the file is loaded.
final class ProgressLine {
    private let sink: FileDescriptorSink
    private let path: String
    private var shown = -1

    init?(_ console: Console, _ path: String) {
        guard let sink = console.error as? FileDescriptorSink, sink.isTerminal else { return nil }
        self.sink = sink
        self.path = path
    }

    func show(_ done: Int, _ total: Int) {
        let percent = total > 0 ? done * 100 / total : 100
        guard percent != shown, total >= 1 << 20 else { return }
        shown = percent
        sink.write("\rloading \(path): \(percent)% (\(done >> 20) of \(total >> 20) MB)")
        sink.flush()
    }

    func clear() {
        guard shown >= 0 else { return }
        sink.write("\r\u{1B}[K")
        sink.flush()
    }
}
