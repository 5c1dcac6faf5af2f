import Foundation
import Testing

/// `quarry import` and `--store` on run and explain: the same answers as `--data`, an atomic
/// import, and usage errors for what a store cannot be.
@Suite struct ImportCommandTests {
    @Test func importThenQueryTheStore() throws {
        let data = try DataFixture(DataFixture.contacts)
        let store = "sqlite:" + data.directory + "/store.sqlite"
        let imported = quarry(["import", "--data", data.path, "--store", store, "--index", "Contact.age"])
        #expect(imported.status == 0)
        #expect(imported.out.hasPrefix("imported "))
        for query in ["age > 26", "address.city = 'Dallas'", "score = 7 AND name LIKE '%i%'", "age IS NULL"] {
            let fromStore = quarry(["run", "--store", store, "--class", "Contact", "--ids", query])
            let fromFile = quarry(["run", "--data", data.path, "--class", "Contact", "--ids", query])
            #expect(fromStore.status == 0 && fromStore.out == fromFile.out, "\(query)")
        }
        let explained = quarry(["explain", "--store", store, "--class", "Contact", "--json", "age > 26"])
        #expect(explained.status == 0)
        #expect(
            explained.out.contains("\"sql\":\"SELECT") && explained.out.contains("?1") && !explained.out.contains("26"))
    }

    @Test func benchOnTheStore() throws {
        let data = try DataFixture(DataFixture.contacts)
        let store = "sqlite:" + data.directory + "/store.sqlite"
        #expect(quarry(["import", "--data", data.path, "--store", store]).status == 0)
        let r = quarry([
            "bench", "--store", store, "--class", "Contact", "--index", "age", "--repeat", "1", "--json",
            "age > 26", "score = 7",
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("\"query\":\"age > 26\"") && r.out.contains("\"matches\":2"))
        let withPeer = quarry(["bench", "--store", store, "--class", "Contact", "--sqlite", "age > 26"])
        #expect(withPeer.status == 2)
    }

    @Test func aFailedImportLeavesTheStoreAsItWas() throws {
        let data = try DataFixture(DataFixture.contacts)
        let store = "sqlite:" + data.directory + "/store.sqlite"
        #expect(quarry(["import", "--data", data.path, "--store", store]).status == 0)
        let broken = try DataFixture(#"{"Contact": [{"objectId": "c9", "age": 1}, {"objectId": "c1", "age": "#)
        let failed = quarry(["import", "--data", broken.path, "--store", store])
        #expect(failed.status == 3)
        #expect(quarry(["run", "--store", store, "--class", "Contact", "--count", "objectId != ''"]).out == "4\n")
        let duplicate = try DataFixture(#"[{"objectId": "c9"}, {"objectId": "c9"}]"#, name: "Contact.json")
        #expect(quarry(["import", "--data", duplicate.path, "--store", store]).status == 3)
        #expect(quarry(["run", "--store", store, "--class", "Contact", "--count", "objectId != ''"]).out == "4\n")
    }

    @Test(arguments: [
        (["run", "--store", "mysql://x", "--class", "A", "x = 1"], "--store mysql://x: expected sqlite:PATH"),
        (["run", "--data", "d.json", "--store", "sqlite:x", "x = 1"], "--data and --store cannot be used together"),
        (["run", "--store", "sqlite:/nonexistent/q.sqlite", "x = 1"], "there is no store at /nonexistent/q.sqlite"),
        (["import", "--data", "d.json", "--store", "sqlite:x", "--index", "age"], "--index 'age' is not Class.key"),
    ])
    func storeUsageErrors(_ args: [String], _ message: String) {
        let r = quarry(args)
        #expect(r.status == 2)
        #expect(r.err.contains(message), "\(r.err)")
    }
}
