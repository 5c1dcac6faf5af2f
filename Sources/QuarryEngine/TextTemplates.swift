import QuarryCore
import Synchronization

/// A template the front door made of a query text (docs/ARCHITECTURE.md#text-templates); the
/// dialect's own type, opaque here.
package protocol TextTemplate: AnyObject, Sendable {}

/// The templates of the query texts an engine's front door compiled, by dialect, class,
/// profile and skeleton (the text with its literals cut out). A skeleton gets a template the
/// second time it is compiled, so that a text compiled once costs no more than before; each
/// skeleton keeps a few (they differ in the literals that are not parameters). Templates are
/// kept for one schema generation: a field an insert adds can change what a name resolves to.
package final class TextTemplates: Sendable {
    package struct Key: Hashable, Sendable {
        let dialect: String
        let className: String
        let profile: Profile
        let skeleton: [UInt8]
        /// The skeleton's bytes hashed once, as the string columns hash theirs (`Hasher` over
        /// them was a tenth of a cached shape's compile); `Hasher` mixes it in with its
        /// per-process seed. Not collision resistant: a crafted collision costs no more than a
        /// byte comparison with each of at most `capacity` keys.
        private let skeletonDigest: UInt64

        package init(dialect: String, className: String, profile: Profile, skeleton: [UInt8]) {
            self.dialect = dialect
            self.className = className
            self.profile = profile
            self.skeleton = skeleton
            skeletonDigest = skeleton.withUnsafeBufferPointer { SpanTable.hash($0) }
        }

        /// `==` of two skeletons through `memcmp` (the array's own compares byte by byte).
        private static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in Bytes.equal(x, y) } }
        }

        /// The skeleton's digest and the class name hashed as runs of bytes (a string hashes
        /// through its Unicode normalization check: three quarters of the hash of a short
        /// query's key); the dialect is left to `==`.
        package func hash(into h: inout Hasher) {
            h.combine(profile)
            h.combine(skeletonDigest)
            if className.utf8.withContiguousStorageIfAvailable({ h.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil
            {
                Array(className.utf8).withUnsafeBytes { h.combine(bytes: $0) }
            }
        }

        /// Class names compared by their bytes, as they are hashed (`String ==` also equates
        /// other spellings of the same characters, which hash apart).
        package static func == (a: Key, b: Key) -> Bool {
            a.profile == b.profile && a.skeletonDigest == b.skeletonDigest && sameBytes(a.skeleton, b.skeleton)
                && String.sameUTF8(a.className, b.className)
                && a.dialect == b.dialect
        }
    }

    private struct Entry {
        var generation: Int
        var compiled = 1
        var templates: [any TextTemplate] = []
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
    }

    private let state = Mutex(State())
    private let hits = Atomic<Int>(0)
    private let shapedHits = Atomic<Int>(0)

    private static let capacity = 512
    private static let byteCapacity = 4 << 20
    private static let perSkeleton = 4
    /// Tries at making a template of one skeleton before giving up on it.
    private static let attempts = 3

    package init() {}

    /// The templates made for `key` at this schema generation, and whether a full compile of
    /// a text with this key should be noted (`compiled`): not once the key has had its tries.
    package func templates(_ key: Key, generation: Int) -> (templates: [any TextTemplate], note: Bool) {
        state.withLock { s in
            guard let e = s.entries[key], e.generation == generation else { return ([], true) }
            return (e.templates, e.templates.count < Self.perSkeleton && e.compiled <= Self.attempts)
        }
    }

    /// Notes a full compile of a text with this key; whether a template should be made of it now.
    package func compiled(_ key: Key, generation: Int) -> Bool {
        state.withLock { s in
            guard var e = s.entries[key], e.generation == generation else {
                if s.entries[key] == nil {
                    if s.entries.count >= Self.capacity || s.bytes + key.skeleton.count > Self.byteCapacity {
                        s = State()
                    }
                    s.bytes += key.skeleton.count
                }
                // New, or made for an earlier schema: starts again.
                s.entries[key] = Entry(generation: generation)
                return false
            }
            e.compiled += 1
            s.entries[key] = e
            return e.templates.count < Self.perSkeleton && e.compiled <= Self.attempts + 1
        }
    }

    package func add(_ template: any TextTemplate, for key: Key, generation: Int) {
        state.withLock { s in
            guard var e = s.entries[key], e.generation == generation, e.templates.count < Self.perSkeleton else {
                return
            }
            e.templates.append(template)
            s.entries[key] = e
        }
    }

    package func removeAll() { state.withLock { $0 = State() } }

    /// Counts a text compiled from a template, and whether the template gave its plan shape.
    package func hit(shaped: Bool) {
        hits.wrappingAdd(1, ordering: .relaxed)
        if shaped { shapedHits.wrappingAdd(1, ordering: .relaxed) }
    }

    /// Texts compiled from a template so far (tests check that templates are used).
    package var hitCount: Int { hits.load(ordering: .relaxed) }

    /// Texts whose plan shape came from their template so far.
    package var shapedHitCount: Int { shapedHits.load(ordering: .relaxed) }

    /// The skeletons' bytes held, which `byteCapacity` bounds.
    package var skeletonBytes: Int { state.withLock { $0.bytes } }
}
