import APNs
import Gateway
import Synchronization

/// An in-memory store whose `upsertDevice` waits until ``release()``: a slow store, to show the
/// gateway answers other requests meanwhile. Every other call goes straight to the store, except
/// `expandAndClaim`, which it leaves to the protocol's default (made `released`, it is an
/// in-memory store without the fused expansion: what a store that does not implement it gets).
final class HeldDeviceStore: GatewayStore {
    let base = InMemoryGatewayStore()
    private let state = Mutex<(released: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// One element each time an upsert starts to wait.
    let holds: AsyncStream<Void>
    private let holdsContinuation: AsyncStream<Void>.Continuation

    init(released: Bool = false) {
        (holds, holdsContinuation) = AsyncStream.makeStream()
        state.withLock { $0.released = released }
    }

    func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func upsertDevice(_ registration: DeviceRegistration, now: Int) async throws(GatewayStoreError) -> Device {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.released { return true }
                state.waiting.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() } else { holdsContinuation.yield() }
        }
        return try await base.upsertDevice(registration, now: now)
    }

    func device(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Device? {
        try await base.device(bundleID: bundleID, token: token)
    }
    func deleteDevice(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        try await base.deleteDevice(bundleID: bundleID, token: token)
    }
    func devices(bundleID: String, user: String) async throws(GatewayStoreError) -> [Device] {
        try await base.devices(bundleID: bundleID, user: user)
    }
    func importDevices(_ batch: [DeviceRegistration], now: Int) async throws(GatewayStoreError) {
        try await base.importDevices(batch, now: now)
    }
    func deviceCounts(bundleID: String) async throws(GatewayStoreError) -> [TokenStatus: Int] {
        try await base.deviceCounts(bundleID: bundleID)
    }
    func upsertPushToStartToken(
        bundleID: String, token: DeviceToken, environment: Environment, user: String?, attributesType: String, now: Int
    ) async throws(GatewayStoreError) -> PushToStartToken {
        try await base.upsertPushToStartToken(
            bundleID: bundleID, token: token, environment: environment, user: user, attributesType: attributesType,
            now: now)
    }
    func pushToStartTokens(bundleID: String, user: String) async throws(GatewayStoreError) -> [PushToStartToken] {
        try await base.pushToStartTokens(bundleID: bundleID, user: user)
    }
    func deletePushToStartToken(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        try await base.deletePushToStartToken(bundleID: bundleID, token: token)
    }
    func upsertActivityToken(
        bundleID: String, activityID: String, token: DeviceToken, environment: Environment, user: String?, now: Int
    ) async throws(GatewayStoreError) -> ActivityToken {
        try await base.upsertActivityToken(
            bundleID: bundleID, activityID: activityID, token: token, environment: environment, user: user, now: now)
    }
    func activityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> ActivityToken? {
        try await base.activityToken(bundleID: bundleID, activityID: activityID)
    }
    func deleteActivityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> Bool {
        try await base.deleteActivityToken(bundleID: bundleID, activityID: activityID)
    }
    func prune(_ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String)
        async throws(GatewayStoreError) -> Bool
    {
        try await base.prune(action, bundleID: bundleID, kind: kind, token: token)
    }
    func insertAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) {
        try await base.insertAPIKey(key, secretHash: secretHash)
    }
    func insertFirstAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) -> Bool {
        try await base.insertFirstAPIKey(key, secretHash: secretHash)
    }
    func apiKey(secretHash: [UInt8]) async throws(GatewayStoreError) -> APIKey? {
        try await base.apiKey(secretHash: secretHash)
    }
    func apiKeys() async throws(GatewayStoreError) -> [APIKey] { try await base.apiKeys() }
    func revokeAPIKey(id: String, now: Int) async throws(GatewayStoreError) -> Bool {
        try await base.revokeAPIKey(id: id, now: now)
    }
    func createNotification(_ request: NotificationRequest, id: NotificationID, now: Int)
        async throws(GatewayStoreError) -> NotificationCreation
    {
        try await base.createNotification(request, id: id, now: now)
    }
    func notifications(bundleID: String, before cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> NotificationPage
    {
        try await base.notifications(bundleID: bundleID, before: cursor, limit: limit)
    }

    func notification(id: NotificationID) async throws(GatewayStoreError) -> StoredNotification? {
        try await base.notification(id: id)
    }
    func expandNotification(id: NotificationID, chunkSize: Int, maximumChunks: Int, now: Int)
        async throws(GatewayStoreError) -> ExpansionProgress
    {
        try await base.expandNotification(id: id, chunkSize: chunkSize, maximumChunks: maximumChunks, now: now)
    }
    func startDueNotifications(now: Int, limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        try await base.startDueNotifications(now: now, limit: limit)
    }
    func notificationsToExpand(limit: Int) async throws(GatewayStoreError) -> [NotificationID] {
        try await base.notificationsToExpand(limit: limit)
    }
    func counts(id: NotificationID) async throws(GatewayStoreError) -> NotificationCounts {
        try await base.counts(id: id)
    }
    func cancelNotification(id: NotificationID, now: Int) async throws(GatewayStoreError) -> StoredNotification {
        try await base.cancelNotification(id: id, now: now)
    }
    func claimDeliveries(limit: Int, claimer: String, leaseMilliseconds: Int, now: Int)
        async throws(GatewayStoreError) -> DeliveryClaim
    {
        try await base.claimDeliveries(limit: limit, claimer: claimer, leaseMilliseconds: leaseMilliseconds, now: now)
    }
    func recordOutcomes(_ outcomes: [DeliveryOutcome], backoff: DeliveryBackoff, now: Int)
        async throws(GatewayStoreError) -> Int
    {
        try await base.recordOutcomes(outcomes, backoff: backoff, now: now)
    }
    func pendingDeliveryCount() async throws(GatewayStoreError) -> Int {
        try await base.pendingDeliveryCount()
    }
    func renewClaims(_ deliveries: [Delivery], claimer: String, until: Int) async throws(GatewayStoreError)
        -> Set<Int>
    {
        try await base.renewClaims(deliveries, claimer: claimer, until: until)
    }
    func inactiveTokens(bundleID: String, kind: Delivery.Kind, tokens: [String]) async throws(GatewayStoreError)
        -> Set<String>
    {
        try await base.inactiveTokens(bundleID: bundleID, kind: kind, tokens: tokens)
    }
    func deliveries(notificationID: NotificationID, after cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> DeliveryPage
    {
        try await base.deliveries(notificationID: notificationID, after: cursor, limit: limit)
    }
    func activityTokens(bundleID: String, after cursor: String?, limit: Int) async throws(GatewayStoreError)
        -> ActivityTokenPage
    {
        try await base.activityTokens(bundleID: bundleID, after: cursor, limit: limit)
    }
    func pushToStartTokens(bundleID: String, after cursor: Int?, limit: Int) async throws(GatewayStoreError)
        -> PushToStartTokenPage
    {
        try await base.pushToStartTokens(bundleID: bundleID, after: cursor, limit: limit)
    }
    func deliveries(bundleID: String, kind: Delivery.Kind, recipient: String, before cursor: Int?, limit: Int)
        async throws(GatewayStoreError) -> DeliveryPage
    {
        try await base.deliveries(bundleID: bundleID, kind: kind, recipient: recipient, before: cursor, limit: limit)
    }
}
