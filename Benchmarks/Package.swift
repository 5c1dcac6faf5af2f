// swift-tools-version:6.1
import PackageDescription

// Quarry's benchmarks: a package of its own, so that the main package and CI never build the
// benchmark harness. Run from this directory:
//
//     swift package benchmark                       # the ordo-one/benchmark suite
//     swift run -c release quarry-bench-data …      # writes the data set `make bench` uses
//     swift run -c release quarry-concurrency-bench # concurrent reads and writes
//     swift run -c release quarry-bench-store …     # the store benchmark (`make bench-store`)
let package = Package(
    name: "QuarryBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Quarry", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "QueryBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Quarry", package: "Quarry"),
                .product(name: "QuarrySQLite", package: "Quarry"),
                .product(name: "QuarryTestSupport", package: "Quarry"),
            ],
            path: "Benchmarks/QueryBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "quarry-bench-data",
            dependencies: [.product(name: "QuarryTestSupport", package: "Quarry")],
            path: "Sources/quarry-bench-data"),
        .executableTarget(
            name: "quarry-concurrency-bench",
            dependencies: [
                .product(name: "Quarry", package: "Quarry"),
                .product(name: "QuarryTestSupport", package: "Quarry"),
            ],
            path: "Sources/quarry-concurrency-bench"),
        // Store backends against hand-written SQL and the in-memory engine (docs/STORAGE.md).
        .executableTarget(
            name: "quarry-bench-store",
            dependencies: [
                "CSQLiteBench", .product(name: "Quarry", package: "Quarry"),
                .product(name: "QuarrySQLite", package: "Quarry"),
            ],
            path: "Sources/quarry-bench-store"),
        .systemLibrary(name: "CSQLiteBench", path: "Sources/CSQLiteBench", pkgConfig: "sqlite3"),
        // The PostgreSQL store against hand-written SQL and COPY on one database.
        .executableTarget(
            name: "quarry-bench-postgres",
            dependencies: [
                .product(name: "QuarryPostgres", package: "Quarry"),
                .product(name: "QuarryTestSupport", package: "Quarry"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/quarry-bench-postgres"),
    ]
)
