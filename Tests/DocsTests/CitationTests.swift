import Foundation
import Testing

/// Every citation of a document section names a document that exists and a heading it has.
@Suite struct CitationTests {
    static func document(_ path: String) -> String? {
        Repository.exists(path) ? try? Repository.text(path) : nil
    }

    @Test func everyCitationInTheCodeAndTheREADMENamesAnExistingSection() throws {
        var citations: [Citation] = []
        for file in Repository.citingFiles {
            citations += Citation.inCode(try Repository.text(file), file: file)
        }
        // The sources do cite the documents; an empty list would mean the scan found nothing.
        #expect(citations.count >= 20)
        let problems = citations.compactMap { $0.problem(Self.document) }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func everyLinkBetweenTheDocumentsNamesAnExistingSection() throws {
        var citations: [Citation] = []
        for name in ["ARCHITECTURE.md", "SEMANTICS.md"] {
            citations += Citation.inDocument(try Repository.text("docs/" + name), file: "docs/" + name)
        }
        #expect(!citations.isEmpty)
        let problems = citations.compactMap { $0.problem(Self.document) }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func aCitationOfAMissingHeadingOrDocumentIsReported() {
        let docs = ["docs/A.md": "# Title\n## Null and missing\n```\n## Not a heading\n```\n## Null and missing\n"]
        let code = """
            // docs/A.md#null-and-missing and docs/A.md#null-and-missing-1 exist;
            // docs/A.md#not-a-heading is inside a code block, docs/A.md#nulls is not there,
            // and docs/B.md does not exist.
            """
        let problems = Citation.inCode(code, file: "X.swift").compactMap { $0.problem { docs[$0] } }
        #expect(
            problems == [
                "X.swift:2: docs/A.md#not-a-heading: docs/A.md has no heading with the anchor #not-a-heading",
                "X.swift:2: docs/A.md#nulls: docs/A.md has no heading with the anchor #nulls",
                "X.swift:3: docs/B.md: there is no file docs/B.md",
            ])
    }

    @Test func anchorsFollowGitHub() {
        let text =
            "# Quarry semantics\n### Example: `a != 3` in each dialect\n## Strings: LIKE, case and diacritics\n## Geo\n### geo\n"
        #expect(
            Markdown.anchors(text) == [
                "quarry-semantics", "example-a--3-in-each-dialect", "strings-like-case-and-diacritics", "geo", "geo-1",
            ])
    }
}
