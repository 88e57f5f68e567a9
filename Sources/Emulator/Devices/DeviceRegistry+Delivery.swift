// Store and forward (APNS-REFERENCE.md, "Store and forward"): an online device gets a push on its
// stream at once; an offline one keeps only the latest push per app (a collapse id's twin is
// replaced with the rest), never one with `apns-expiration: 0`, and drops expired ones when it
// comes back. On reconnect the stored push goes first, then stored broadcasts.

import APNs

extension DeviceRegistry {
    /// What became of a push to a token.
    public enum Outcome: Sendable, Equatable {
        /// Written to the device's open stream.
        case delivered
        /// The device is offline: kept for its return, replacing the app's earlier stored push.
        case stored
        /// The device is offline and the push cannot wait (`apns-expiration` 0, or already past).
        case notStored(reason: String)
        /// No registered device holds the token (open mode accepts and logs such pushes).
        case unknownToken
    }

    /// Routes an accepted push to the device that holds its token; the notification (which parses
    /// the payload) is made only when a device does, so pushes to other tokens cost a lookup.
    @discardableResult
    public func deliver(_ push: AcceptedPush, receivedAt: Int) -> Outcome {
        guard route(for: push.token.hex) != nil else { return .unknownToken }
        return deliver(DeviceNotification(push, receivedAt: receivedAt))
    }

    /// Routes a push to the device that holds `notification.token`.
    @discardableResult
    public func deliver(_ notification: DeviceNotification) -> Outcome {
        let now = clock()
        let outcome = state.withLock { state -> Outcome in
            guard let route = state.routes[notification.token], let device = state.devices[route.deviceToken] else {
                return .unknownToken
            }
            if let sink = device.sink {
                sink.deliver(notification)
                return .delivered
            }
            if notification.expiration == 0 {
                return .notStored(reason: "apns-expiration is 0: delivered now or never")
            }
            guard Self.isLive(notification, now: now) else { return .notStored(reason: "apns-expiration has passed") }
            state.devices[route.deviceToken]?.stored[notification.bundleID] = notification
            records?.enqueue(
                .keep(
                    notification, deviceID: route.deviceToken, bundleID: notification.bundleID,
                    expiresAt: Self.milliseconds(Self.storedUntil(notification))))
            return .stored
        }
        if outcome == .stored { records?.write() }
        return outcome
    }

    /// The device is listening through `sink` (a second listener replaces the first, whose stream
    /// is finished). What was stored for it is handed over first, expired pushes dropped, before
    /// `connect` returns. Returns the connection's id for ``disconnect(_:connection:)``.
    public func connect(_ deviceToken: String, sink: any DeviceSink) throws(DeviceError) -> UInt64 {
        let now = clock()
        let (connection, handedOver) = state.withLock { state -> (UInt64?, Bool) in
            guard var device = state.devices[deviceToken] else { return (nil, false) }
            let handedOver = !device.stored.isEmpty || !device.storedBroadcasts.isEmpty
            if handedOver { records?.enqueue(.handedOver(deviceID: deviceToken)) }
            state.lastConnection += 1
            device.sink?.finish()
            device.sink = sink
            device.connection = state.lastConnection
            for notification in device.stored.values.sorted(by: { $0.receivedAt < $1.receivedAt })
            where Self.isLive(notification, now: now) {
                sink.deliver(notification)
            }
            device.stored = [:]
            for kept in device.storedBroadcasts.values.sorted(by: {
                $0.notification.receivedAt < $1.notification.receivedAt
            })
            where kept.until > now {
                sink.deliver(kept.notification)
            }
            device.storedBroadcasts = [:]
            state.devices[deviceToken] = device
            Self.resumeWaiters(&state, deviceToken)
            return (state.lastConnection, handedOver)
        }
        guard let connection else { throw .unknownDevice(deviceToken) }
        if handedOver { records?.write() }
        return connection
    }

    /// The listener of `connection` went away (stream reset, connection lost): the device is
    /// offline unless it has connected again since.
    public func disconnect(_ deviceToken: String, connection: UInt64) {
        state.withLock { state in
            guard state.devices[deviceToken]?.connection == connection else { return }
            state.devices[deviceToken]?.sink = nil
            Self.resumeWaiters(&state, deviceToken)
        }
    }

    /// Not yet expired at `now`: before `apns-expiration`, or within APNs's default storage when
    /// the push had none.
    static func isLive(_ notification: DeviceNotification, now: Int) -> Bool {
        now < storedUntil(notification)
    }

    /// Until when (UNIX seconds) a stored push may still be handed over.
    static func storedUntil(_ notification: DeviceNotification) -> Int {
        notification.expiration ?? (notification.receivedAt / 1000 + Expiration.maximumStorageSeconds)
    }
}
