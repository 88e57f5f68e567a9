// The bytes of a delivery record's string fields, in one allocation. A `[UInt8]` of a known size can
// only be made through an unspecialized runtime path here (`Array(unsafeUninitializedCapacity:)` and
// `Array(repeating:count:)` both look up `_ContiguousArrayStorage<UInt8>`'s generic metadata per
// call, a sizeable share of a log record's cost); a final `ManagedBuffer` subclass is
// allocated with its own, static, metadata.

/// Immutable bytes, written once by `make`'s closure and only read after; shared across threads
/// inside `DeliveryRecord` (see its SAFETY note: `ManagedBuffer` cannot be declared Sendable).
final class RecordText: ManagedBuffer<Int, UInt8> {
    /// A buffer of `count` bytes that `fill` writes, all of them (it gets exactly `count` bytes).
    static func make(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> RecordText {
        let buffer = create(minimumCapacity: count) { _ in count }
        buffer.withUnsafeMutablePointerToElements { fill(UnsafeMutableBufferPointer(start: $0, count: count)) }
        // `create` returns the class it was called on; the cast does not fail.
        return unsafeDowncast(buffer, to: RecordText.self)
    }

    /// A copy of `bytes`.
    static func copy(of bytes: UnsafeBufferPointer<UInt8>) -> RecordText {
        make(count: bytes.count) { buffer in
            if let source = bytes.baseAddress, let target = buffer.baseAddress { target.update(from: source, count: bytes.count) }
        }
    }

    var count: Int { header }

    /// The bytes, valid during `body`.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointerToElements { try body(UnsafeBufferPointer(start: $0, count: header)) }
    }
}
