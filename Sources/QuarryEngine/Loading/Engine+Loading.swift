import QuarryCore
import QuarryData

extension Engine {
    /// An engine over a data file, and the file's schema for the front-ends' checks.
    public struct Loaded {
        public let engine: Engine
        public let schema: any Schema
        /// Whether the columns were built straight from the bytes (always, unless the direct
        /// reader left the file to the record loader: docs/STORAGE.md#direct-loading).
        public let direct: Bool

        public init(engine: Engine, schema: any Schema, direct: Bool) {
            self.engine = engine
            self.schema = schema
            self.direct = direct
        }
    }

    /// Loads a data file straight into columns (docs/STORAGE.md#direct-loading): the file is
    /// read once, front to back, each value going into its column as it is read, with no
    /// `Record` per object. Accepts what `DataFile.load` accepts, and rejects what it rejects with
    /// the same located `DataFileError`. With more than one thread in `parallelism`, the columns
    /// are built on a second thread behind the reader. `progress` is called now and then with
    /// the bytes read and the file's size.
    public static func load(
        contentsOfFile path: String, className: String? = nil, format: DataFile.Format = .auto,
        limits: Limits = .default, parallelism: ScanParallelism = .automatic,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws(DataFileError) -> Loaded {
        let outcome: DataFile.ReadOutcome
        var loader: ColumnLoader
        if parallelism.threads > 1 {
            // The columns are built on a second thread while this one reads.
            var pipelined = PipelinedSink(ColumnLoader(sparseCells: limits.maxSparseCells))
            outcome = try DataFile.read(
                path: path, className: className, format: format, into: &pipelined, progress: progress)
            loader = pipelined.target(as: ColumnLoader.self)
        } else {
            loader = ColumnLoader(sparseCells: limits.maxSparseCells)
            outcome = try DataFile.read(
                path: path, className: className, format: format, into: &loader, progress: progress)
        }
        let database: Database
        switch outcome {
        case .streamed:
            if let schema = loader.finish(threads: parallelism.threads) {
                return Loaded(
                    engine: Engine(
                        store: loader.store, schema: schema, limits: limits,
                        now: ReferenceEvaluator.systemClock,
                        random: { Double.random(in: 0..<1) }, parallelism: parallelism),
                    schema: schema, direct: true)
            }
            // An objectId held twice, found once its class was read: the record loader reads
            // the file and reports it where it is.
            database = try DataFile.load(path: path, className: className, format: format)
        case .records(let records):
            // The direct loader stopped at a class too sparse for columns, and the record loader
            // then read the whole file (so an error anywhere in it comes first).
            if let e = loader.sparseExcess {
                throw SparseLimit.error(
                    e.className, fields: e.fields, objects: e.objects, values: e.values, limit: limits.maxSparseCells,
                    objectId: e.objectId, file: path)
            }
            database = records
        }
        if let error = SparseLimit.firstExcess(in: database, file: path, limit: limits.maxSparseCells) {
            throw error
        }
        return Loaded(
            engine: Engine(database: database, limits: limits, parallelism: parallelism), schema: database,
            direct: false)
    }
}
