import APNs

extension DeviceRegistry {
    /// One simulated device as the control API shows it.
    public struct Summary: Sendable, Equatable {
        public let token: String
        public let bundleID: String
        public let environment: DeviceEnvironment
        public let online: Bool
        /// Its Live Activity and push-to-start tokens, with their kind.
        public let otherTokens: [(token: String, kind: DeviceTokenKind)]
        /// Pushes waiting for it (one per app) and broadcasts waiting (one per channel).
        public let storedNotifications: Int
        public let storedBroadcasts: Int
        /// `bundle-id/channel-id` of each channel it listens to.
        public let subscriptions: [String]

        public static func == (lhs: Summary, rhs: Summary) -> Bool {
            lhs.token == rhs.token && lhs.online == rhs.online && lhs.storedNotifications == rhs.storedNotifications
                && lhs.storedBroadcasts == rhs.storedBroadcasts && lhs.subscriptions == rhs.subscriptions
                && lhs.otherTokens.map(\.token) == rhs.otherTokens.map(\.token)
        }

        public var json: JSONValue {
            var object = JSONObject()
            object["token"] = .string(token)
            object["topic"] = .string(bundleID)
            object["environment"] = .string(environment.rawValue)
            object["online"] = .bool(online)
            object["tokens"] = .array(
                otherTokens.map { entry in
                    .object(
                        JSONObject([
                            .init(key: "token", value: .string(entry.token)),
                            .init(key: "kind", value: .string(entry.kind.rawValue)),
                        ]))
                })
            object["stored-notifications"] = .number(JSONNumber(storedNotifications))
            object["stored-broadcasts"] = .number(JSONNumber(storedBroadcasts))
            object["subscriptions"] = .array(subscriptions.map(JSONValue.string))
            return .object(object)
        }
    }

    /// Every registered device, by token order; only those of `bundleID` when given.
    public func summaries(bundleID: String? = nil) -> [Summary] {
        summaries(bundleID: bundleID, after: nil, limit: Int.max).summaries
    }

    /// At most `limit` devices by token order, those with a token after `after` (nil: from the
    /// first); only those of `bundleID` when given. `next` is the last token given when more follow.
    public func summaries(bundleID: String?, after: String?, limit: Int) -> (summaries: [Summary], next: String?) {
        state.withLock { state in
            var tokens = state.devices.compactMap { token, device -> String? in
                guard bundleID == nil || device.bundleID == bundleID else { return nil }
                if let after, token <= after { return nil }
                return token
            }
            tokens.sort()
            let more = tokens.count > limit
            let page = tokens.prefix(limit).compactMap { token -> Summary? in
                guard let device = state.devices[token] else { return nil }
                let others = device.tokens.filter { $0 != token }.map { other in
                    (token: other, kind: state.routes[other]?.kind ?? .liveActivity)
                }
                return Summary(
                    token: token, bundleID: device.bundleID, environment: device.environment,
                    online: device.sink != nil,
                    otherTokens: others, storedNotifications: device.stored.count,
                    storedBroadcasts: device.storedBroadcasts.count,
                    subscriptions: device.subscriptions.map { "\($0.bundleID)/\($0.channelID)" }.sorted())
            }
            return (page, more ? page.last?.token : nil)
        }
    }
}
