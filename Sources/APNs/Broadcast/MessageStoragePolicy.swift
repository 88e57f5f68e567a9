/// A broadcast channel's `message-storage-policy`, fixed when the channel is created.
public enum MessageStoragePolicy: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0: nothing is stored for offline devices (and more volume is allowed); every broadcast on
    /// such a channel must carry `apns-expiration: 0`.
    case noStorage = 0
    /// 1: the most recent message is stored for up to 8 hours.
    case mostRecentMessage = 1

    /// Parses `0` or `1`, as the CLI and the create body write it.
    public init(text: String) throws(FieldError) {
        switch text {
        case "0": self = .noStorage
        case "1": self = .mostRecentMessage
        default:
            throw FieldError(
                field: "message-storage-policy",
                message: "\(quoted(text)) is not a storage policy; use 0 (no storage) or 1 (most recent message)")
        }
    }

    public var description: String { String(rawValue) }
}

/// What a channel is: its storage policy and push type (`LiveActivity`, the only one today). The
/// body of a create request and of a read response: `{"message-storage-policy":1,"push-type":"LiveActivity"}`.
public struct ChannelConfiguration: Sendable, Hashable {
    /// The `push-type` APNs accepts for channels.
    public static let liveActivityPushType = "LiveActivity"

    public var storagePolicy: MessageStoragePolicy
    public var pushType: String

    public init(storagePolicy: MessageStoragePolicy, pushType: String = ChannelConfiguration.liveActivityPushType) {
        self.storagePolicy = storagePolicy
        self.pushType = pushType
    }

    /// The JSON body.
    public var json: JSONValue {
        .object(
            JSONObject([
                .init(key: "message-storage-policy", value: .number(JSONNumber(storagePolicy.rawValue))),
                .init(key: "push-type", value: .string(pushType)),
            ]))
    }

    /// Reads a create body or a read response; the reason says what APNs would answer.
    public init(json bytes: [UInt8]) throws(ChannelBodyError) {
        guard !bytes.isEmpty else { throw ChannelBodyError(reason: .payloadEmpty, message: "the body is empty") }
        guard case .object(let object)? = try? JSONValue(parsing: bytes) else {
            throw ChannelBodyError(reason: .badRequestPayload, message: "the body is not a JSON object")
        }
        guard let pushType = object["push-type"] else {
            throw ChannelBodyError(reason: .missingPushType, message: "push-type is missing; use \"LiveActivity\"")
        }
        guard pushType.stringValue == Self.liveActivityPushType else {
            throw ChannelBodyError(reason: .invalidPushType, message: "push-type must be \"LiveActivity\"")
        }
        guard let number = object["message-storage-policy"]?.intValue,
            let policy = MessageStoragePolicy(rawValue: number)
        else {
            throw ChannelBodyError(
                reason: .badRequestParams, message: "message-storage-policy must be the number 0 or 1")
        }
        self.init(storagePolicy: policy, pushType: Self.liveActivityPushType)
    }
}

/// A channel body APNs would refuse, with the reason it gives.
public struct ChannelBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: Reason
    public let message: String

    public var description: String { "\(reason): \(message)" }
}
