import Foundation
import Quarry
import QuarryCLI
import Testing

/// The diagnostic catalogues are complete, every throw site uses them, and docs/DIAGNOSTICS.md is
/// what they generate.
@Suite struct DiagnosticsDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let docPath = root.appendingPathComponent("docs/DIAGNOSTICS.md").path
    static let codes = DiagnosticsDoc.catalogues.flatMap(\.codes)

    /// Every Swift file under Sources, with its path relative to the package.
    static func sources() throws -> [(path: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { url in
            (String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8))
        }.sorted { $0.path < $1.path }
    }

    @Test func theDocumentIsWhatTheCataloguesGenerate() throws {
        let generated = DiagnosticsDoc.markdown()
        if ProcessInfo.processInfo.environment["QUARRY_WRITE_DOCS"] != nil {
            try generated.write(toFile: Self.docPath, atomically: true, encoding: .utf8)
        }
        let current = (try? String(contentsOfFile: Self.docPath, encoding: .utf8)) ?? ""
        guard current != generated else { return }
        let old = current.split(separator: "\n", omittingEmptySubsequences: false)
        let new = generated.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        Issue.record(
            Comment(
                rawValue: "docs/DIAGNOSTICS.md is stale from line \(line + 1) on: regenerate it "
                    + "from the catalogues with `make docs`"))
    }

    @Test func everyDeclaredCodeIsInACatalogueOnce() throws {
        var declared: [String] = []
        let declaration = try Regex(#"DiagnosticCode\(\s*"([^"]+)""#)
        for file in try Self.sources() {
            for match in file.text.matches(of: declaration) {
                declared.append(String(match.output[1].substring ?? ""))
            }
        }
        let catalogued = Self.codes.map(\.rawValue)
        #expect(Set(catalogued).count == catalogued.count, "a code is listed twice")
        #expect(Set(declared).count == declared.count, "a code is declared twice")
        #expect(declared.sorted() == catalogued.sorted())
    }

    @Test func noSourceSpellsACodeAsAString() throws {
        let codes = Set(Self.codes.map(\.rawValue))
        let literal = try Regex(#""([a-z0-9]+\.[a-z0-9-]+)""#)
        for file in try Self.sources() where !file.path.hasSuffix("DiagnosticCodes.swift") {
            for (n, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
                for match in line.matches(of: literal) where codes.contains(String(match.output[1].substring ?? "")) {
                    Issue.record("\(file.path):\(n + 1) spells \(match.output[0]); use the catalogue's member")
                }
                if line.contains("DiagnosticCode(rawValue:") {
                    Issue.record("\(file.path):\(n + 1) makes a code outside the catalogue")
                }
            }
        }
    }

    @Test func everyCodeIsDocumentedInAListedDomain() {
        let domains = DiagnosticCode.domains.map(\.name)
        #expect(Set(domains).count == domains.count)
        for code in Self.codes {
            #expect(domains.contains(String(code.domain)), "\(code): unknown domain")
            #expect(code.meaning.hasSuffix("."), "\(code): the meaning is a sentence")
            #expect(code.example != nil, "\(code): no example")
        }
        for domain in domains {
            #expect(Self.codes.contains { $0.domain == domain }, "the domain \(domain) has no code")
        }
    }

    /// The examples written as queries give their code when compiled, or else when run.
    @Test func queryExamplesGetTheirCode() {
        let database = Database([
            ClassData(
                name: "T",
                records: [
                    Record(objectId: "t1", fields: [("name", "aaa"), ("age", 3)])
                ])
        ])
        for code in Self.codes {
            let dialect: Dialect, text: String
            switch code.example {
            case .sql(let t)?: (dialect, text) = (.sql, t)
            case .predicate(let t)?: (dialect, text) = (.predicate, t)
            case .parseREST(let t)?: (dialect, text) = (.json, t)
            case .situation?, nil: continue
            }
            var reported: [String] = []
            do throws(Diagnostic) {
                let query = try dialect.compile(text, className: "T")
                _ = try database.run(query)
            } catch {
                reported = error.all.map(\.code)
            }
            #expect(reported.contains(code.rawValue), "\(dialect) \(text) gave \(reported)")
        }
    }
}
