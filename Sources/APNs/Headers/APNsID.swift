import Synchronization

/// The `apns-id` header: a canonical UUID (8-4-4-4-12 hex digits), lowercase on the wire.
public struct APNsID: Sendable, Hashable, CustomStringConvertible {
    /// The canonical lowercase form.
    public let value: String

    /// Parses a UUID in either case and keeps it lowercase.
    public init(_ text: String) throws(FieldError) {
        let bytes = Array(text.utf8)
        let dashes = [8, 13, 18, 23]
        let valid =
            bytes.count == 36
            && bytes.enumerated().allSatisfy { position, byte in
                dashes.contains(position) ? byte == UInt8(ascii: "-") : Hex.value(of: byte) != nil
            }
        guard valid else {
            throw FieldError(
                field: "apns-id",
                message: "\(quoted(text)) is not a UUID; use 8-4-4-4-12 hexadecimal digits, e.g. 123e4567-e89b-12d3-a456-4266554400a0")
        }
        self.value = text.lowercased()
    }

    private init(canonical: String) {
        self.value = canonical
    }

    /// A random (version 4) UUID, unique within the process.
    ///
    /// Two seeds are drawn from the system generator once per process; each id mixes them with a
    /// process-wide counter (SplitMix64's finaliser, a bijection), so ids never repeat in a process
    /// and cost no system call (the system generator makes one per draw, two per id).
    public static func random() -> APNsID {
        let count = IDStream.counter.wrappingAdd(1, ordering: .relaxed).oldValue &* SplitMix64.increment
        var draws = TwoDraws(
            first: SplitMix64.mix(IDStream.seeds.0 &+ count), second: SplitMix64.mix(IDStream.seeds.1 &+ count))
        return random(using: &draws)
    }

    public static func random(using generator: inout some RandomNumberGenerator) -> APNsID {
        // Two 64-bit draws, not sixteen byte draws: the system generator makes a system call per draw.
        let high = generator.next()
        let low = generator.next()
        let text = String(unsafeUninitializedCapacity: 36) { buffer in
            writeVersion4(high: high, low: low, into: buffer)
            return 36
        }
        return APNsID(canonical: text)
    }

    /// Writes the version 4 UUID made of these 128 random bits (the version and variant bits set)
    /// in lowercase 8-4-4-4-12 form over the first 36 bytes of `out`. For callers that keep ids
    /// in their own buffers (the emulator's answers) as well as `random`.
    package static func writeVersion4(high: UInt64, low: UInt64, into out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(out.count >= 36, "a UUID takes 36 bytes")
        let high = high & 0xFFFF_FFFF_FFFF_0FFF | 0x4000  // version 4
        let low = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 4122 variant
        // Eight digits per 32 bits at once; a dash after digits 8, 12, 16 and 20.
        let raw = UnsafeMutableRawBufferPointer(out)
        let highDigits = hexDigits(UInt32(truncatingIfNeeded: high))
        let lowDigits = hexDigits(UInt32(truncatingIfNeeded: low >> 32))
        raw.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: high >> 32)), toByteOffset: 0, as: UInt64.self)
        raw.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 8, as: UInt8.self)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: highDigits), toByteOffset: 9, as: UInt32.self)
        raw.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 13, as: UInt8.self)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: highDigits >> 32), toByteOffset: 14, as: UInt32.self)
        raw.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 18, as: UInt8.self)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: lowDigits), toByteOffset: 19, as: UInt32.self)
        raw.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 23, as: UInt8.self)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: lowDigits >> 32), toByteOffset: 24, as: UInt32.self)
        raw.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: low)), toByteOffset: 28, as: UInt64.self)
    }

    #if !_endian(little)
        #error("writeVersion4 stores digits as little-endian words")
    #endif

    /// The eight lowercase hex digits of `value`, most significant first, as the bytes of a
    /// little-endian `UInt64` (ready to store): the nibbles spread one per byte, then each turned
    /// into its digit ('0' + n, plus 39 more from 10 on, to reach 'a').
    @inline(__always)
    static func hexDigits(_ value: UInt32) -> UInt64 {
        var spread = UInt64(value)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        let letters = ((spread &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010) >> 4
        let digits = spread &+ 0x3030_3030_3030_3030 &+ letters &* 39
        return UInt64(bigEndian: digits)
    }

    public var description: String { value }
}

/// The process-wide state behind `APNsID.random()`.
private enum IDStream {
    static let seeds: (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }()
    static let counter = Atomic<UInt64>(0)
}

/// Hands out two prepared values as a generator's first two draws (then the second again).
private struct TwoDraws: RandomNumberGenerator {
    var first: UInt64?
    let second: UInt64

    init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    mutating func next() -> UInt64 {
        defer { first = nil }
        return first ?? second
    }
}
