import Quarry

/// `--data` and `--class`: the database a command reads, and the class its query is on.
struct DataSource {
    var database: Database
    var className: String

    /// Loads the file and settles the class: `--class` when given (it must exist), else the
    /// file's only class; several classes without `--class` is a usage error listing them.
    /// A path of `-` reads standard input (objects of a class-less layout go into `--class`,
    /// else into the class `stdin`).
    static func load(_ path: String, className: String?, console: Console) throws(Failure) -> DataSource {
        let database: Database
        do throws(DataFileError) {
            if path == "-" {
                database = try DataFile.load(
                    bytes: try standardInput(console), fileName: "<stdin>", className: className ?? "stdin")
            } else {
                database = try Database(contentsOfFile: path, className: className)
            }
        } catch {
            throw .data(error)
        }
        let names = database.classNames
        if let className {
            guard database.hasClass(className) else {
                throw .usage("the data in \(path) has no class '\(className)'; it holds \(listing(names))")
            }
            return DataSource(database: database, className: className)
        }
        guard names.count == 1 else {
            throw .usage(
                names.isEmpty
                    ? "the data in \(path) holds no class; name one with --class"
                    : "the data in \(path) holds several classes (\(names.joined(separator: ", "))); choose one with --class"
            )
        }
        return DataSource(database: database, className: names[0])
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
