// The emulator's simulated devices: who holds which token, whether they are listening, and what
// waits for them. One Mutex guards it all; sinks are called under it (see DeviceSink).
//
//   register ──> offline ──connect(sink)──> online ──disconnect / stream ends──> offline
//                   │  stored: the latest push per app (expiration 0 never; expired ones dropped
//                   │          when delivered), the latest broadcast per channel (policy 1, 8 h)
//                   └──unregister──> gone: every token of the device answers 410 (TokenRegistry)
//
// Tokens: the device's own (32 random bytes) and its Live Activity / push-to-start tokens (80
// random bytes, like the 160-digit ones seen in the field) all route to the same device.
//
// With a store (DeviceRegistry+Records.swift), every change above is queued under the lock and
// written after it (DeviceRecordWriter), and a restarted emulator gets its devices back, offline.
// Memory stays the source of every answer; pushes to tokens no device holds never reach the store.

import APNs
import HTTP2
import Synchronization

/// The emulator's simulated devices and their tokens.
///
/// Thread-safety: `Sendable`; every member may be called from any thread (one `Mutex` inside).
/// Lifecycle: lives as long as its emulator; devices stay until unregistered.
public final class DeviceRegistry: Sendable {
    /// Where a token leads.
    public struct Route: Sendable, Equatable {
        /// The device's own token.
        public let deviceToken: String
        public let bundleID: String
        public let environment: DeviceEnvironment
        public let kind: DeviceTokenKind
    }

    struct Device {
        let bundleID: String
        let environment: DeviceEnvironment
        var tokens: [String]
        var sink: (any DeviceSink)?
        var connection: UInt64 = 0
        /// The one stored push per app, by bundle id.
        var stored: [String: DeviceNotification] = [:]
        var subscriptions: Set<ChannelKey> = []
        /// The latest broadcast per channel (policy 1) and until when it is kept (UNIX seconds).
        var storedBroadcasts: [ChannelKey: (notification: DeviceNotification, until: Int)] = [:]
    }

    struct ChannelKey: Hashable {
        let bundleID: String
        let channelID: String
    }

    struct State {
        var devices: [String: Device] = [:]
        var routes: [String: Route] = [:]
        var lastConnection: UInt64 = 0
        /// Callers of `waitForPresence`, resumed when their device comes online or goes offline.
        var presenceWaiters: [PresenceWaiter] = []
        var lastWaiter: UInt64 = 0
    }

    let state = AnnotatedMutex(State())
    /// Unregistered tokens, shared with the emulator's 410 answers.
    public let unregistered: TokenRegistry
    /// UNIX seconds; injected so tests can move time.
    let clock: @Sendable () -> Int
    /// Milliseconds since 1970, for the times the registry writes (receive, subscribe, unregister).
    let milliseconds: @Sendable () -> Int
    /// Where changes are written through to, when the emulator has a store.
    let records: DeviceRecordWriter?
    /// How long a policy-1 channel keeps its latest broadcast for an offline device.
    public static let broadcastStorageSeconds = 8 * 3600

    /// A registry in memory only. `clock` (UNIX seconds) and `millisecondClock` replace the system's
    /// clock; given one, the other follows it.
    public init(
        unregistered: TokenRegistry = TokenRegistry(),
        clock: (@Sendable () -> Int)? = nil, millisecondClock: (@Sendable () -> Int)? = nil
    ) {
        let clocks = EmulatorClock.resolve(seconds: clock, milliseconds: millisecondClock)
        self.unregistered = unregistered
        self.clock = clocks.seconds
        self.milliseconds = clocks.milliseconds
        records = nil
    }

    /// A registry that starts from `state` and writes its changes to `records`.
    init(unregistered: TokenRegistry, clock: EmulatorClock, records: DeviceRecordWriter, state: State) {
        self.unregistered = unregistered
        self.clock = clock.seconds
        self.milliseconds = clock.milliseconds
        self.records = records
        self.state.withLock { $0 = state }
    }

    // MARK: Registration

