import QuarryCore

/// Loads a `Database` from a data file (docs/SEMANTICS.md#data-files; the CLI's `--data`).
///
/// Accepted layouts:
///
///     {"Contact": [{…}, …], "Address": [{…}, …]}   a database of classes
///     [{…}, …]                                     objects of one class
///     {"results": [{…}, …]}                        Parse's export: objects of one class
///     {…}\n{…}\n                                    NDJSON: one object a line
///
/// In the class-less layouts (and for the `results` member, beside which a numeric `count` is
/// ignored) the objects go into the class the caller names. A file is read as NDJSON when its
/// name ends in `.ndjson` or `.jsonl`, or when its first non-blank line is a complete JSON
/// object and more follows; a single-line NDJSON file needs the extension.
///
/// Objects are Parse REST JSON (`ParseJSON.decodeRecord`). An object without `objectId` gets
/// `<class>-<n>`, `n` being its 1-based position among the class's objects in the file (stable
/// across loads of the same file). A repeated objectId in a class, or a class that appears twice,
/// is an error. Errors name the file, line:column, class, object and field (`DataFileError`).
public enum DataFile {
    public enum Format: Sendable {
        /// By the file's extension, else by its content.
        case auto
        case json
        case ndjson
    }

    /// Loads the file at `path`; class-less layouts go into `className`, or by default into the
    /// class named like the file (`data/Contact.json` → `Contact`).
    public static func load(
        path: String, className: String? = nil, format: Format = .auto,
        parser: JSONParser = JSONParser()
    ) throws(DataFileError) -> Database {
        let bytes = try FileBytes.read(path)
        let lowered = path.lowercased()
        let byName: Format = lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") ? .ndjson : .auto
        return try load(
            bytes: bytes, fileName: path, className: className ?? defaultClassName(forPath: path),
            format: format == .auto ? byName : format, parser: parser)
    }

    /// Loads a data file's bytes; `fileName` is only used in errors.
    public static func load(
        bytes: [UInt8], fileName: String, className: String, format: Format = .auto,
        parser: JSONParser = JSONParser()
    ) throws(DataFileError) -> Database {
        try bytes.withUnsafeBufferPointer { buf in
            Result(catching: { () throws(DataFileError) -> Database in
                var loader = DataFileLoader(buf: buf, fileName: fileName, defaultClass: className, parser: parser)
                return try loader.load(format)
            })
        }.get()
    }

    /// Reads the file at `path` object by object, handing each to `body` with its class as
    /// soon as it is decoded, without building a `Database` (`quarry import`). Errors are
    /// those of `load`, or the first one `body` throws.
    public static func stream(
        path: String, className: String? = nil, format: Format = .auto,
        parser: JSONParser = JSONParser(),
        _ body: @escaping (Record, String) throws(DataFileError) -> Void
    ) throws(DataFileError) {
        let bytes = try FileBytes.read(path)
        let lowered = path.lowercased()
        let byName: Format = lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") ? .ndjson : .auto
        try bytes.withUnsafeBufferPointer { buf in
            Result(catching: { () throws(DataFileError) -> Void in
                var loader = DataFileLoader(
                    buf: buf, fileName: path,
                    defaultClass: className ?? defaultClassName(forPath: path), parser: parser)
                loader.sink = body
                _ = try loader.load(format == .auto ? byName : format)
            })
        }.get()
    }

    /// The file's base name without its last extension: `data/Contact.json` → `Contact`.
    public static func defaultClassName(forPath path: String) -> String {
        let base = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}
