// Format 5 of a delivery record in `delivery_batches.records` (schema version 5; format 4 is
// DeliveryRecord+Encoding.swift, which rows written before keep and which still reads). Every
// entry's bytes are written to the WAL, read back and written again at the checkpoint, so the
// writer's cost follows the bytes: format 4 spends a fixed 62-byte header and repeats the token,
// topic and push type of every push; format 5 writes numbers as varints and a string field equal
// to the previous record's in the same row by reference, so a push like its predecessor costs
// little more than its payload and ids. Records back to back, each:
//
//   byte 0   flags: bit 0 priority present; bit 1 the payload is the previous record's (not
//            repeated); bit 2 expiration present; bit 3 collapse id present; other bits 0
//            (records written before bits 2 and 3 existed have neither, and read the same)
//   byte 1   present: bit i set when string field i is present (DeliveryRecord.Field order:
//            token, topic, pushType, apnsID, uniqueID, reason, channel, fault)
//   byte 2   repeats: bit i set when present field i is the previous record's value (not repeated)
//   varints  (LEB128; signed ones zigzag): receivedAt minus the previous record's (the first
//            record's from 0), status, priority (with flags bit 0), expiration (with bit 2), payload
//            length, then the length of each present field not repeated, in field order, then the
//            collapse id's length (with bit 3)
//   bytes    those fields, in order, the collapse id, then the payload (none with flags bit 1)
//
// The first record of a row repeats nothing, so a row decodes alone. Reading checks every length
// against the bytes that are there, as format 4 does.

#if canImport(Glibc)
    import Glibc
#endif

extension DeliveryRecord {
    /// Most bytes of a format-5 header: three bytes, five varints of at most 10 bytes, nine of 5.
    static let compactHeaderBound = 3 + 5 * 10 + 9 * 5

    /// Fields worth comparing with the previous record's (ids never repeat).
    static let repeatableFields: UInt8 = 0b1110_0111

    /// The bytes of field `index`'s text: its start and end in `text`.
    func fieldRange(_ index: Int) -> (start: Int, end: Int) {
        withUnsafeBytes(of: ends) { raw in
            let end = Int(raw.load(fromByteOffset: 4 * index, as: UInt32.self))
            return (index == 0 ? 0 : Int(raw.load(fromByteOffset: 4 * (index - 1), as: UInt32.self)), end)
        }
    }
}

/// What a format-5 encoder remembers of the previous record in the row.
struct CompactRecordContext {
    var receivedAt = 0
    /// The previous record's present fields, and where each one's bytes are in the row (a repeated
    /// field keeps the place it was last written).
    var present: UInt8 = 0
    /// Per field: its offset in the high 32 bits, its length in the low 32 (one load per field).
    var fields: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Where the last payload written in full is, and its length (for repeating it by reference).
    var payload: (offset: Int, count: Int)?
}

extension DeliveryRecord {
    /// Writes the record in format 5 at `base + start`, which has room for `compactHeaderBound +
    /// textCount + payload.count` bytes; `context` is what the row remembers of its previous record
    /// (offsets from `base`), and is updated. Returns the bytes written.
    func encodeCompact(into base: UnsafeMutableRawPointer, at start: Int, context: inout CompactRecordContext) -> Int {
        withFields { $0.encodeCompact(into: base, at: start, context: &context) }
    }
}

