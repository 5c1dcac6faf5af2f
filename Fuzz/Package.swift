// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for Quarry: a package of its own, so that the main build never builds
// them. Each harness is one executable handing its test to libFuzzer's driver; build and run
// them with `make fuzz` at the repository root (it passes `-sanitize=fuzzer,address`).
let harness = { (name: String) -> Target in
    .executableTarget(name: name, dependencies: ["FuzzSupport"], path: "Sources/\(name)")
}

let package = Package(
    name: "QuarryFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Quarry", path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer", .product(name: "Quarry", package: "Quarry")]),
        harness("fuzz-sql"),
        harness("fuzz-predicate"),
        harness("fuzz-json"),
        harness("fuzz-datafile"),
        harness("fuzz-run"),
    ]
)
