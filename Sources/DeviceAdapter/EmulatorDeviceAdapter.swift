import APNs
import DeviceModel
import Emulator
import HTTP2

/// Connects a model `Device` to `herald emulator`: each installed app becomes a simulated device on the
/// emulator's device API (the protocol of `herald device listen`), the model's tokens are the ones the
/// emulator handed out, and every push the emulator delivers is fed into the model with `Device.receive`.
///
/// ```
///  herald send --> emulator --/device/v1/devices/<token>/notifications--> adapter --receive--> Device
///                     ^                                                                   |
///                     +---- tokens (device, live-activity, push-to-start) <-- TokenIssuer -+
/// ```
/// The model stays pure: the adapter owns the I/O and decides when the model runs (a push arrived, or
/// scheduled work fell due on the device's clock, which should be a `SystemClock`).
///
/// ```swift
/// let device = Device(clock: SystemClock())
/// let app = device.install(AppConfiguration(bundleID: "com.example.app"))
/// let adapter = EmulatorDeviceAdapter(device: device, endpoint: endpoint, loop: loop)
/// try await adapter.connect()
/// app.registerForRemoteNotifications()          // the emulator's token: a backend can push to it
/// try await adapter.receive(count: 1, timeout: 30)
/// adapter.close()
/// ```
/// Thread-safety: not thread-safe, like the device; use both from one task. Lifecycle: `connect()` opens a
/// connection per app; `close()` ends them (call it before shutting the loop down).
public final class EmulatorDeviceAdapter {
    public let device: Device
    let endpoint: SimulatedDevice.Endpoint
    let loop: EventLoop
    let issuer = EmulatorTokenIssuer()
    private var simulated: [String: SimulatedDevice] = [:]
    private var listeners: [Task<Void, Never>] = []
    private let events: AsyncStream<AdapterEvent>
    private let continuation: AsyncStream<AdapterEvent>.Continuation
    private var iterator: AsyncStream<AdapterEvent>.AsyncIterator
    private var nextTimer = 0
    /// The device-clock time a wake-up timer is set for, so one is not set twice.
    private var armedWake: DeviceInstant?
    /// How many Live Activity update tokens each app keeps in reserve.
    public var liveActivityTokenReserve = 2
    /// How many spare simulated devices each app keeps registered, so that a token the model rotates (reinstall,
    /// backup restore) is one the emulator routes; 0: a rotated token reaches only the model.
    public var rotationReserve = 1
    /// Every simulated device the adapter registered and listens to (rotated ones included), to close them.
    private var listened: [SimulatedDevice] = []
    /// Pushes fed into the model so far.
    public private(set) var received = 0
    /// The broadcast channels each app's simulated device subscribed to, by bundle id.
    private var subscribed: [String: Set<String>] = [:]

    public init(device: Device, endpoint: SimulatedDevice.Endpoint, loop: EventLoop) {
        self.device = device
        self.endpoint = endpoint
        self.loop = loop
        (events, continuation) = AsyncStream<AdapterEvent>.makeStream()
        iterator = events.makeAsyncIterator()
    }

    /// Registers every installed app (with an `aps-environment`) as a simulated device on the emulator, asks
    /// for Live Activity tokens and `pushToStartTypes.count` push-to-start tokens per app, starts listening,
    /// and makes the emulator's tokens the model's.
    public func connect(pushToStartTypes: Int = 0) async throws(SimulatedDeviceError) {
        device.tokenIssuer = issuer
        for app in device.apps {
            guard let environment = app.configuration.entitlements.apsEnvironment else { continue }
            let registered = try await SimulatedDevice.register(
                at: endpoint, topic: app.bundleID, environment: environment == .production ? .production : .sandbox,
                on: loop)
            simulated[app.bundleID] = registered
            issuer.deviceTokens[app.bundleID] = try [UInt8](tokenHex: registered.token)
            for _ in 0..<pushToStartTypes {
                issuer.pushToStartTokens[app.bundleID, default: []].append(
                    try await [UInt8](tokenHex: registered.registerToken(.pushToStart)))
            }
            try await refillLiveActivityTokens(app.bundleID)
            try await refillSpareDevices(app.bundleID)
            listen(to: registered)
        }
    }

    private func listen(to registered: SimulatedDevice) {
        listened.append(registered)
        let stream = registered.notifications()
        let continuation = continuation
        listeners.append(
            Task {
                do {
                    for try await notification in stream { continuation.yield(.push(notification)) }
                    continuation.yield(.streamEnded(nil))
                } catch {
                    continuation.yield(.streamEnded("\(error)"))
                }
            })
    }

    /// Registers spare devices for `bundleID` up to `rotationReserve`.
    private func refillSpareDevices(_ bundleID: String) async throws(SimulatedDeviceError) {
        guard let app = device.app(bundleID), let environment = app.configuration.entitlements.apsEnvironment else {
            return
        }
        while issuer.spareDevices[bundleID, default: []].count < rotationReserve {
            let spare = try await SimulatedDevice.register(
                at: endpoint, topic: bundleID, environment: environment == .production ? .production : .sandbox,
                on: loop)
            issuer.spareDevices[bundleID, default: []].insert(spare, at: 0)
        }
    }

