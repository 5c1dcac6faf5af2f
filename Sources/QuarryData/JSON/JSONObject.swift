import QuarryCore

/// The members of a JSON object, in the order they were written, with lookup by key.
///
/// Keys are unique and compared exactly (by Unicode scalars, no normalization). A repeated key
/// keeps the position of its first occurrence and the value of its last, as JavaScript's
/// `JSON.parse` does ("last wins").
public struct JSONObject: Sendable, RandomAccessCollection {
    public struct Member: Sendable {
        public var key: String
        public var value: JSON
        public init(key: String, value: JSON) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]
    /// Built only for large objects: small ones are faster to scan.
    private var index: [ExactKey: Int]?

    private static let indexThreshold = 16

    public init() {
        members = []
    }

    /// Members in order; a repeated key keeps its first position and last value.
    public init(_ pairs: some Sequence<(String, JSON)>) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    /// Builds from parallel key and value lists (the parser's path: no intermediate tuples).
    init(keys: some Collection<String>, values: some Collection<JSON>) {
        members = []
        members.reserveCapacity(keys.count)
        for (k, v) in zip(keys, values) { self[k] = v }
    }

    /// The parser's path. Keys come with fingerprints, so that finding repeated keys costs
    /// integer comparisons; strings are compared only when fingerprints match.
    init(parsedKeys keys: ArraySlice<ParsedKey>, values: ArraySlice<JSON>) {
        self.init()
        var mayRepeat = false
        if keys.count <= 32 {
            search: for i in keys.indices {
                for j in keys.startIndex..<i where keys[j].fingerprint == keys[i].fingerprint {
                    mayRepeat = true
                    break search
                }
            }
        } else {
            var seen = Set<UInt64>(minimumCapacity: keys.count)
            for k in keys where !seen.insert(k.fingerprint).inserted {
                mayRepeat = true
                break
            }
        }
        if mayRepeat {
            for (k, v) in zip(keys, values) { self[k.name] = v }
            return
        }
        members.reserveCapacity(keys.count)
        for (k, v) in zip(keys, values) { members.append(Member(key: k.name, value: v)) }
        if members.count > Self.indexThreshold { rebuildIndex() }
    }

    public var keys: [String] { members.map(\.key) }
    public var values: [JSON] { members.map(\.value) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }
    public subscript(position: Int) -> Member { members[position] }

    /// The value of `key`; setting nil removes the member, setting a new key appends it.
    public subscript(key: String) -> JSON? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let at = position(of: key) {
                if let newValue {
                    members[at].value = newValue
                } else {
                    members.remove(at: at)
                    rebuildIndex()
                }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
                if index != nil {
                    index![ExactKey(key)] = members.count - 1
                } else if members.count > Self.indexThreshold {
                    rebuildIndex()
                }
            }
        }
    }

    public func contains(key: String) -> Bool { position(of: key) != nil }

    /// The position of the member with `key`.
    public func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        for i in members.indices where String.sameUTF8(members[i].key, key) { return i }
        return nil
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built: [ExactKey: Int] = [:]
        built.reserveCapacity(members.count)
        for (i, m) in members.enumerated() { built[ExactKey(m.key)] = i }
        index = built
    }

    /// FNV-1a over the UTF-8 bytes: equal keys have equal fingerprints.
    @inline(__always) static func fingerprint(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return h
    }

    static func hashExactly(_ s: String, into h: inout Hasher) {
        for b in s.utf8 { h.combine(b) }
        h.combine(0xFF as UInt8)
    }
}

/// A dictionary key compared by bytes rather than by canonical equivalence.
private struct ExactKey: Hashable {
    let string: String
    init(_ s: String) { string = s }
    static func == (a: ExactKey, b: ExactKey) -> Bool { String.sameUTF8(a.string, b.string) }
    func hash(into h: inout Hasher) { JSONObject.hashExactly(string, into: &h) }
}

extension JSONObject: Hashable {
    /// Same keys with equal values, in any order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        guard a.count == b.count else { return false }
        for m in a.members {
            guard let other = b[m.key], other == m.value else { return false }
        }
        return true
    }

    /// Order-independent, to agree with `==`.
    public func hash(into h: inout Hasher) {
        var sum = 0
        for m in members {
            var mh = Hasher()
            Self.hashExactly(m.key, into: &mh)
            mh.combine(m.value)
            sum = sum &+ mh.finalize()
        }
        h.combine(members.count)
        h.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSON)...) { self.init(elements) }
}
