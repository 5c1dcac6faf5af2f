// A child process for the durability test (Tests/QuarrySQLiteStoreTests/DurabilityTests):
// saves batches of objects into a store, one transaction a batch, and prints `ack N` after
// each commit returns, until it is killed.
//
// Usage: StoreWriteBurst PATH BATCHES
import Foundation
import Quarry
import QuarrySQLite
import QuarryTestSupport

let arguments = CommandLine.arguments
guard arguments.count == 3, let batches = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: StoreWriteBurst PATH BATCHES\n".utf8))
    exit(2)
}
do {
    let store = try SQLiteStore(path: arguments[1])
    for n in 0..<batches {
        try store.apply(BurstBatch.records(n).map { .save($0, in: "Burst") })
        FileHandle.standardOutput.write(Data("ack \(n)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
