// How the SQLite store keeps delivery log records: a batch of records is one blob, the records back
// to back, each as it sits in memory (no per-field work to write it, one copy of its bytes).
// Integers are little-endian:
//
//   offset  size  field
//        0     8  receivedAt (Int64, milliseconds since 1970)
//        8     8  status (Int64)
//       16     8  priority (Int64; 0 when absent)
//       24     1  present: bit i set when string field i is present (DeliveryRecord.Field order:
//                 token, topic, pushType, apnsID, uniqueID, reason, channel, fault)
//       25     1  flags: bit 0 set when priority is present; bit 1 set when the payload is the
//                 previous record's (same bytes: a notification fanned out to many tokens), which
//                 is then not repeated (its length still is); other bits 0
//       26    32  ends: 8 x UInt32, where each string field ends in the text (it starts where the
//                 previous one ends; the first at 0); never decreasing
//       58     4  payload length (UInt32)
//       62     -  text (ends[7] bytes, UTF-8), then the payload (none with flags bit 1)
//
// Reading checks every length against the bytes that are there: a blob changed outside Herald is
// an error naming the record and byte offset, never a crash.

#if canImport(Glibc)
    import Glibc
#endif

extension DeliveryRecord {
    /// Bytes before the text of an encoded record.
    static let encodedHeaderSize = 62

    /// How many bytes `encode(_:)` takes for the record at most (less when it repeats a payload).
    var encodedSize: Int { Self.encodedHeaderSize + textCount + payload.count }

    /// The text's length: where its last field ends. (Not `text.count`: reading a `ManagedBuffer`'s
    /// header is a dynamic exclusivity check, a runtime call on the loops' hot path.)
    var textCount: Int { Int(ends.7) }

