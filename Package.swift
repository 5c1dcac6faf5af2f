// swift-tools-version:6.1
import PackageDescription

// Dependency direction (docs/ARCHITECTURE.md): front-ends depend only on QuarryCore (and the
// Parse REST one on QuarryData for its JSON); the engine never sees source text; only the CLI
// and the benchmarks take package dependencies. The two stores (QuarrySQLite, QuarryPostgres)
// share QuarryStoreSupport, which depends on the engine and on no package.
let package = Package(
    name: "Quarry",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Quarry", targets: ["Quarry"]),
        .executable(name: "quarry", targets: ["quarry"]),
        // Quarry's IR translated into SQLite SQL with Quarry's semantics: the persistent SQLite
        // store (docs/STORAGE.md) and the benchmark peer.
        .library(name: "QuarrySQLite", targets: ["QuarrySQLite"]),
        // Quarry's IR pushed down into PostgreSQL over jsonb documents (docs/STORAGE.md).
        .library(name: "QuarryPostgres", targets: ["QuarryPostgres"]),
        // The synthetic data set and the helpers the tests and the Benchmarks package share.
        .library(name: "QuarryTestSupport", targets: ["QuarryTestSupport"]),
        // The engine's observer hooks adapted to swift-log and swift-metrics (off unless attached).
        .library(name: "QuarryObservability", targets: ["QuarryObservability"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        // `swift package generate-documentation --target Quarry` (make docs-html).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2", pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // The C library's malloc.h (heap statistics for `quarry bench`); nothing to link.
        .systemLibrary(name: "CMalloc"),
        .target(name: "QuarryCore"),
        .target(name: "QuarryData", dependencies: ["QuarryCore"]),
        .target(name: "QuarryTranslation", dependencies: ["QuarryCore"]),
        .target(name: "QuarrySQL", dependencies: ["QuarryCore"]),
        .target(name: "QuarryPredicate", dependencies: ["QuarryCore"]),
        .target(name: "QuarryParseREST", dependencies: ["QuarryCore", "QuarryData"]),
        .target(name: "QuarryEngine", dependencies: ["QuarryCore", "QuarryData", "CPCRE2"]),
        .target(
            name: "Quarry",
            dependencies: [
                "QuarryCore", "QuarryData", "QuarryTranslation", "QuarrySQL", "QuarryPredicate",
                "QuarryParseREST", "QuarryEngine",
            ]),
        // What the SQLite and PostgreSQL stores share (field kinds, schema, the split of a query
        // into pushed-down and residual conjuncts); no package dependency (docs/STORAGE.md).
        .target(name: "QuarryStoreSupport", dependencies: ["QuarryCore", "QuarryEngine"]),
        .target(
            name: "QuarrySQLite",
            dependencies: [
                "Quarry", "QuarryStoreSupport", "CSQLite", .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .target(
            name: "QuarryPostgres",
            dependencies: [
                "Quarry", "QuarryStoreSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(name: "QuarryTestSupport", dependencies: ["Quarry"]),
        .target(
            name: "QuarryObservability",
            dependencies: [
                "Quarry", .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),
        // `quarry serve`: Parse, LeanCloud and Backendless REST data APIs over any QueryBackend.
        .target(
            name: "QuarryServer",
            dependencies: [
                "Quarry",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),
        .target(
            name: "QuarryCLI",
            dependencies: [
                "Quarry", "QuarrySQLite", "QuarryPostgres", "QuarryServer", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "quarry", dependencies: ["QuarryCLI"]),

        .testTarget(name: "QuarryCoreTests", dependencies: ["QuarryCore", "QuarryTestSupport"]),
        .testTarget(name: "QuarryDataTests", dependencies: ["QuarryData", "QuarryTestSupport"]),
        .testTarget(name: "QuarryTranslationTests", dependencies: ["QuarryTranslation"]),
        .testTarget(
            name: "QuarrySQLTests", dependencies: ["Quarry", "QuarrySQLite", "QuarryTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "QuarryPredicateTests", dependencies: ["Quarry", "QuarryTestSupport"]),
        .testTarget(name: "QuarryParseRESTTests", dependencies: ["Quarry", "QuarryTestSupport"]),
        .testTarget(name: "QuarryEngineTests", dependencies: ["QuarryEngine", "Quarry", "QuarryTestSupport"]),
        // The SQLite store against the reference evaluator on real files (needs GRDB); the
        // durability test kills StoreWriteBurst and `quarry import` mid-write.
        .testTarget(name: "QuarrySQLiteStoreTests", dependencies: ["QuarrySQLite", "QuarryTestSupport"]),
        .executableTarget(
            name: "StoreWriteBurst", dependencies: ["QuarrySQLite", "QuarryTestSupport"],
            path: "Tests/StoreWriteBurst"),
        .testTarget(
            name: "QuarryServerTests",
            dependencies: [
                "QuarryServer", "QuarrySQLite",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        // The PostgreSQL store against the reference evaluator on a real server the tests start
        // themselves (initdb + pg_ctl in a temporary folder).
        .testTarget(name: "QuarryPostgresTests", dependencies: ["QuarryPostgres", "QuarryTestSupport"]),
        .testTarget(name: "QuarryCLITests", dependencies: ["QuarryCLI", "QuarrySQLite", "QuarryTestSupport"]),
        .testTarget(
            name: "QuarryObservabilityTests",
            dependencies: [
                "QuarryObservability", "QuarryTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]),
        .testTarget(name: "DocsTests"),
    ]
)
