/// A notification payload: the `aps` dictionary and the app's own keys beside it.
///
/// Build one with the initialisers and chainable modifiers (`Payload.alert(title:body:)
/// .badge(1).sound(.default)`), or decode one from JSON. Encoding is compact: `encoded()` gives the
/// exact bytes APNs counts against its size limit.
public struct Payload: Sendable, Hashable {
    /// nil for payloads without `aps` (MDM).
    public var aps: APS?
    /// Top-level keys other than `aps`, in order.
    public var custom: JSONObject

    public init(aps: APS? = APS(), custom: JSONObject = JSONObject()) {
        self.aps = aps
        self.custom = custom
    }

    /// Decodes a payload; a key with the wrong type throws an error naming its path.
    public init(json: JSONValue) throws(FieldError) {
        let reader = try ObjectReader(json, path: "payload")
        var custom = JSONObject()
        var aps: APS?
        for member in reader.members {
            if member.key == "aps" {
                aps = try APS(json: member.value)
            } else {
                custom[member.key] = member.value
            }
        }
        self.init(aps: aps, custom: custom)
    }

    /// Decodes a payload from its JSON bytes.
    public init(bytes: some Collection<UInt8>) throws(PayloadError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw .invalidJSON(error)
        }
        do {
            try self.init(json: json)
        } catch {
            throw .invalidField(error)
        }
    }

    /// The payload as JSON: `aps` first, then the custom keys.
    public var json: JSONValue {
        var writer = ObjectWriter()
        writer.put("aps", aps?.json)
        writer.merge(custom)
        return writer.value
    }

    /// The compact encoding, the bytes sent to APNs.
    public func encoded() -> EncodedPayload {
        EncodedPayload(bytes: json.encoded())
    }
}

/// Why bytes could not be decoded as a payload.
public enum PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidJSON(JSONError)
    case invalidField(FieldError)

    public var description: String {
        switch self {
        case .invalidJSON(let error): "payload: \(error)"
        case .invalidField(let error): error.description
        }
    }
}

/// Payload bytes, encoded once, ready to send; their size is what APNs compares with its limit.
public struct EncodedPayload: Sendable, Hashable {
    public let bytes: [UInt8]

    /// Wraps bytes as they are (already-encoded JSON from a file or a queue). Not validated: lint
    /// them, or let APNs judge.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var count: Int { bytes.count }
}
