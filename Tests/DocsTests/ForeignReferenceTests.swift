import Testing

/// The code cites only documents in the repository: not the founders' design notes
/// (`DESIGN §N`, `IR-SEMANTICS`) or anything under `../shared`, which a reader of the
/// repository does not have.
@Suite struct ForeignReferenceTests {
    static let forbidden = ["DESIGN §", "IR-SEMANTICS", "../shared"]

    @Test func noSourceCitesDocumentsOutsideTheRepository() throws {
        var found: [String] = []
        for file in Repository.citingFiles {
            for (i, line) in try Repository.text(file).split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            {
                for word in Self.forbidden where line.contains(word) {
                    found.append("\(file):\(i + 1): cites \(word): \(line.trimmingPrefix(while: { $0 == " " }))")
                }
            }
        }
        #expect(Repository.citingFiles.count > 100, "the scan found too few files")
        #expect(found.isEmpty, "\n\(found.joined(separator: "\n"))")
    }
}
