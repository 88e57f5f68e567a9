// Broadcast channels on the device side: devices subscribe to an app's channels; an accepted
// broadcast fans out to the subscribers. Online: at once. Offline: only on a channel that stores
// (message-storage-policy 1), only the latest broadcast, for at most 8 hours (and never past its
// apns-expiration; 0 is never stored).

import APNs

extension DeviceRegistry {
    /// How many subscribers a broadcast reached now, and how many keep it for later.
    public struct BroadcastOutcome: Sendable, Equatable {
        public var delivered = 0
        public var stored = 0

        public init(delivered: Int = 0, stored: Int = 0) {
            self.delivered = delivered
            self.stored = stored
        }
    }

    /// Subscribes the device to `channelID` of `bundleID` (default: the device's own app, the only
    /// one allowed).
    public func subscribe(_ deviceToken: String, bundleID: String? = nil, channelID: String) throws(DeviceError) {
        guard !channelID.isEmpty else {
            throw .invalid(field: "channel-id", rule: "is empty; give the channel's base64 id")
        }
        let now = milliseconds()
        let outcome = state.withLock { state -> DeviceError? in
            guard let device = state.devices[deviceToken] else { return .unknownDevice(deviceToken) }
            let app = bundleID ?? device.bundleID
            guard app == device.bundleID else {
                return .invalid(
                    field: "bundle-id", rule: "is \(app), but the device is registered for \(device.bundleID)")
            }
            let key = ChannelKey(bundleID: app, channelID: channelID)
            if state.devices[deviceToken]?.subscriptions.insert(key).inserted == true {
                records?.enqueue(
                    .subscribe(
                        StoredSubscription(
                            deviceID: deviceToken, bundleID: app, channelID: channelID, subscribedAt: now)))
            }
            return nil
        }
        if let outcome { throw outcome }
        records?.write()
    }

    /// Fans an accepted broadcast out to the devices subscribed to `channelID` of `bundleID`.
    ///
    /// `expiration` is the request's `apns-expiration` (UNIX seconds, 0: never stored; nil: none);
    /// `storesLatest` is the channel's message-storage-policy 1. `payload` is the request body.
    @discardableResult
    public func deliverBroadcast(
        bundleID: String, channelID: String, payload: [UInt8], expiration: Int?, storesLatest: Bool,
        requestID: String? = nil, priority: Int = 10
    ) -> BroadcastOutcome {
        let now = clock()
        let key = ChannelKey(bundleID: bundleID, channelID: channelID)
        let body = (try? JSONValue(parsing: payload)) ?? .string(String(decoding: payload, as: UTF8.self))
        let apnsID = requestID ?? APNsID.random().value
        let keepUntil = min(expiration ?? .max, now + Self.broadcastStorageSeconds)
        let keeps = storesLatest && expiration != 0 && keepUntil > now
        let receivedAt = milliseconds()
        let outcome = state.withLock { state in
            var outcome = BroadcastOutcome()
            for (token, device) in state.devices where device.subscriptions.contains(key) {
                let notification = DeviceNotification(
                    apnsID: apnsID, token: token, topic: bundleID + ".push-type.liveactivity", pushType: "liveactivity",
                    priority: priority, expiration: expiration, channelID: channelID, payload: body,
                    receivedAt: receivedAt)
                if let sink = device.sink {
                    sink.deliver(notification)
                    outcome.delivered += 1
                } else if keeps {
                    state.devices[token]?.storedBroadcasts[key] = (notification, keepUntil)
                    records?.enqueue(
                        .keep(
                            notification, deviceID: token, bundleID: bundleID,
                            expiresAt: Self.milliseconds(keepUntil)))
                    outcome.stored += 1
                }
            }
            return outcome
        }
        if outcome.stored > 0 { records?.write() }
        return outcome
    }
}
