// A delivery log entry's values, borrowed: what the format-5 encoder reads. A `DeliveryRecord` lends
// its own (`withFields`); the quick path lends the request's bytes directly, so an accepted push is
// encoded into the log's rows without a record (no allocation, nothing to release).

/// One entry's values, borrowed for the duration of a call; valid only inside the closure that made it.
struct DeliveryFields {
    let receivedAt: Int
    let status: Int
    let priority: Int?
    /// The string fields' bytes back to back, in `DeliveryRecord.Field` order.
    let text: UnsafePointer<UInt8>
    /// Where each field ends in `text` (it starts where the previous one ends).
    let ends: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    /// Bit `field.rawValue` set: the field is present (possibly empty).
    let present: UInt8
    let payload: UnsafeRawBufferPointer

    var textCount: Int { Int(ends.7) }
    /// A valid address for a text of no bytes (never read: every field is empty then).
    // SAFETY: `nonisolated(unsafe)`: allocated once, never written, never read.
    nonisolated(unsafe) static let noText = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    var hasFault: Bool { present & (1 << DeliveryRecord.Field.fault.rawValue) != 0 }
    /// The most bytes its format-5 encoding takes.
    var compactBound: Int { DeliveryRecord.compactHeaderBound + textCount + payload.count }
}

extension DeliveryRecord {
    /// Runs `body` with the record's values, borrowed.
    func withFields<R>(_ body: (DeliveryFields) -> R) -> R {
        text.withUnsafeMutablePointerToElements { text in
            payload.withUnsafeBytes { payload in
                body(
                    DeliveryFields(
                        receivedAt: receivedAt, status: status, priority: priority, text: UnsafePointer(text),
                        ends: ends, present: present, payload: payload))
            }
        }
    }

    /// Runs `body` with the values of an accepted device push, from bytes (as
    /// `init(acceptedAt:token:...)` records it: `token` lowercased while copied), without making a record.
    static func withAcceptedFields<R>(
        acceptedAt receivedAt: Int, token: UnsafeBufferPointer<UInt8>, topic: UnsafeBufferPointer<UInt8>?,
        pushType: String, priority: Int, apnsID: UnsafeBufferPointer<UInt8>,
        uniqueID: UnsafeBufferPointer<UInt8>?, payload: UnsafeRawBufferPointer, _ body: (DeliveryFields) -> R
    ) -> R {
        var pushTypeText = pushType
        return pushTypeText.withUTF8 { pushTypeBytes in
            let count = token.count + (topic?.count ?? 0) + pushTypeBytes.count + apnsID.count + (uniqueID?.count ?? 0)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, count)) { buffer in
                let ends = fillAccepted(
                    UnsafeMutableBufferPointer(rebasing: buffer[..<count]), token: token, topic: topic,
                    pushType: pushTypeBytes, apnsID: apnsID, uniqueID: uniqueID)
                let end = UInt32(truncatingIfNeeded: count)
                let present: UInt8 = 0b0000_1101 | (topic == nil ? 0 : 0b10) | (uniqueID == nil ? 0 : 0b1_0000)
                return body(
                    DeliveryFields(
                        receivedAt: receivedAt, status: 200, priority: priority,
                        text: UnsafePointer(buffer.baseAddress ?? DeliveryFields.noText),
                        ends: (ends.0, ends.1, ends.2, ends.3, ends.4, end, end, end), present: present,
                        payload: payload))
            }
        }
    }

    /// Writes an accepted push's five string fields into `buffer` (exactly their size): the token's
    /// hex digits lowercased as `DeviceToken` does (setting 0x20 lowercases A-F and leaves 0-9 as
    /// they are), eight at a time, the others as they are. Returns where each field ends.
    static func fillAccepted(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, token: UnsafeBufferPointer<UInt8>,
        topic: UnsafeBufferPointer<UInt8>?, pushType: UnsafeBufferPointer<UInt8>, apnsID: UnsafeBufferPointer<UInt8>,
        uniqueID: UnsafeBufferPointer<UInt8>?
    ) -> (UInt32, UInt32, UInt32, UInt32, UInt32) {
        var offset = 0
        func copy(_ part: UnsafeBufferPointer<UInt8>?) -> UInt32 {
            if let part, let base = buffer.baseAddress, let source = part.baseAddress {
                (base + offset).update(from: source, count: part.count)
                offset += part.count
            }
            return UInt32(truncatingIfNeeded: offset)
        }
        if let base = buffer.baseAddress, let source = token.baseAddress {
            let raw = UnsafeMutableRawPointer(base)
            while offset + 8 <= token.count {
                let word = UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self)
                raw.storeBytes(of: word | 0x2020_2020_2020_2020, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
        }
        while offset < token.count {
            buffer[offset] = token[offset] | 0x20
            offset += 1
        }
        return (UInt32(truncatingIfNeeded: offset), copy(topic), copy(pushType), copy(apnsID), copy(uniqueID))
    }
}
