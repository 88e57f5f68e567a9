import APNs
import HTTP2
import Synchronization

/// The gateway's state in memory: the twin of `SQLiteGatewayStore`, with the same answers (one test
/// suite runs against both), kept only as long as the value lives.
///
/// Thread-safety: `Sendable`; every call takes one lock. Rows are numbered as SQLite numbers them
/// (from 1, never reused), so cursors mean the same in both.
public final class InMemoryGatewayStore: GatewayStore {
    struct TokenKey: Hashable {
        var bundleID: String
        var token: String
    }

    struct NotificationEntry {
        var notification: StoredNotification
        var cursor = 0
        var counts = NotificationCounts()
        var deliveryIDs: [Int] = []
    }

    struct State {
        /// Index `seq - 1`; nil once deleted.
        var devices: [Device?] = []
        var deviceSeqs: [TokenKey: Int] = [:]
        var pushToStart: [PushToStartToken?] = []
        var pushToStartSeqs: [TokenKey: Int] = [:]
        /// Keyed by bundle id and activity id.
        var activities: [TokenKey: ActivityToken] = [:]
        var keys: [(key: APIKey, hash: [UInt8])] = []
        var notifications: [NotificationID: NotificationEntry] = [:]
        /// Creation order.
        var notificationOrder: [NotificationID] = []
        var idempotencyKeys: [TokenKey: NotificationID] = [:]
        /// Index `id - 1`.
        var deliveries: [Delivery] = []
    }

    let state = AnnotatedMutex(State())

    public init() {}

    // MARK: - Devices

    public func upsertDevice(_ registration: DeviceRegistration, now: Int) async throws(GatewayStoreError) -> Device {
        state.withLock { $0.upsert(registration, now: now) }
    }

    public func device(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Device? {
        state.withLock { state in
            state.deviceSeqs[TokenKey(bundleID: bundleID, token: token.hex)].flatMap { state.devices[$0 - 1] }
        }
    }

    public func deleteDevice(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        state.withLock { state in
            guard let seq = state.deviceSeqs.removeValue(forKey: TokenKey(bundleID: bundleID, token: token.hex)) else {
                return false
            }
            state.devices[seq - 1] = nil
            return true
        }
    }

    public func devices(bundleID: String, user: String) async throws(GatewayStoreError) -> [Device] {
        state.withLock { state in state.devices.compactMap { $0 }.filter { $0.bundleID == bundleID && $0.user == user }
        }
    }

    public func importDevices(_ batch: [DeviceRegistration], now: Int) async throws(GatewayStoreError) {
        state.withLock { state in
            for registration in batch { _ = state.upsert(registration, now: now) }
        }
    }

    public func deviceCounts(bundleID: String) async throws(GatewayStoreError) -> [TokenStatus: Int] {
        state.withLock { state in
            state.devices.reduce(into: [:]) { counts, device in
                if let device, device.bundleID == bundleID { counts[device.status, default: 0] += 1 }
            }
        }
    }

    // MARK: - Live Activities

    public func upsertPushToStartToken(
        bundleID: String, token: DeviceToken, environment: Environment, user: String?, attributesType: String, now: Int
    ) async throws(GatewayStoreError) -> PushToStartToken {
        let stored = PushToStartToken(
            bundleID: bundleID, token: token, environment: environment, user: user, attributesType: attributesType,
            registeredAt: now)
        state.withLock { state in
            let key = TokenKey(bundleID: bundleID, token: token.hex)
            if let seq = state.pushToStartSeqs[key] {
                state.pushToStart[seq - 1] = stored
            } else {
                state.pushToStart.append(stored)
                state.pushToStartSeqs[key] = state.pushToStart.count
            }
        }
        return stored
    }

    public func pushToStartTokens(bundleID: String, user: String) async throws(GatewayStoreError) -> [PushToStartToken]
    {
        state.withLock { state in
            state.pushToStart.compactMap { $0 }.filter { $0.bundleID == bundleID && $0.user == user }
        }
    }

    public func deletePushToStartToken(bundleID: String, token: DeviceToken) async throws(GatewayStoreError) -> Bool {
        state.withLock { state in
            guard let seq = state.pushToStartSeqs.removeValue(forKey: TokenKey(bundleID: bundleID, token: token.hex))
            else {
                return false
            }
            state.pushToStart[seq - 1] = nil
            return true
        }
    }

    public func upsertActivityToken(
        bundleID: String, activityID: String, token: DeviceToken, environment: Environment, user: String?, now: Int
    ) async throws(GatewayStoreError) -> ActivityToken {
        let stored = ActivityToken(
            bundleID: bundleID, activityID: activityID, token: token, environment: environment, user: user,
            registeredAt: now)
        state.withLock { $0.activities[TokenKey(bundleID: bundleID, token: activityID)] = stored }
        return stored
    }

    public func activityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> ActivityToken? {
        state.withLock { $0.activities[TokenKey(bundleID: bundleID, token: activityID)] }
    }

    public func deleteActivityToken(bundleID: String, activityID: String) async throws(GatewayStoreError) -> Bool {
        state.withLock { $0.activities.removeValue(forKey: TokenKey(bundleID: bundleID, token: activityID)) != nil }
    }

    public func prune(_ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String)
        async throws(GatewayStoreError) -> Bool
    {
        state.withLock { $0.prune(action, bundleID: bundleID, kind: kind, token: token) }
    }

    // MARK: - API keys

    public func insertAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) {
        try state.withLock { state throws(GatewayStoreError) in
            guard !state.keys.contains(where: { $0.key.id == key.id || $0.hash == secretHash }) else {
                throw .invalid(APIKey.existsError(key.id))
            }
            state.keys.append((key, secretHash))
        }
    }