extension DeliveryFields {
    /// Writes the entry in format 5 at `base + start`, which has room for `compactBound` bytes;
    /// `context` is what the row remembers of its previous record (offsets from `base`), and is
    /// updated. Returns the bytes written.
    func encodeCompact(into base: UnsafeMutableRawPointer, at start: Int, context: inout CompactRecordContext) -> Int {
        // The loops' hot path: one pass per step over the set bits only, each part read in place.
        let lowercaseToken = lowercaseToken
        let written = withUnsafeBytes(of: parts) { partsBytes in
            withUnsafeMutableBytes(of: &context.fields) { fields in
                func part(_ index: Int) -> UnsafeRawBufferPointer {
                    partsBytes.load(fromByteOffset: index * MemoryLayout<UnsafeRawBufferPointer>.stride, as: UnsafeRawBufferPointer.self)
                }
                var repeats: UInt8 = 0
                var bits = present & context.present & DeliveryRecord.repeatableFields
                while bits != 0 {
                    let index = bits.trailingZeroBitCount
                    bits &= bits - 1
                    let bytes = part(index)
                    let previous = fields.load(fromByteOffset: 8 * index, as: UInt64.self)
                    guard bytes.count == Int(previous & 0xFFFF_FFFF) else { continue }
                    guard let source = bytes.baseAddress else {
                        repeats |= 1 << index  // both empty
                        continue
                    }
                    let same =
                        index == 0 && lowercaseToken
                        ? Self.equalLowercased(base + Int(previous >> 32), source, count: bytes.count)
                        : memcmp(base + Int(previous >> 32), source, bytes.count) == 0
                    if same { repeats |= 1 << index }
                }
                var repeatsPayload = false
                if let last = context.payload, last.count == payload.count {
                    repeatsPayload = payload.baseAddress.map { memcmp(base + last.offset, $0, last.count) == 0 } ?? true
                }
                var offset = start
                let flags: UInt8 =
                    (priority == nil ? 0 : 1) | (repeatsPayload ? 2 : 0) | (expiration == nil ? 0 : 4)
                    | (collapseID == nil ? 0 : 8)
                base.storeBytes(of: flags, toByteOffset: offset, as: UInt8.self)
                base.storeBytes(of: present, toByteOffset: offset + 1, as: UInt8.self)
                base.storeBytes(of: repeats, toByteOffset: offset + 2, as: UInt8.self)
                offset += 3
                Varint.write(Varint.zigzag(receivedAt &- context.receivedAt), to: base, at: &offset)
                Varint.write(Varint.zigzag(status), to: base, at: &offset)
                if let priority { Varint.write(Varint.zigzag(priority), to: base, at: &offset) }
                if let expiration { Varint.write(Varint.zigzag(expiration), to: base, at: &offset) }
                Varint.write(UInt64(payload.count), to: base, at: &offset)
                let stored = present & ~repeats
                bits = stored
                while bits != 0 {
                    let index = bits.trailingZeroBitCount
                    bits &= bits - 1
                    Varint.write(UInt64(part(index).count), to: base, at: &offset)
                }
                if let collapseID { Varint.write(UInt64(collapseID.count), to: base, at: &offset) }
                bits = stored
                while bits != 0 {
                    let index = bits.trailingZeroBitCount
                    bits &= bits - 1
                    let bytes = part(index)
                    if let source = bytes.baseAddress {
                        if index == 0 && lowercaseToken {
                            Self.copyLowercased(source, to: base + offset, count: bytes.count)
                        } else {
                            (base + offset).copyMemory(from: source, byteCount: bytes.count)
                        }
                    }
                    fields.storeBytes(
                        of: UInt64(truncatingIfNeeded: offset) << 32 | UInt64(truncatingIfNeeded: bytes.count),
                        toByteOffset: 8 * index, as: UInt64.self)
                    offset += bytes.count
                }
                if let collapseID, let source = collapseID.baseAddress {
                    (base + offset).copyMemory(from: source, byteCount: collapseID.count)
                    offset += collapseID.count
                }
                if !repeatsPayload {
                    if let source = payload.baseAddress {
                        (base + offset).copyMemory(from: source, byteCount: payload.count)
                    }
                    context.payload = (offset, payload.count)
                    offset += payload.count
                }
                return offset - start
            }
        }
        context.present = present
        context.receivedAt = receivedAt
        return written
    }

    /// Copies hex digits lowercased as `DeviceToken` does: setting 0x20 lowercases A-F and leaves 0-9
    /// as they are (they have it), eight at a time.
    static func copyLowercased(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        var offset = 0
        while offset + 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            target.storeBytes(of: word | 0x2020_2020_2020_2020, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self) | 0x20, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }
    }

    /// Whether `stored` (lowercase) equals hex digits `source` once lowercased, eight at a time.
    static func equalLowercased(_ stored: UnsafeRawPointer, _ source: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: offset, as: UInt64.self) | 0x2020_2020_2020_2020
            guard word == stored.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < count {
            guard source.load(fromByteOffset: offset, as: UInt8.self) | 0x20 == stored.load(fromByteOffset: offset, as: UInt8.self)
            else { return false }
            offset += 1
        }
        return true
    }
}