    /// Listens to the devices whose tokens the model handed out for a rotation since the last look, makes each
    /// its app's device, and registers new spares. The old device stays registered and listened to: what a
    /// backend still sends to the old token reaches the model, which drops it (REG-TOKEN-NOT-CURRENT).
    public func followRotatedTokens() async throws(SimulatedDeviceError) {
        let handedOut = issuer.handedOut
        issuer.handedOut = []
        for (bundleID, rotated) in handedOut {
            simulated[bundleID] = rotated
            listen(to: rotated)
            try await refillSpareDevices(bundleID)
        }
    }

    /// The emulator's device for an app (its token is the app's device token).
    public func simulatedDevice(for bundleID: String) -> SimulatedDevice? { simulated[bundleID] }

    /// Feeds pushes into the model until `count` more arrived; throws `timedOut` after `timeout` seconds.
    public func receive(count: Int, timeout: Double) async throws(EmulatorDeviceAdapterError) {
        let target = received + count
        let timer = startTimer(after: timeout)
        while received < target {
            if try await step(timer: timer) { throw .timedOut(received: count - (target - received), of: count) }
        }
    }

    /// Feeds pushes into the model, and runs its scheduled work when due, for `seconds` of real time.
    public func run(for seconds: Double) async throws(EmulatorDeviceAdapterError) {
        let timer = startTimer(after: seconds)
        while try await !step(timer: timer) {}
    }

    /// A handle that stops a `receive` or `run` in progress from another task (Ctrl-C): it throws `stopped`.
    public var stopper: @Sendable () -> Void {
        let continuation = continuation
        return { continuation.yield(.stop) }
    }

    /// Ends the connections: the emulator sees the devices go offline (they stay registered).
    public func close() {
        for listener in listeners { listener.cancel() }
        for device in listened { device.close() }
        for spares in issuer.spareDevices.values { for spare in spares { spare.close() } }
        continuation.finish()
    }

    /// Subscribes each app's simulated device to the channels its activities listen to and it has not subscribed
    /// to yet (the model starts a channel activity at once; the emulator hears of it here, before the next wait).
    public func subscribeChannels() async throws(SimulatedDeviceError) {
        for app in device.apps {
            guard let registered = simulated[app.bundleID] else { continue }
            for channel in app.subscribedChannels where !subscribed[app.bundleID, default: []].contains(channel) {
                try await registered.subscribe(channelID: channel)
                subscribed[app.bundleID, default: []].insert(channel)
            }
        }
    }

    /// Waits for one event and handles it; true when `timer` fired.
    private func step(timer: Int) async throws(EmulatorDeviceAdapterError) -> Bool {
        device.runDueEvents()
        do {
            try await followRotatedTokens()
            try await subscribeChannels()
        } catch {
            throw .refused("\(error)")
        }
        if let due = device.nextEventTime, due != armedWake {
            armedWake = due
            _ = startTimer(after: max(0, due - device.clock.now) + 0.001)
        }
        guard let event = await iterator.next() else { throw .stopped }
        switch event {
        case .timer(let id):
            device.runDueEvents()
            return id == timer
        case .push(let notification):
            feed(notification)
            for bundleID in simulated.keys { try? await refillLiveActivityTokens(bundleID) }
        case .streamEnded(let problem):
            throw .streamEnded(problem ?? "the emulator ended the device stream (unregistered, or another listener)")
        case .stop:
            throw .stopped
        }
        return false
    }

    private func feed(_ notification: DeviceNotification) {
        guard let token = try? DeviceToken(hex: notification.token) else { return }
        received += 1
        device.receive(
            RemotePush(
                token: token, pushType: PushType(rawValue: notification.pushType) ?? .alert,
                collapseID: notification.collapseID, apnsID: notification.apnsID,
                payload: notification.payload.encoded(), priority: notification.priority,
                channelID: notification.channelID))
    }

    private func startTimer(after seconds: Double) -> Int {
        nextTimer += 1
        let id = nextTimer
        let continuation = continuation
        let delay = seconds.isFinite ? min(max(0, seconds), 86_400 * 365) : 86_400 * 365
        Task {
            try? await Task.sleep(for: .seconds(delay))
            continuation.yield(.timer(id))
        }
        return id
    }

    private func refillLiveActivityTokens(_ bundleID: String) async throws(SimulatedDeviceError) {
        guard let registered = simulated[bundleID] else { return }
        while issuer.liveActivityTokens[bundleID, default: []].count < liveActivityTokenReserve {
            issuer.liveActivityTokens[bundleID, default: []].insert(
                try [UInt8](tokenHex: try await registered.registerToken(.liveActivity)), at: 0)
        }
    }
}

enum AdapterEvent: Sendable {
    case push(DeviceNotification)
    case timer(Int)
    case streamEnded(String?)
    case stop
}

/// Why the adapter stopped feeding the model.
public enum EmulatorDeviceAdapterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Fewer pushes than asked for arrived in time.
    case timedOut(received: Int, of: Int)
    /// The emulator ended a device's stream, or it failed.
    case streamEnded(String)
    /// `stopper` was called, or the adapter was closed.
    case stopped
    /// The emulator refused a request the adapter made for the model (a channel subscription, a token).
    case refused(String)

    public var description: String {
        switch self {
        case .timedOut(let received, let count): "\(received) of \(count) pushes arrived before the timeout"
        case .streamEnded(let problem): problem
        case .stopped: "stopped"
        case .refused(let problem): problem
        }
    }
}
