/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and the same on every platform, which
/// `SystemRandomNumberGenerator` is not, so a failing property test replays from its seed and
/// the synthetic data set is the same on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// The plain sequence from `seed`.
    public init(seed: UInt64) { state = seed }

    /// One of many decorrelated sequences from the same seed (one per object of a data set).
    public init(seed: UInt64, stream: UInt64) {
        state = seed &+ stream &* 0x9E37_79B9_7F4A_7C15
        _ = next()  // decorrelates neighbouring streams
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<n` (n > 0); the modulo bias is below 2^-40 for the sizes used here.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    /// Uniform in `[low, high)`.
    public mutating func double(in low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) * 0x1p-53
    }
}

// Draws in the shapes property tests use.
extension SplitMix64 {
    /// Uniform in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    /// One of `items` (not empty), uniformly.
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
}
