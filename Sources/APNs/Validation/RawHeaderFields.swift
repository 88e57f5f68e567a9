/// The regular header fields of a request as bytes (pseudo-headers excluded), in arrival order:
/// what ``DevicePushValidator/scanHeaders(_:method:path:policy:)`` reads instead of a `String` per
/// header.
///
/// The buffers returned must stay valid while the validator runs and while the caller uses the
/// field indices of its ``ScannedPushHeaders`` (an HTTP/2 server hands out views of the request's
/// header storage).
package protocol RawHeaderFields {
    /// The number of fields.
    var fieldCount: Int { get }
    /// The name of field `index` (HTTP/2 sends names in lowercase).
    func name(at index: Int) -> UnsafeBufferPointer<UInt8>
    /// The value of field `index`.
    func value(at index: Int) -> UnsafeBufferPointer<UInt8>
}

/// The headers of a device push that passed the header phase, read from bytes: parsed values, and
/// the indices of the fields whose bytes the caller still needs (no `String` made for them).
package struct ScannedPushHeaders: Sendable, Equatable {
    /// `apns-push-type`; `alert` when absent.
    package let pushType: PushType
    /// `apns-priority`; 10 when absent.
    package let priority: Priority
    package let expiration: Expiration?
    /// The field of the request's `apns-id` (a valid UUID, in either case: answer it in lowercase);
    /// nil when the request sent none and the answer needs a generated one.
    package let apnsIDField: Int?
    /// The field of `apns-topic` (valid for the push type); nil when absent or empty.
    package let topicField: Int?
    /// The policy's default topic (with the push type's suffix) when `apns-topic` is absent.
    package let defaultTopic: Topic?
    package let collapseIDField: Int?
    package let authorizationField: Int?

    /// Where the device token's hex digits start in the path.
    package static let tokenOffset = DevicePushValidator.pathPrefix.utf8.count
}

/// The outcome of ``DevicePushValidator/scanHeaders(_:method:path:policy:)``.
package enum DevicePushHeaderScan: Sendable, Equatable {
    case accepted(ScannedPushHeaders)
    case rejected(PushRejection)
    /// Bytes whose meaning depends on Unicode rules (a non-ASCII header name or path, a collapse id
    /// that is not UTF-8): answer with ``DevicePushValidator/validateHeaders(_:policy:)`` instead.
    case unsupported
}

extension ScannedPushHeaders {
    /// The same headers as ``DevicePushValidator/validateHeaders(_:policy:)`` returns them (makes the
    /// strings; `generatedID`, or a new random `apns-id`, when the request sent none). nil only for a
    /// `path` other than the one scanned.
    package func validatedHeaders(
        _ fields: some RawHeaderFields, path: UnsafeBufferPointer<UInt8>, generatedID: String? = nil
    ) -> ValidatedHeaders? {
        func text(_ index: Int?) -> String? {
            index.map { String(decoding: fields.value(at: $0), as: UTF8.self) }
        }
        guard path.count > Self.tokenOffset else { return nil }
        let tokenText = String(decoding: UnsafeBufferPointer(rebasing: path[Self.tokenOffset...]), as: UTF8.self)
        guard let token = try? DeviceToken(hex: tokenText) else { return nil }
        return ValidatedHeaders(
            token: token,
            topic: text(topicField).flatMap { try? Topic($0) } ?? defaultTopic, pushType: pushType,
            priority: priority, expiration: expiration,
            collapseID: text(collapseIDField).flatMap { try? CollapseID($0) },
            apnsID: text(apnsIDField)?.lowercased() ?? generatedID ?? APNsID.random().value,
            authorization: text(authorizationField))
    }
}

/// Header fields laid out as an HTTP/2 server keeps them: one buffer of names and values back to
/// back, and per field three `UInt32`s (where its name starts, the name's length, the value's
/// length). The concrete type the emulator's hot path scans with: the validator, specialized for
/// it, reads fields with two loads instead of a protocol call each.
package struct RawHeaderTable: RawHeaderFields {
    package let storage: UnsafeBufferPointer<UInt8>
    package let layout: UnsafeBufferPointer<UInt32>
    /// The first field of the table that is a field here (pseudo-headers before it are skipped).
    package let first: Int

    /// `layout.count` must be a multiple of three and every range must lie in `storage`.
    package init(storage: UnsafeBufferPointer<UInt8>, layout: UnsafeBufferPointer<UInt32>, first: Int) {
        precondition(layout.count % 3 == 0 && first >= 0 && first * 3 <= layout.count, "a table of (start, name, value) triples")
        self.storage = storage
        self.layout = layout
        self.first = first
    }

    @inlinable package var fieldCount: Int { layout.count / 3 - first }

    @inlinable package func name(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let base = (first + index) * 3
        return UnsafeBufferPointer(rebasing: storage[Int(layout[base])..<Int(layout[base] + layout[base + 1])])
    }

    @inlinable package func value(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let base = (first + index) * 3
        let start = Int(layout[base] + layout[base + 1])
        return UnsafeBufferPointer(rebasing: storage[start..<start + Int(layout[base + 2])])
    }
}
