/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny, fast, seedable generator. Not for secrets:
/// for ids that only need to differ (the emulator's answers), fractions of injected faults that
/// reproduce from run to run, and seeded tests.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The step between states (the golden ratio in 64 bits).
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// Uniform in [0, 1).
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// The output function: a bijection on 64-bit values that spreads every input bit over the output.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
