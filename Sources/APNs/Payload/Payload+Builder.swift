// Chainable modifiers for building payloads in a few readable lines:
//
//     let payload = Payload.alert(title: "Order shipped", body: "Arriving Tuesday")
//         .badge(1)
//         .sound(.default)
//         .threadID("orders")
//         .custom("order-id", "A-1042")

extension Payload {
    /// An alert with a title and body.
    public static func alert(title: String? = nil, subtitle: String? = nil, body: String) -> Payload {
        Payload(aps: APS(alert: .content(AlertContent(title: title.map(AlertText.plain), subtitle: subtitle, body: .plain(body)))))
    }

    /// A localized alert: keys into the app's Localizable.strings, with arguments.
    public static func localizedAlert(
        titleKey: String? = nil, titleArguments: [String]? = nil, bodyKey: String, bodyArguments: [String]? = nil
    ) -> Payload {
        Payload(aps: APS(alert: .content(AlertContent(
            titleLocKey: titleKey, titleLocArgs: titleArguments, locKey: bodyKey, locArgs: bodyArguments))))
    }

    /// A background (silent) update: `content-available: 1` and nothing to show.
    public static func background() -> Payload {
        Payload(aps: APS(contentAvailable: 1))
    }

    /// A widgets or controls reload: `content-changed: true`.
    public static func contentChanged() -> Payload {
        Payload(aps: APS(contentChanged: true))
    }

    /// A Live Activity push (start, update or end) with its content state.
    public static func liveActivity(
        _ event: LiveActivityEvent, timestamp: Int, contentState: JSONObject? = nil
    ) -> Payload {
        Payload(aps: APS(event: event, timestamp: timestamp, contentState: contentState))
    }

    /// An MDM wake-up: `{"mdm": "<PushMagic>"}`, no `aps`.
    public static func mdm(pushMagic: String) -> Payload {
        Payload(aps: nil, custom: JSONObject([.init(key: "mdm", value: .string(pushMagic))]))
    }

    /// A copy with `aps` changed by `change` (created if absent).
    public func aps(_ change: (inout APS) -> Void) -> Payload {
        var copy = self
        var aps = copy.aps ?? APS()
        change(&aps)
        copy.aps = aps
        return copy
    }

    public func badge(_ badge: Int) -> Payload { aps { $0.badge = badge } }
    public func sound(_ sound: Sound) -> Payload { aps { $0.sound = sound } }
    public func threadID(_ threadID: String) -> Payload { aps { $0.threadID = threadID } }
    public func category(_ category: String) -> Payload { aps { $0.category = category } }
    public func mutableContent() -> Payload { aps { $0.mutableContent = 1 } }
    public func contentAvailable() -> Payload { aps { $0.contentAvailable = 1 } }
    public func targetContentID(_ id: String) -> Payload { aps { $0.targetContentID = id } }
    public func interruptionLevel(_ level: InterruptionLevel) -> Payload { aps { $0.interruptionLevel = level } }
    public func relevanceScore(_ score: Double) -> Payload { aps { $0.relevanceScore = score } }
    public func filterCriteria(_ criteria: String) -> Payload { aps { $0.filterCriteria = criteria } }
    public func staleDate(_ seconds: Int) -> Payload { aps { $0.staleDate = seconds } }
    public func dismissalDate(_ seconds: Int) -> Payload { aps { $0.dismissalDate = seconds } }

    /// Live Activity start: the attributes type and values (required on start).
    public func attributes(type: String, _ attributes: JSONObject) -> Payload {
        aps {
            $0.attributesType = type
            $0.attributes = attributes
        }
    }

    /// A copy with the app's own key `key` set beside `aps`.
    public func custom(_ key: String, _ value: JSONValue) -> Payload {
        var copy = self
        copy.custom[key] = value
        return copy
    }
}
