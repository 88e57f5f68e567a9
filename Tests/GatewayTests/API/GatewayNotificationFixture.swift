import APNs
import Gateway
import Synchronization
import Testing

/// What the notification API tests share: the paths, payloads that lint clean, and a store seeded
/// with recipients of every kind.
enum NotificationAPI {
    static let path = "/v1/apps/\(GatewayAPIFixture.app)/notifications"
    static let alert = #"{"aps":{"alert":{"title":"Hi","body":"There"}}}"#
    static let update = #"{"aps":{"timestamp":1767225600,"event":"update","content-state":{"score":1}}}"#
    static let start = #"""
        {"aps":{"timestamp":1767225600,"event":"start","content-state":{"score":0},"attributes-type":"Match",\#
        "attributes":{"home":"A"},"alert":{"title":"Kick-off","body":"Now"}}}
        """#
    static let channel = "dHN0LXNyY2gtY2hubA=="

    /// `{"to":TO,"payload":PAYLOAD}` plus `extra` members (`"priority":5`).
    static func body(to: String, payload: String = alert, _ extra: String = "") -> String {
        #"{"to":\#(to),"payload":\#(payload)\#(extra.isEmpty ? "" : "," + extra)}"#
    }

    /// Devices of the fixture's app: 1 (alice; news), 2 (alice; news, beta), 3 (bob; beta; pruned:
    /// unregistered); alice's push-to-start token 11 for `Match`; activity `act-1` with token 10.
    static func seed(_ store: any GatewayStore) async throws {
        _ = try await store.upsertDevice(try registration(1, user: "alice", tags: ["news"]), now: Clock.start)
        _ = try await store.upsertDevice(try registration(2, user: "alice", tags: ["news", "beta"]), now: Clock.start)
        _ = try await store.upsertDevice(try registration(3, user: "bob", tags: ["beta"]), now: Clock.start)
        let pruned = try await store.prune(
            .unregister(timestamp: Clock.start + 1, statusReason: "gone"), bundleID: bundleID, kind: .device,
            token: try token(3).hex)
        try #require(pruned, "the seed's token 3 must be pruned")
        _ = try await store.upsertPushToStartToken(
            bundleID: bundleID, token: try token(11), environment: .production, user: "alice", attributesType: "Match",
            now: Clock.start)
        _ = try await store.upsertActivityToken(
            bundleID: bundleID, activityID: "act-1", token: try token(10), environment: .production, user: "alice",
            now: Clock.start)
    }

    /// Every notification of the fixture's app the store will still expand or send (created and
    /// not cancelled; in these tests nothing is expanded through the API).
    static func unexpanded(_ store: any GatewayStore) async throws -> [NotificationID] {
        try await store.notificationsToExpand(limit: 1_000)
    }
}

/// The ids `onNotificationCreated` was called with, in order.
final class AnnouncedNotifications: Sendable {
    private let ids = Mutex<[NotificationID]>([])

    var all: [NotificationID] { ids.withLock { $0 } }

    /// Sets the configuration's hook to record here.
    func install(_ configuration: inout GatewayConfiguration) {
        configuration.onNotificationCreated = { id in self.ids.withLock { $0.append(id) } }
    }
}
