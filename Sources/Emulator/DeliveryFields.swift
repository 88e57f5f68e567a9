// A delivery log entry's values, borrowed: what the format-5 encoder reads. A `DeliveryRecord` lends
// its own (`withFields`); the quick path lends the request's bytes directly, so an accepted push is
// encoded into the log's rows without a record (no allocation, nothing to release).

/// One entry's values, borrowed for the duration of a call; valid only inside the closure that made it.
struct DeliveryFields {
    typealias Parts = (
        UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer,
        UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer
    )

    let receivedAt: Int
    let status: Int
    let priority: Int?
    /// `apns-expiration`, if the request had one.
    var expiration: Int? = nil
    /// `apns-collapse-id`'s bytes, if the request had one.
    var collapseID: UnsafeRawBufferPointer? = nil
    /// Each string field's bytes, in `DeliveryRecord.Field` order (empty when absent).
    let parts: Parts
    /// Bit `field.rawValue` set: the field is present (possibly empty).
    let present: UInt8
    /// The token is hex digits to be lowercased as they are encoded (the request's path gave them).
    let lowercaseToken: Bool
    let payload: UnsafeRawBufferPointer
    /// The string fields' bytes in all.
    let textCount: Int

    var hasFault: Bool { present & (1 << DeliveryRecord.Field.fault.rawValue) != 0 }
    /// The most bytes its format-5 encoding takes.
    var compactBound: Int { DeliveryRecord.compactHeaderBound + textCount + (collapseID?.count ?? 0) + payload.count }

    /// An absent field's bytes.
    static var none: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: nil, count: 0) }
}

extension DeliveryRecord {
    /// Runs `body` with the record's values, borrowed.
    func withFields<R>(_ body: (DeliveryFields) -> R) -> R {
        var collapseText = collapseID ?? ""
        return collapseText.withUTF8 { collapseBytes in
            text.withUnsafeMutablePointerToElements { text in
                payload.withUnsafeBytes { payload in
                    func part(_ index: Int) -> UnsafeRawBufferPointer {
                        let (start, end) = fieldRange(index)
                        return UnsafeRawBufferPointer(start: text + start, count: end - start)
                    }
                    return body(
                        DeliveryFields(
                            receivedAt: receivedAt, status: status, priority: priority, expiration: expiration,
                            collapseID: collapseID == nil ? nil : UnsafeRawBufferPointer(collapseBytes),
                            parts: (part(0), part(1), part(2), part(3), part(4), part(5), part(6), part(7)),
                            present: present, lowercaseToken: false, payload: payload, textCount: textCount))
                }
            }
        }
    }

    /// Runs `body` with the values of an accepted device push, from bytes (as
    /// `init(acceptedAt:token:...)` records it: `token`, hex digits, lowercased as it is encoded),
    /// without making a record or copying anything.
    static func withAcceptedFields<R>(
        acceptedAt receivedAt: Int, token: UnsafeBufferPointer<UInt8>, topic: UnsafeBufferPointer<UInt8>?,
        pushType: String, priority: Int, apnsID: UnsafeBufferPointer<UInt8>,
        uniqueID: UnsafeBufferPointer<UInt8>?, payload: UnsafeRawBufferPointer, expiration: Int? = nil,
        collapseID: UnsafeBufferPointer<UInt8>? = nil, _ body: (DeliveryFields) -> R
    ) -> R {
        var pushTypeText = pushType
        return pushTypeText.withUTF8 { pushTypeBytes in
            let count = token.count + (topic?.count ?? 0) + pushTypeBytes.count + apnsID.count + (uniqueID?.count ?? 0)
            let present: UInt8 = 0b0000_1101 | (topic == nil ? 0 : 0b10) | (uniqueID == nil ? 0 : 0b1_0000)
            let none = DeliveryFields.none
            return body(
                DeliveryFields(
                    receivedAt: receivedAt, status: 200, priority: priority, expiration: expiration,
                    collapseID: collapseID.map(UnsafeRawBufferPointer.init),
                    parts: (
                        UnsafeRawBufferPointer(token), topic.map(UnsafeRawBufferPointer.init) ?? none,
                        UnsafeRawBufferPointer(pushTypeBytes), UnsafeRawBufferPointer(apnsID),
                        uniqueID.map(UnsafeRawBufferPointer.init) ?? none, none, none, none
                    ), present: present, lowercaseToken: true, payload: payload, textCount: count))
        }
    }

    /// Writes an accepted push's five string fields into `buffer` (exactly their size): the token's
    /// hex digits lowercased as `DeviceToken` does (`copyLowercased`), the others as they are.
    /// Returns where each field ends.
    static func fillAccepted(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, token: UnsafeBufferPointer<UInt8>,
        topic: UnsafeBufferPointer<UInt8>?, pushType: UnsafeBufferPointer<UInt8>, apnsID: UnsafeBufferPointer<UInt8>,
        uniqueID: UnsafeBufferPointer<UInt8>?
    ) -> (UInt32, UInt32, UInt32, UInt32, UInt32) {
        if let base = buffer.baseAddress, let source = token.baseAddress {
            DeliveryFields.copyLowercased(source, to: base, count: token.count)
        }
        var offset = token.count
        func copy(_ part: UnsafeBufferPointer<UInt8>?) -> UInt32 {
            if let part, let base = buffer.baseAddress, let source = part.baseAddress {
                (base + offset).update(from: source, count: part.count)
                offset += part.count
            }
            return UInt32(truncatingIfNeeded: offset)
        }
        return (UInt32(truncatingIfNeeded: offset), copy(topic), copy(pushType), copy(apnsID), copy(uniqueID))
    }
}
