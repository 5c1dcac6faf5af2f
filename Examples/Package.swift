// swift-tools-version:6.2
import PackageDescription

// What a backend built on Quarry does, as a package that depends on this repository: Swift 6
// language mode, every warning an error. `make test` builds and runs it (docs/API.md).
let package = Package(
    name: "QuarryExamples",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Quarry", path: "..")],
    targets: [
        .executableTarget(
            name: "Backend",
            dependencies: [.product(name: "Quarry", package: "Quarry")],
            swiftSettings: [.treatAllWarnings(as: .error)])
    ],
    swiftLanguageModes: [.v6]
)
