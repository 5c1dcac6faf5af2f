import Testing

/// The module table of docs/ARCHITECTURE.md#modules states exactly the targets and
/// dependencies that Package.swift declares.
@Suite struct ModuleTableTests {
    @Test func theTableMatchesPackageSwift() throws {
        let manifest = ModuleGraph.targets(inManifest: try Repository.text("Package.swift"))
        let table = ModuleGraph.targets(inTable: try Repository.text("docs/ARCHITECTURE.md"))
        #expect(manifest.contains { $0.name == "QuarryCore" }, "no targets read from Package.swift")
        #expect(!table.isEmpty, "no module table between the module-table markers in docs/ARCHITECTURE.md")
        let differences = ModuleGraph.differences(manifest: manifest, table: table)
        #expect(differences.isEmpty, "\n\(differences.joined(separator: "\n"))")
    }

    @Test func aManifestIsReadTargetByTarget() {
        let manifest = """
            let package = Package(
                name: "P",
                dependencies: [.package(url: "https://example.com/a", from: "1.0.0")],
                targets: [
                    .systemLibrary(name: "CLib", pkgConfig: "lib", providers: [.apt(["lib-dev"])]),
                    .target(name: "Core"),
                    .target(name: "Front", dependencies: ["Core", .target(name: "CLib")]),
                    .executableTarget(name: "tool", dependencies: [
                        "Front", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                    ]),
                    .testTarget(name: "FrontTests", dependencies: ["Front"], resources: [.copy("Fixtures")]),
                ]
            )
            """
        #expect(
            ModuleGraph.targets(inManifest: manifest) == [
                TargetEntry(name: "CLib", kind: "system library", dependencies: []),
                TargetEntry(name: "Core", kind: "library", dependencies: []),
                TargetEntry(name: "Front", kind: "library", dependencies: ["Core", "CLib"]),
                TargetEntry(name: "tool", kind: "executable", dependencies: ["Front", "ArgumentParser"]),
                TargetEntry(name: "FrontTests", kind: "test", dependencies: ["Front"]),
            ])
    }

    @Test func everyDifferenceIsNamed() {
        let table = """
            <!-- module-table:begin -->
            | target | kind | depends on | holds |
            |---|---|---|---|
            | `Core` | library | — | values |
            | `Front` | library | `Core` | parsing |
            | `Old` | library | `Core` | gone |
            | `tool` | test | `Front` | the tool |
            <!-- module-table:end -->
            """
        let manifest = [
            TargetEntry(name: "Core", kind: "library", dependencies: []),
            TargetEntry(name: "Front", kind: "library", dependencies: ["Core", "CLib"]),
            TargetEntry(name: "New", kind: "library", dependencies: ["Core"]),
            TargetEntry(name: "tool", kind: "executable", dependencies: ["Front"]),
        ]
        #expect(
            ModuleGraph.differences(manifest: manifest, table: ModuleGraph.targets(inTable: table)) == [
                "Front: Package.swift depends on CLib, Core, the table on Core",
                "New: in Package.swift but not in the table",
                "tool: Package.swift declares kind executable, the table says test",
                "Old: in the table but not in Package.swift",
            ])
    }
}
