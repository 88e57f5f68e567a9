/// The `aps` dictionary: what the system, not the app, reads from a notification.
///
/// Every key Apple documents is a property; keys Herald does not know are kept in `extra` (APNs
/// ignores them, and `herald lint` warns about them) so a round trip loses nothing.
public struct APS: Sendable, Hashable {
    public var alert: Alert?
    /// The number on the app icon; 0 removes it.
    public var badge: Int?
    public var sound: Sound?
    /// Groups notifications into threads.
    public var threadID: String?
    /// A category the app registered, for its actions.
    public var category: String?
    /// 1 for a background (silent) update.
    public var contentAvailable: Int?
    /// 1 to let the app's notification service extension change the content.
    public var mutableContent: Int?
    public var targetContentID: String?
    public var interruptionLevel: InterruptionLevel?
    /// 0 to 1 for notifications; any number for Live Activities.
    public var relevanceScore: Double?
    public var filterCriteria: String?
    /// Widgets and controls pushes: `true`.
    public var contentChanged: Bool?
    /// Safari web push: values for the URL's placeholders.
    public var urlArgs: [String]?

    // Live Activities
    public var event: LiveActivityEvent?
    /// When the update was made, in UNIX seconds.
    public var timestamp: Int?
    public var contentState: JSONObject?
    public var staleDate: Int?
    public var dismissalDate: Int?
    public var attributesType: String?
    public var attributes: JSONObject?
    /// 1 to ask a started activity for its push token (iOS 18).
    public var inputPushToken: Int?
    /// A broadcast channel a started activity subscribes to (iOS 18).
    public var inputPushChannel: String?

    /// Keys Herald does not model, in order.
    public var extra: JSONObject

    public init(
        alert: Alert? = nil, badge: Int? = nil, sound: Sound? = nil, threadID: String? = nil, category: String? = nil,
        contentAvailable: Int? = nil, mutableContent: Int? = nil, targetContentID: String? = nil,
        interruptionLevel: InterruptionLevel? = nil, relevanceScore: Double? = nil, filterCriteria: String? = nil,
        contentChanged: Bool? = nil, urlArgs: [String]? = nil, event: LiveActivityEvent? = nil, timestamp: Int? = nil,
        contentState: JSONObject? = nil, staleDate: Int? = nil, dismissalDate: Int? = nil,
        attributesType: String? = nil, attributes: JSONObject? = nil, inputPushToken: Int? = nil,
        inputPushChannel: String? = nil, extra: JSONObject = JSONObject()
    ) {
        self.alert = alert
        self.badge = badge
        self.sound = sound
        self.threadID = threadID
        self.category = category
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
        self.targetContentID = targetContentID
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.contentChanged = contentChanged
        self.urlArgs = urlArgs
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.attributesType = attributesType
        self.attributes = attributes
        self.inputPushToken = inputPushToken
        self.inputPushChannel = inputPushChannel
        self.extra = extra
    }
}

extension APS {
    init(json: JSONValue) throws(FieldError) {
        let reader = try ObjectReader(json, path: "aps")
        self.init()
        for member in reader.members {
            let (key, value) = (member.key, member.value)
            switch key {
            case "alert": alert = try Alert(json: value, path: reader.field(key))
            case "badge": badge = try reader.int(key, value)
            case "sound": sound = try Sound(json: value, path: reader.field(key))
            case "thread-id": threadID = try reader.string(key, value)
            case "category": category = try reader.string(key, value)
            case "content-available": contentAvailable = try reader.int(key, value)
            case "mutable-content": mutableContent = try reader.int(key, value)
            case "target-content-id": targetContentID = try reader.string(key, value)
            case "interruption-level": interruptionLevel = InterruptionLevel(rawValue: try reader.string(key, value))
            case "relevance-score": relevanceScore = try reader.double(key, value)
            case "filter-criteria": filterCriteria = try reader.string(key, value)
            case "content-changed": contentChanged = try reader.bool(key, value)
            case "url-args": urlArgs = try reader.strings(key, value)
            case "event": event = LiveActivityEvent(rawValue: try reader.string(key, value))
            case "timestamp": timestamp = try reader.int(key, value)
            case "content-state": contentState = try reader.object(key, value)
            case "stale-date": staleDate = try reader.int(key, value)
            case "dismissal-date": dismissalDate = try reader.int(key, value)
            case "attributes-type": attributesType = try reader.string(key, value)
            case "attributes": attributes = try reader.object(key, value)
            case "input-push-token": inputPushToken = try reader.int(key, value)
            case "input-push-channel": inputPushChannel = try reader.string(key, value)
            default: extra[key] = value
            }
        }
    }

    /// The dictionary as JSON, keys in Apple's documented order, unknown keys last.
    public var json: JSONValue {
        var writer = ObjectWriter()
        writer.put("alert", alert?.json)
        writer.put("badge", badge)
        writer.put("sound", sound?.json)
        writer.put("thread-id", threadID)
        writer.put("category", category)
        writer.put("content-available", contentAvailable)
        writer.put("mutable-content", mutableContent)
        writer.put("target-content-id", targetContentID)
        writer.put("interruption-level", interruptionLevel?.rawValue)
        writer.put("relevance-score", relevanceScore)
        writer.put("filter-criteria", filterCriteria)
        writer.put("content-changed", contentChanged)
        writer.put("url-args", urlArgs)
        writer.put("event", event?.rawValue)
        writer.put("timestamp", timestamp)
        writer.put("content-state", contentState)
        writer.put("stale-date", staleDate)
        writer.put("dismissal-date", dismissalDate)
        writer.put("attributes-type", attributesType)
        writer.put("attributes", attributes)
        writer.put("input-push-token", inputPushToken)
        writer.put("input-push-channel", inputPushChannel)
        writer.merge(extra)
        return writer.value
    }

    /// The keys of `aps` that Apple documents, for the linter.
    public static let documentedKeys: Set<String> = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "target-content-id", "interruption-level", "relevance-score", "filter-criteria", "content-changed", "url-args",
        "event", "timestamp", "content-state", "stale-date", "dismissal-date", "attributes-type", "attributes",
        "input-push-token", "input-push-channel",
    ]
}