    /// `records` in the format of the file comment, back to back: one allocation, each record's
    /// parts copied in with `memcpy`, a payload equal to the previous record's given by reference.
    static func encode(_ records: some Collection<DeliveryRecord>) -> [UInt8] {
        let size = records.reduce(0) { $0 + $1.encodedSize }  // at most
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var offset = 0
            var previous: [UInt8]?
            if let base = buffer.baseAddress {
                for record in records {
                    let repeats = previous.map { samePayload($0, record.payload) } ?? false
                    offset += record.encode(to: UnsafeMutableRawPointer(base + offset), omittingPayload: repeats)
                    previous = record.payload
                }
            }
            initialized = offset
        }
    }

    /// Whether two payloads hold the same bytes (the same storage, or equal bytes).
    static func samePayload(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        return left.withUnsafeBytes { left in
            right.withUnsafeBytes { right in
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
                return leftBase == rightBase || memcmp(leftBase, rightBase, left.count) == 0
            }
        }
    }

    /// Writes the record at `destination` (which has room for `encodedSize` bytes); returns the
    /// bytes written: without the payload when `omittingPayload` (the previous record's).
    func encode(to destination: UnsafeMutableRawPointer, omittingPayload: Bool) -> Int {
        destination.storeBytes(of: Int64(receivedAt).littleEndian, toByteOffset: 0, as: Int64.self)
        destination.storeBytes(of: Int64(status).littleEndian, toByteOffset: 8, as: Int64.self)
        destination.storeBytes(of: Int64(priority ?? 0).littleEndian, toByteOffset: 16, as: Int64.self)
        destination.storeBytes(of: present, toByteOffset: 24, as: UInt8.self)
        destination.storeBytes(
            of: UInt8(priority == nil ? 0 : 1) | (omittingPayload ? 2 : 0), toByteOffset: 25, as: UInt8.self)
        #if _endian(little)
            destination.storeBytes(of: ends, toByteOffset: 26, as: type(of: ends))  // one 32-byte store
        #else
            withUnsafeBytes(of: ends) { raw in
                for index in 0..<8 {
                    let end = raw.load(fromByteOffset: 4 * index, as: UInt32.self)
                    destination.storeBytes(of: end.littleEndian, toByteOffset: 26 + 4 * index, as: UInt32.self)
                }
            }
        #endif
        destination.storeBytes(
            of: UInt32(truncatingIfNeeded: payload.count).littleEndian, toByteOffset: 58, as: UInt32.self)
        var offset = Self.encodedHeaderSize
        func copy(_ part: [UInt8]) {
            part.withUnsafeBytes { bytes in
                if let source = bytes.baseAddress {
                    (destination + offset).copyMemory(from: source, byteCount: bytes.count)
                }
            }
            offset += part.count
        }
        let textCount = textCount
        text.withUnsafeMutablePointerToElements { source in
            (destination + offset).copyMemory(from: source, byteCount: textCount)
        }
        offset += textCount
        if !omittingPayload { copy(payload) }
        return offset
    }

    /// The records `encode(_:)` wrote back to back, in order.
    static func decodeAll(_ bytes: [UInt8]) throws(DeliveryRecordDecodingError) -> [DeliveryRecord] {
        try bytes.withUnsafeBytes { raw in Result { () throws(DeliveryRecordDecodingError) in try decodeAll(raw) } }
            .get()
    }

    /// The records `encode(_:)` wrote back to back in `bytes`, in order.
    static func decodeAll(_ bytes: UnsafeRawBufferPointer) throws(DeliveryRecordDecodingError) -> [DeliveryRecord] {
        var records: [DeliveryRecord] = []
        var offset = 0
        while offset < bytes.count {
            records.append(try decode(bytes, at: &offset, index: records.count, previousPayload: records.last?.payload))
        }
        return records
    }

    /// The record at `offset`, which moves past it.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, at offset: inout Int, index: Int, previousPayload: [UInt8]?
    ) throws(DeliveryRecordDecodingError) -> DeliveryRecord {
        let start = offset
        func fail(_ rule: String) -> DeliveryRecordDecodingError {
            DeliveryRecordDecodingError(record: index, offset: start, rule: rule)
        }
        guard bytes.count - start >= encodedHeaderSize else {
            throw fail("needs \(encodedHeaderSize) header bytes, \(bytes.count - start) are left")
        }
        func load<T: FixedWidthInteger>(_ at: Int, as type: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: start + at, as: T.self))
        }
        let flags = load(25, as: UInt8.self)
        guard flags <= 3 else { throw fail("flags is \(flags), only bits 0 and 1 are defined") }
        let repeatsPayload = flags & 2 != 0
        var endList: [UInt32] = []
        var previous: UInt32 = 0
        for field in 0..<8 {
            let end = load(26 + 4 * field, as: UInt32.self)
            guard end >= previous else { throw fail("field \(field) ends at \(end), before \(previous)") }
            endList.append(end)
            previous = end
        }
        let textCount = Int(previous)
        let payloadCount = Int(load(58, as: UInt32.self))
        let left = bytes.count - start - encodedHeaderSize
        let storedPayload = repeatsPayload ? 0 : payloadCount
        guard textCount <= left, storedPayload <= left - textCount else {
            throw fail("text (\(textCount)) and payload (\(storedPayload)) need more than the \(left) bytes left")
        }
        var payload: [UInt8] = []
        if repeatsPayload {
            guard let previousPayload else { throw fail("repeats the previous record's payload, but is the first") }
            guard previousPayload.count == payloadCount else {
                throw fail("repeats the previous payload (\(previousPayload.count) bytes) as \(payloadCount) bytes")
            }
            payload = previousPayload
        }
        let textStart = start + encodedHeaderSize
        let payloadStart = textStart + textCount
        offset = payloadStart + storedPayload
        if !repeatsPayload { payload = Array(bytes[payloadStart..<offset]) }
        return DeliveryRecord(
            receivedAt: Int(load(0, as: Int64.self)), status: Int(load(8, as: Int64.self)),
            priority: flags & 1 == 0 ? nil : Int(load(16, as: Int64.self)),
            payload: payload,
            text: RecordText.copy(
                of: UnsafeRawBufferPointer(rebasing: bytes[textStart..<payloadStart]).assumingMemoryBound(
                    to: UInt8.self)),
            ends: (endList[0], endList[1], endList[2], endList[3], endList[4], endList[5], endList[6], endList[7]),
            present: load(24, as: UInt8.self))
    }
}

/// Why stored delivery records cannot be read: the record (0-based in its batch), its byte offset
/// and the rule its bytes break.
struct DeliveryRecordDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    let record: Int
    let offset: Int
    let rule: String

    var description: String { "record \(record) at byte \(offset): \(rule)" }
}
