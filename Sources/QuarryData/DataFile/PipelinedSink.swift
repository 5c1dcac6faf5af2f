import Foundation
import QuarryCore

/// A sink that works behind the reader on a thread of its own (docs/STORAGE.md#direct-loading):
/// the reading thread decodes the bytes and hands the calls over in batches; a second thread
/// makes the same calls, in the same order, on the target. Reading and building columns then
/// take about as long as the slower of the two rather than their sum.
///
/// The target's answers come late: an object it refuses (`endObject` false) is seen by the
/// reader a batch or so later, and `drain` reports it, so the caller reads the file again
/// with the record loader exactly as if the reader had stopped there. At most `depth` batches
/// wait between the threads, which bounds the memory the hand-over holds.
///
/// Not generic over its target, so that `DataFile.read` runs a reader specialized for it.
public struct PipelinedSink: DataFileSink {
    private let handoff: Handoff
    private var batch: [Call] = []
    /// The current class's field numbers as the reader knows them; the builder maps each to
    /// the number the target gives the same name.
    private var numbers: [String: Int] = [:]
    private var refused = false
    private static var batchCalls: Int { 8_192 }

    fileprivate enum Call {
        case beginClass(String)
        case expect(Int)
        case field(String)
        case value(Value, field: Int)
        case endObject(String)
    }

    public init<Target: DataFileSink & SendableMetatype>(_ target: Target, depth: Int = 4) {
        handoff = TargetHandoff(target: target, depth: max(1, depth))
        batch.reserveCapacity(Self.batchCalls)
    }

    public mutating func beginClass(_ name: String) {
        numbers = [:]
        add(.beginClass(name))
    }

    public mutating func expect(_ objects: Int) { add(.expect(objects)) }

    public mutating func field(named name: String) -> Int {
        if let n = numbers[name] { return n }
        let n = numbers.count
        numbers[name] = n
        add(.field(name))
        return n
    }

    public mutating func value(_ value: Value, field: Int) { add(.value(value, field: field)) }

    public mutating func endObject(objectId: String) -> Bool {
        add(.endObject(objectId))
        return !refused
    }

    /// Waits until the builder has made every call handed over, and stops its thread. False
    /// when the target refused an object (its contents are then incomplete). Call it once, when
    /// reading is over, whether or not the reader finished.
    public mutating func drain() -> Bool {
        _ = handoff.send(batch, last: true)
        batch = []
        return handoff.finish()
    }

    /// The target given to `init`, once `drain` has returned.
    public func target<Target: DataFileSink & SendableMetatype>(as type: Target.Type) -> Target {
        (handoff as! TargetHandoff<Target>).target
    }

    private mutating func add(_ call: Call) {
        batch.append(call)
        guard batch.count >= Self.batchCalls else { return }
        refused = !handoff.send(batch, last: false)
        // A batch the builder is done with comes back to be emptied here, so that freeing
        // its calls' values costs the reader, not the builder (the load's slower thread).
        batch = handoff.spentBatch() ?? []
        batch.removeAll(keepingCapacity: true)
        batch.reserveCapacity(Self.batchCalls)
    }
}

/// The batches between the two threads, and the builder's loop.
private class Handoff: @unchecked Sendable {
    private let depth: Int
    private let condition = NSCondition()
    private var queue: [[PipelinedSink.Call]] = []
    /// Batches the builder has made, still holding their calls.
    private var spent: [[PipelinedSink.Call]] = []
    private var closed = false
    private var ended = false
    private var refused = false

    init(depth: Int) { self.depth = depth }

    /// Queues a batch, waiting while `depth` are queued; false once the target has refused an
    /// object (the rest is not built).
    final func send(_ calls: [PipelinedSink.Call], last: Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !refused { condition.wait() }
        if !refused && !calls.isEmpty { queue.append(calls) }
        if last { closed = true }
        condition.broadcast()
        return !refused
    }

    /// A batch the builder has made, if any: emptied by the caller, it is the next batch.
    final func spentBatch() -> [PipelinedSink.Call]? {
        condition.lock()
        defer { condition.unlock() }
        return spent.popLast()
    }

    /// Waits for the builder to end; false when the target refused an object.
    final func finish() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !ended { condition.wait() }
        return !refused
    }

    /// The builder's loop: `make` takes each batch in order until the reader closes the queue
    /// or a batch is refused; then `end` runs, under the lock, before `finish` returns.
    final func serve(_ make: ([PipelinedSink.Call]) -> Bool, end: () -> Void) {
        while true {
            condition.lock()
            while queue.isEmpty && !closed && !refused { condition.wait() }
            guard !queue.isEmpty, !refused else {
                end()
                ended = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let calls = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            let made = make(calls)
            condition.lock()
            if !made {
                refused = true
                queue.removeAll()
                condition.broadcast()
            } else if spent.isEmpty, !closed {
                // At most one batch waits to be reused: the reader takes it as it sends the next.
                spent.append(calls)
            }
            condition.unlock()
        }
    }
}

private final class TargetHandoff<Target: DataFileSink & SendableMetatype>: Handoff, @unchecked Sendable {
    /// Nil while the builder works on it (so that its calls mutate a value one thread alone
    /// holds); back once `finish` has seen the builder end.
    private var held: Target?
    var target: Target { held! }

    init(target: Target, depth: Int) {
        held = target
        super.init(depth: depth)
        let thread = Thread { [self] in build() }
        thread.name = "quarry-load"
        thread.start()
    }

    private func build() {
        var target = held.take()!
        var fields: [Int] = []
        serve({ Self.make($0, on: &target, &fields) }, end: { held = target })
    }

    /// The calls on the target; false at the first object it refuses.
    private static func make(_ calls: [PipelinedSink.Call], on target: inout Target, _ fields: inout [Int]) -> Bool {
        for call in calls {
            switch call {
            case .beginClass(let name):
                fields.removeAll()
                target.beginClass(name)
            case .expect(let n): target.expect(n)
            case .field(let name): fields.append(target.field(named: name))
            case .value(let v, let field): target.value(v, field: fields[field])
            case .endObject(let id): if !target.endObject(objectId: id) { return false }
            }
        }
        return true
    }
}
