// A delivery log entry, decoded: numbers inline, every string back to back in one buffer, the
// payload as an array. A `Delivery` of eight optional Strings costs up to eight allocations; a record
// costs one. The log keeps its entries encoded (EncodedDeliveryRing); records are what the slow paths
// append (and encode at once) and what reading the log decodes, before making `Delivery` values (the
// control API, tests). The quick path makes none: it encodes the request's bytes (DeliveryFields).

/// One entry of the delivery log, compactly. Immutable; see the file comment.
struct DeliveryRecord: Sendable {
    /// The string fields, in the order their bytes are stored.
    enum Field: Int, CaseIterable {
        case token, topic, pushType, apnsID, uniqueID, reason, channel, fault
    }

    let receivedAt: Int
    let status: Int
    let priority: Int?
    /// `apns-expiration` and `apns-collapse-id`, outside the eight fields: most pushes have neither.
    let expiration: Int?
    let collapseID: String?
    let payload: [UInt8]
    // Not private: DeliveryRecord+Encoding writes and reads these as they are.
    /// The fields' bytes, back to back.
    // SAFETY: `nonisolated(unsafe)`: a `RecordText` is written once, inside `make`, before any other
    // reference to it exists, and only read after (`ManagedBuffer` cannot declare that itself).
    nonisolated(unsafe) let text: RecordText
    /// Where each field ends in `text` (it starts where the previous one ends).
    let ends: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    /// Bit `field.rawValue` set: the field is present (possibly empty).
    let present: UInt8

    /// A record of `delivery`, field for field.
    init(_ delivery: Delivery) {
        let fields: [String?] = [
            delivery.token, delivery.topic, delivery.pushType, delivery.apnsID, delivery.uniqueID, delivery.reason,
            delivery.channel, delivery.fault,
        ]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(0) { $0 + ($1?.utf8.count ?? 0) })
        var ends = [UInt32](repeating: 0, count: 8)
        var present: UInt8 = 0
        for (index, field) in fields.enumerated() {
            if let field {
                bytes.append(contentsOf: field.utf8)
                present |= 1 << index
            }
            ends[index] = UInt32(truncatingIfNeeded: bytes.count)
        }
        self.init(
            receivedAt: delivery.receivedAt, status: delivery.status, priority: delivery.priority,
            expiration: delivery.expiration, collapseID: delivery.collapseID, payload: delivery.payload, text: bytes.withUnsafeBufferPointer(RecordText.copy(of:)),
            ends: (ends[0], ends[1], ends[2], ends[3], ends[4], ends[5], ends[6], ends[7]),
            present: present)
    }

    /// The record of an accepted device push, from bytes: `token` in lowercase as the path gave it
    /// (hex digits only; lowercased while copied), the other fields as they are.
    init(
        acceptedAt receivedAt: Int, token: UnsafeBufferPointer<UInt8>, topic: UnsafeBufferPointer<UInt8>?,
        pushType: String, priority: Int, apnsID: UnsafeBufferPointer<UInt8>, uniqueID: UnsafeBufferPointer<UInt8>?,
        payload: [UInt8], expiration: Int? = nil, collapseID: String? = nil
    ) {
        let count = token.count + (topic?.count ?? 0) + pushType.utf8.count + apnsID.count + (uniqueID?.count ?? 0)
        var ends: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0, 0)
        var pushTypeText = pushType
        let text = pushTypeText.withUTF8 { pushTypeBytes in
            RecordText.make(count: count) { buffer in
                ends = Self.fillAccepted(
                    buffer, token: token, topic: topic, pushType: pushTypeBytes, apnsID: apnsID, uniqueID: uniqueID)
            }
        }
        let end = UInt32(truncatingIfNeeded: count)
        let present: UInt8 = 0b0000_1101 | (topic == nil ? 0 : 0b10) | (uniqueID == nil ? 0 : 0b1_0000)
        self.init(
            receivedAt: receivedAt, status: 200, priority: priority, expiration: expiration, collapseID: collapseID,
            payload: payload, text: text,
            ends: (ends.0, ends.1, ends.2, ends.3, ends.4, end, end, end), present: present)
    }

    init(
        receivedAt: Int, status: Int, priority: Int?, expiration: Int? = nil, collapseID: String? = nil,
        payload: [UInt8], text: RecordText, ends: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        present: UInt8
    ) {
        self.receivedAt = receivedAt
        self.status = status
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.payload = payload
        self.text = text
        self.ends = ends
        self.present = present
    }

    /// The field's text, or nil when absent.
    subscript(field: Field) -> String? {
        guard present & (1 << field.rawValue) != 0 else { return nil }
        let (start, end) = fieldRange(field.rawValue)
        return text.withBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    var hasFault: Bool { present & (1 << Field.fault.rawValue) != 0 }

    /// The entry as the log's readers see it.
    var delivery: Delivery {
        Delivery(
            receivedAt: receivedAt, token: self[.token], topic: self[.topic], pushType: self[.pushType],
            priority: priority,
            apnsID: self[.apnsID], uniqueID: self[.uniqueID], status: status, reason: self[.reason], payload: payload,
            channel: self[.channel], fault: self[.fault], collapseID: collapseID, expiration: expiration)
    }
}
