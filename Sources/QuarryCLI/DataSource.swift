import Quarry

/// `--data` and `--class`: the database a command reads, and the class its query is on.
struct DataSource {
    var database: Database
    var className: String

    /// Loads the file and settles the class: `--class` when given (it must exist), else the
    /// file's only class; several classes without `--class` is a usage error listing them.
    static func load(_ path: String, className: String?) throws(Failure) -> DataSource {
        let database: Database
        do throws(DataFileError) {
            database = try Database(contentsOfFile: path, className: className)
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

    private static func listing(_ names: [String]) -> String {
        names.isEmpty ? "no class" : (names.count == 1 ? "only '\(names[0])'" : names.joined(separator: ", "))
    }
}
