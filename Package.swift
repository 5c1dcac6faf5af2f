// swift-tools-version:6.1
import PackageDescription

// Dependency direction (DESIGN §1): front-ends depend only on QuarryCore; the engine never sees
// source text; only the CLI and the benchmarks take package dependencies.
let package = Package(
    name: "Quarry",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Quarry", targets: ["Quarry"]),
        .executable(name: "quarry", targets: ["quarry"]),
        // For the Benchmarks package (its own package, so the main build never builds it):
        // the data generator and the SQLite peer live in the CLI module.
        .library(name: "QuarryCLI", targets: ["QuarryCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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
        .target(name: "QuarrySQL", dependencies: ["QuarryCore"]),
        .target(name: "QuarryPredicate", dependencies: ["QuarryCore"]),
        .target(name: "QuarryParseREST", dependencies: ["QuarryCore"]),
        .target(name: "QuarryEngine", dependencies: ["QuarryCore", "CPCRE2"]),
        .target(
            name: "Quarry",
            dependencies: ["QuarryCore", "QuarrySQL", "QuarryPredicate", "QuarryParseREST", "QuarryEngine"]),
        .target(
            name: "QuarryCLI",
            dependencies: [
                "Quarry", "CSQLite", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "quarry", dependencies: ["QuarryCLI"]),

        .testTarget(name: "QuarryCoreTests", dependencies: ["QuarryCore"]),
        .testTarget(name: "QuarrySQLTests", dependencies: ["Quarry", "CSQLite"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "QuarryPredicateTests", dependencies: ["Quarry"]),
        .testTarget(name: "QuarryParseRESTTests", dependencies: ["Quarry"]),
        .testTarget(name: "QuarryEngineTests", dependencies: ["QuarryEngine", "Quarry"]),
        .testTarget(name: "QuarryCLITests", dependencies: ["QuarryCLI"]),
        .testTarget(name: "DocsTests"),
    ]
)