extension DeliveryRecord {
    /// The format-5 records written back to back in `bytes`, in order.
    static func decodeCompactAll(_ bytes: [UInt8], limit: Int = .max, textBudget: Int = .max)
        throws(DeliveryRecordDecodingError) -> [DeliveryRecord]
    {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(DeliveryRecordDecodingError) in
                try decodeCompactAll(raw, limit: limit, textBudget: textBudget)
            }
        }.get()
    }

    /// The most text a stored row of `count` bytes may decode to: 256 times its size (a record of
    /// only repeated fields takes 6 bytes, and a real one rarely has over 400 bytes of text), plus
    /// 1 MiB.
    static func textBudget(ofRow count: Int) -> Int {
        256 * count + (1 << 20)
    }

    /// The format-5 records written back to back in `bytes`, in order: at most `limit` of them,
    /// with at most `textBudget` bytes of text in all. A record that repeats the previous one's
    /// fields takes a few bytes but copies their text, so a damaged or hostile row read from a
    /// file could otherwise decode a small blob into gigabytes.
    static func decodeCompactAll(_ bytes: UnsafeRawBufferPointer, limit: Int = .max, textBudget: Int = .max)
        throws(DeliveryRecordDecodingError) -> [DeliveryRecord]
    {
        var records: [DeliveryRecord] = []
        var offset = 0
        var budget = textBudget
        while offset < bytes.count {
            guard records.count < limit else {
                throw DeliveryRecordDecodingError(
                    record: records.count, offset: offset, rule: "the row holds more than its \(limit) records")
            }
            let record = try decodeCompact(
                bytes, at: &offset, index: records.count, previous: records.last, textLimit: budget)
            budget -= record.fieldRange(7).end
            records.append(record)
        }
        return records
    }

    /// The format-5 record at `offset`, which moves past it.
    static func decodeCompact(
        _ bytes: UnsafeRawBufferPointer, at offset: inout Int, index: Int, previous: DeliveryRecord?,
        textLimit: Int = .max
    ) throws(DeliveryRecordDecodingError) -> DeliveryRecord {
        let start = offset
        func fail(_ rule: String) -> DeliveryRecordDecodingError {
            DeliveryRecordDecodingError(record: index, offset: start, rule: rule)
        }
        guard bytes.count - start >= 3 else { throw fail("needs 3 header bytes, \(bytes.count - start) are left") }
        let flags = bytes[start]
        let present = bytes[start + 1]
        let repeats = bytes[start + 2]
        guard flags <= 15 else { throw fail("flags is \(flags), only bits 0 to 3 are defined") }
        guard repeats & ~present == 0 else { throw fail("repeats fields (\(repeats)) it does not have (\(present))") }
        let repeatsPayload = flags & 2 != 0
        if repeats != 0 || repeatsPayload {
            guard let previous else { throw fail("repeats the previous record's values, but is the first") }
            guard repeats & ~previous.present == 0 else { throw fail("repeats fields the previous record lacks") }
        }
        offset = start + 3
        func varint(_ name: String) throws(DeliveryRecordDecodingError) -> UInt64 {
            guard let value = Varint.read(bytes, at: &offset) else {
                throw fail("\(name) is not a varint within the bytes")
            }
            return value
        }
        let receivedAt = (previous?.receivedAt ?? 0) &+ Varint.unzigzag(try varint("receivedAt"))
        let status = Varint.unzigzag(try varint("status"))
        let priority = flags & 1 == 0 ? nil : Varint.unzigzag(try varint("priority"))
        let expiration = flags & 4 == 0 ? nil : Varint.unzigzag(try varint("expiration"))
        let payloadLength = try varint("the payload length")
        let stored = present & ~repeats
        var lengths = [Int](repeating: 0, count: 8)
        for field in 0..<8 where present & (1 << field) != 0 {
            if stored & (1 << field) != 0 {
                let length = try varint("field \(field)'s length")
                guard length <= UInt64(bytes.count) else { throw fail("field \(field) is \(length) bytes long") }
                lengths[field] = Int(length)
            } else if let previous {
                let (first, end) = previous.fieldRange(field)
                lengths[field] = end - first
            }
        }
        var collapseLength = 0
        if flags & 8 != 0 {
            let length = try varint("the collapse id's length")
            guard length <= UInt64(bytes.count) else { throw fail("the collapse id is \(length) bytes long") }
            collapseLength = Int(length)
        }
        let storedText = (0..<8).reduce(collapseLength) { stored & (1 << $1) != 0 ? $0 + lengths[$1] : $0 }
        let left = bytes.count - offset
        guard payloadLength <= UInt64(left) || repeatsPayload else {
            throw fail("the payload (\(payloadLength)) needs more than the \(left) bytes left")
        }
        let payloadCount = Int(min(payloadLength, UInt64(UInt32.max)))
        let storedPayload = repeatsPayload ? 0 : payloadCount
        guard storedText <= left, storedPayload <= left - storedText else {
            throw fail("text (\(storedText)) and payload (\(storedPayload)) need more than the \(left) bytes left")
        }
        var payload: [UInt8] = []
        if repeatsPayload, let previous {
            guard previous.payload.count == payloadCount else {
                throw fail("repeats the previous payload (\(previous.payload.count) bytes) as \(payloadCount) bytes")
            }
            payload = previous.payload
        }
        var ends: [UInt32] = []
        var textCount = 0
        for field in 0..<8 {
            textCount += lengths[field]
            ends.append(UInt32(truncatingIfNeeded: textCount))
        }
        guard textCount <= Int(UInt32.max) else { throw fail("its text is \(textCount) bytes long") }
        guard textCount <= textLimit else {
            throw fail("its text (\(textCount) bytes) is more than the row's text budget has left (\(max(0, textLimit)))")
        }
        var source = offset
        let text = RecordText.make(count: textCount) { buffer in
            guard let target = buffer.baseAddress, let blob = bytes.baseAddress else { return }
            var at = 0
            for field in 0..<8 where present & (1 << field) != 0 {
                let length = lengths[field]
                if stored & (1 << field) != 0 {
                    (target + at).update(from: blob.assumingMemoryBound(to: UInt8.self) + source, count: length)
                    source += length
                } else if let previous {
                    let first = previous.fieldRange(field).start
                    previous.text.withUnsafeMutablePointerToElements {
                        (target + at).update(from: $0 + first, count: length)
                    }
                }
                at += length
            }
        }
        offset = source
        var collapseID: String?
        if flags & 8 != 0 {
            collapseID = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + collapseLength]), as: UTF8.self)
            offset += collapseLength
        }
        if !repeatsPayload { payload = Array(bytes[offset..<offset + payloadCount]) }
        offset += storedPayload
        return DeliveryRecord(
            receivedAt: receivedAt, status: status, priority: priority, expiration: expiration,
            collapseID: collapseID, payload: payload, text: text, ends: (ends[0], ends[1], ends[2], ends[3], ends[4], ends[5], ends[6], ends[7]), present: present)
    }
}

/// LEB128 varints, signed ones zigzag-encoded.
enum Varint {
    /// Writes `value` at `destination + offset`, moving `offset` past it.
    @inline(__always)
    static func write(_ value: UInt64, to destination: UnsafeMutableRawPointer, at offset: inout Int) {
        var value = value
        while value >= 0x80 {
            destination.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: offset, as: UInt8.self)
            offset += 1
            value >>= 7
        }
        destination.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
        offset += 1
    }

    @inline(__always)
    static func zigzag(_ value: Int) -> UInt64 {
        UInt64(bitPattern: Int64(value) << 1 ^ Int64(value) >> 63)
    }

    static func unzigzag(_ value: UInt64) -> Int {
        Int(Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1))
    }

    /// Reads a varint at `offset` in `bytes`; nil when it runs past the end or past 10 bytes.
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count, shift < 70 {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}
