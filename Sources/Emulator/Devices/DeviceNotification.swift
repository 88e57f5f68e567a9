import APNs

/// A notification as a simulated device receives it: one JSON object per line on the device's
/// stream (`docs/EMULATOR.md`, "Devices").
public struct DeviceNotification: Sendable, Equatable {
    public var apnsID: String
    /// The token it was sent to: the device's own, or one of its Live Activity tokens.
    public var token: String
    public var topic: String
    public var pushType: String
    public var priority: Int
    public var collapseID: String?
    /// `apns-expiration` as UNIX seconds (0: never stored); nil when the push had none.
    public var expiration: Int?
    /// The broadcast channel, for a broadcast; nil for a device push.
    public var channelID: String?
    public var payload: JSONValue
    /// When the emulator accepted it, milliseconds since 1970.
    public var receivedAt: Int

    public init(
        apnsID: String, token: String, topic: String, pushType: String, priority: Int, collapseID: String? = nil,
        expiration: Int? = nil, channelID: String? = nil, payload: JSONValue, receivedAt: Int
    ) {
        self.apnsID = apnsID
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.collapseID = collapseID
        self.expiration = expiration
        self.channelID = channelID
        self.payload = payload
        self.receivedAt = receivedAt
    }

    /// The notification for a push the emulator accepted.
    init(_ push: AcceptedPush, receivedAt: Int) {
        let payload = (try? JSONValue(parsing: push.payload)) ?? .string(String(decoding: push.payload, as: UTF8.self))
        self.init(
            apnsID: push.apnsID, token: push.token.hex, topic: push.topic?.value ?? "",
            pushType: push.pushType.rawValue,
            priority: push.priority.rawValue, collapseID: push.collapseID?.value,
            expiration: push.expiration?.unixSeconds,
            payload: payload, receivedAt: receivedAt)
    }

    /// The bundle id of the app it is for (the topic without its push-type suffix).
    var bundleID: String { Topic.bareBundleID(topic) }

    // MARK: JSON lines

    /// The object as it goes on the stream, with a trailing newline.
    public func jsonLine() -> [UInt8] {
        var object = JSONObject()
        object["apns-id"] = .string(apnsID)
        object["token"] = .string(token)
        object["topic"] = .string(topic)
        object["push-type"] = .string(pushType)
        object["priority"] = .number(JSONNumber(priority))
        object["collapse-id"] = collapseID.map(JSONValue.string) ?? .null
        object["expiration"] = expiration.map { .number(JSONNumber($0)) } ?? .null
        if let channelID { object["channel-id"] = .string(channelID) }
        object["payload"] = payload
        object["received-at"] = .number(JSONNumber(receivedAt))
        return JSONValue.object(object).encoded() + [UInt8(ascii: "\n")]
    }

    /// Parses one line of a device stream; the error names the field that is missing or wrong.
    public init(jsonLine: some Collection<UInt8>) throws(DeviceError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: jsonLine.filter { $0 != UInt8(ascii: "\n") })
        } catch {
            throw .invalid(field: "notification", rule: "is not JSON (\(error))")
        }
        func string(_ key: String) throws(DeviceError) -> String {
            guard let text = value[key]?.stringValue else {
                throw .invalid(field: key, rule: "is missing or not a string")
            }
            return text
        }
        func number(_ key: String) throws(DeviceError) -> Int {
            guard let number = value[key]?.intValue else {
                throw .invalid(field: key, rule: "is missing or not an integer")
            }
            return number
        }
        guard let payload = value["payload"] else { throw .invalid(field: "payload", rule: "is missing") }
        self.init(
            apnsID: try string("apns-id"), token: try string("token"), topic: try string("topic"),
            pushType: try string("push-type"), priority: try number("priority"),
            collapseID: value["collapse-id"]?.stringValue, expiration: value["expiration"]?.intValue,
            channelID: value["channel-id"]?.stringValue, payload: payload, receivedAt: try number("received-at"))
    }
}