    public func insertFirstAPIKey(_ key: APIKey, secretHash: [UInt8]) async throws(GatewayStoreError) -> Bool {
        state.withLock { state in
            guard state.keys.isEmpty else { return false }
            state.keys.append((key, secretHash))
            return true
        }
    }

    public func apiKey(secretHash: [UInt8]) async throws(GatewayStoreError) -> APIKey? {
        state.withLock { state in state.keys.first { $0.hash == secretHash && $0.key.revokedAt == nil }?.key }
    }

    public func apiKeys() async throws(GatewayStoreError) -> [APIKey] {
        state.withLock { $0.keys.map(\.key) }
    }

    public func revokeAPIKey(id: String, now: Int) async throws(GatewayStoreError) -> Bool {
        state.withLock { state in
            guard let index = state.keys.firstIndex(where: { $0.key.id == id && $0.key.revokedAt == nil }) else {
                return false
            }
            state.keys[index].key.revokedAt = now
            return true
        }
    }
}

extension InMemoryGatewayStore.State {
    mutating func upsert(_ registration: DeviceRegistration, now: Int) -> Device {
        let device = Device(registration: registration, registeredAt: now)
        let key = InMemoryGatewayStore.TokenKey(bundleID: registration.bundleID, token: registration.token.hex)
        if let seq = deviceSeqs[key] {
            devices[seq - 1] = device
        } else {
            devices.append(device)
            deviceSeqs[key] = devices.count
        }
        return device
    }

    /// `PruneAction` on every token of `kind` with this hex; true when one changed.
    mutating func prune(_ action: PruneAction, bundleID: String, kind: Delivery.Kind, token: String) -> Bool {
        var changed = false
        func apply(_ status: inout TokenStatus, _ reason: inout String?, registeredAt: Int, environment: Environment) {
            guard let next = action.newStatus(of: status, registeredAt: registeredAt, environment: environment) else {
                return
            }
            status = next
            reason = action.statusReason
            changed = true
        }
        let key = InMemoryGatewayStore.TokenKey(bundleID: bundleID, token: token)
        switch kind {
        case .device:
            if let seq = deviceSeqs[key], var device = devices[seq - 1] {
                apply(
                    &device.status, &device.statusReason, registeredAt: device.registeredAt,
                    environment: device.environment)
                devices[seq - 1] = device
            }
        case .pushToStart:
            if let seq = pushToStartSeqs[key], var stored = pushToStart[seq - 1] {
                apply(
                    &stored.status, &stored.statusReason, registeredAt: stored.registeredAt,
                    environment: stored.environment)
                pushToStart[seq - 1] = stored
            }
        case .activity:
            for (activityKey, var stored) in activities where stored.bundleID == bundleID && stored.token.hex == token {
                apply(
                    &stored.status, &stored.statusReason, registeredAt: stored.registeredAt,
                    environment: stored.environment)
                activities[activityKey] = stored
            }
        case .channel: break
        }
        return changed
    }
}
