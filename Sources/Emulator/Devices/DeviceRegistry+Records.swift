// The registry as the store keeps it (issue 4): what a restarted emulator gets back.
//
//   registry (memory)                       store (DeviceRecordStore)
//   Device, keyed by its own token       -> StoredDevice, id = token
//   its Live Activity / push-to-start    -> StoredActivityToken, in creation order
//   subscriptions (app, channel id)      -> StoredSubscription (any channel id the device gave)
//   stored[app]                          -> StoredNotification, channelID nil
//   storedBroadcasts[(app, channel)]     -> StoredNotification with its channelID, expiresAt = until
//
// Devices come back offline (a stream does not survive a restart); what expired while the emulator
// was down is deleted at load, as a reconnect would have dropped it.

import APNs

extension DeviceRegistry {
    /// A registry holding the devices `store` kept, all offline, that writes its changes back to
    /// `store` (failures counted in `status`). Throws when the store cannot be read or holds a row
    /// Herald cannot read back.
    convenience init(
        unregistered: TokenRegistry, clock: @escaping @Sendable () -> Int,
        millisecondClock: (@Sendable () -> Int)? = nil, restoringFrom store: any DeviceRecordStore, status: StoreStatus
    ) throws(EmulatorStoreError) {
        _ = try store.deleteExpiredNotifications(now: Self.milliseconds(clock()))
        var state = State()
        for device in try store.devices() {
            var restored = Device(
                bundleID: device.bundleID, environment: .init(device.environment), tokens: [device.token])
            state.routes[device.token] = Route(
                deviceToken: device.token, bundleID: device.bundleID, environment: restored.environment, kind: .device)
            for token in try store.activityTokens(ofDevice: device.id) {
                restored.tokens.append(token.token)
                state.routes[token.token] = Route(
                    deviceToken: device.token, bundleID: device.bundleID, environment: restored.environment,
                    kind: token.kind == .pushToStart ? .pushToStart : .liveActivity)
            }
            for subscription in try store.subscriptions(ofDevice: device.id) {
                restored.subscriptions.insert(
                    ChannelKey(bundleID: subscription.bundleID, channelID: subscription.channelID))
            }
            for stored in try store.storedNotifications(ofDevice: device.id) {
                let notification = try DeviceNotification(stored)
                if let channelID = stored.channelID {
                    restored.storedBroadcasts[ChannelKey(bundleID: stored.bundleID, channelID: channelID)] = (
                        notification, stored.expiresAt / 1000
                    )
                } else {
                    restored.stored[stored.bundleID] = notification
                }
            }
            state.devices[device.token] = restored
        }
        self.init(
            unregistered: unregistered, clock: EmulatorClock.resolve(seconds: clock, milliseconds: millisecondClock),
            records: DeviceRecordWriter(store: store, status: status), state: state)
    }

    /// How many devices the registry holds.
    public var deviceCount: Int {
        state.withLock { $0.devices.count }
    }

    /// UNIX `seconds` in milliseconds, saturating (an `apns-expiration` may be any decimal number).
    static func milliseconds(_ seconds: Int) -> Int {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (seconds < 0 ? .min : .max) : product
    }
}

extension DeviceNotification {
    /// The notification a stored record stands for; throws `corrupt` when its payload is not JSON.
    init(_ stored: StoredNotification) throws(EmulatorStoreError) {
        guard let payload = try? JSONValue(parsing: stored.payload) else {
            throw .corrupt(
                table: "stored_notifications", column: "payload", value: String(decoding: stored.payload, as: UTF8.self)
            )
        }
        self.init(
            apnsID: stored.apnsID, token: stored.token, topic: stored.topic, pushType: stored.pushType,
            priority: stored.priority, collapseID: stored.collapseID, expiration: stored.expiration,
            channelID: stored.channelID, payload: payload, receivedAt: stored.storedAt)
    }
}

extension StoredDevice.Environment {
    init(_ environment: DeviceEnvironment) {
        self = environment == .production ? .production : .sandbox
    }
}

extension DeviceEnvironment {
    init(_ environment: StoredDevice.Environment) {
        self = environment == .production ? .production : .sandbox
    }
}