    /// Registers a device for `bundleID` in `environment` and returns its new token (64 hex digits).
    public func register(bundleID: String, environment: DeviceEnvironment) throws(DeviceError) -> String {
        if let problem = Topic.bundleIDProblem(bundleID) { throw .invalid(field: "topic", rule: problem) }
        let token = Self.randomToken(bytes: 32)
        let milliseconds = milliseconds()
        let full = state.withLock { state -> Bool in
            guard state.devices.count < Self.maximumDevices else { return true }
            state.devices[token] = Device(bundleID: bundleID, environment: environment, tokens: [token])
            state.routes[token] = Route(deviceToken: token, bundleID: bundleID, environment: environment, kind: .device)
            records?.enqueue(
                .register(
                    StoredDevice(
                        id: token, token: token, bundleID: bundleID, environment: .init(environment),
                        createdAt: milliseconds)))
            return false
        }
        if full {
            throw DeviceError(
                status: 429,
                reason: "devices: the emulator already holds \(Self.maximumDevices) devices; unregister some")
        }
        records?.write()
        return token
    }

    /// The most simulated devices one emulator holds (registration beyond it is refused with 429),
    /// and the most Live Activity and push-to-start tokens one device holds: memory and the store
    /// stay bounded whatever clients do.
    public static let maximumDevices = 100_000
    public static let maximumTokensPerDevice = 1_000

    /// Gives the device a Live Activity or push-to-start token (160 hex digits) that routes to it.
    public func registerToken(_ kind: DeviceTokenKind, for deviceToken: String) throws(DeviceError) -> String {
        guard kind != .device else { throw .invalid(field: "kind", rule: "use \"live-activity\" or \"push-to-start\"") }
        let token = Self.randomToken(bytes: 80)
        let milliseconds = milliseconds()
        let added = state.withLock { state -> Bool? in
            guard let device = state.devices[deviceToken] else { return false }
            guard device.tokens.count <= Self.maximumTokensPerDevice else { return nil }
            state.devices[deviceToken]?.tokens.append(token)
            state.routes[token] = Route(
                deviceToken: deviceToken, bundleID: device.bundleID, environment: device.environment, kind: kind)
            records?.enqueue(
                .addToken(
                    StoredActivityToken(
                        token: token, deviceID: deviceToken, kind: kind == .pushToStart ? .pushToStart : .liveActivity,
                        createdAt: milliseconds)))
            return true
        }
        guard let added else {
            throw DeviceError(
                status: 429, reason: "tokens: the device already holds \(Self.maximumTokensPerDevice) tokens")
        }
        guard added else { throw .unknownDevice(deviceToken) }
        records?.write()
        return token
    }

    /// Unregisters the device `deviceToken`: its stream ends, and pushes to any of its tokens answer
    /// 410 Unregistered with this moment's timestamp from now on.
    public func unregister(_ deviceToken: String) throws(DeviceError) {
        let milliseconds = milliseconds()
        let device = state.withLock { state -> Device? in
            guard let device = state.devices.removeValue(forKey: deviceToken) else { return nil }
            for token in device.tokens { state.routes[token] = nil }
            device.sink?.finish()
            Self.resumeWaiters(&state, deviceToken)
            records?.enqueue(.unregister(deviceID: deviceToken))
            return device
        }
        guard let device else { throw .unknownDevice(deviceToken) }
        records?.write()
        for token in device.tokens { unregistered.unregisterDeviceToken(token, at: milliseconds) }
    }

    /// Where `token` (lowercase hex) leads, if a registered device holds it.
    public func route(for token: String) -> Route? {
        state.withLock { $0.routes[token] }
    }

    /// Whether any token is routed to a device (the emulator's hot path asks before it makes the
    /// token's String).
    var hasRoutes: Bool {
        state.withLock { !$0.routes.isEmpty }
    }

    /// Whether the device is listening now.
    public func isOnline(_ deviceToken: String) -> Bool {
        state.withLock { $0.devices[deviceToken]?.sink != nil }
    }

    /// The device's stored pushes (one per app), for tests and the control API.
    public func storedNotifications(for deviceToken: String) -> [DeviceNotification] {
        state.withLock { state in
            (state.devices[deviceToken]?.stored.values).map { Array($0) } ?? []
        }
    }

    static func randomToken(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
        }
        return Hex.encode(bytes)
    }
}
