import APNs
import HTTP2

/// An APNs-compatible server: `POST /3/device/<token>` answered with Apple's statuses, reasons and
/// headers, and a delivery log to assert on.
///
/// Lifecycle: `start` binds and serves on the given loops; `shutdown` closes every connection.
/// Thread-safety: `Sendable`; the log may be read while it serves.
public final class Emulator: Sendable {
    public let server: HTTP2Server
    public let log: DeliveryLog
    /// Unregistered tokens (410); tests may unregister directly or through the control API.
    public let tokens: TokenRegistry
    /// Faults injected into provider requests; tests may declare them directly or through the control API.
    public let faults: FaultInjector
    /// Broadcast channels (`/1/apps/<bundle-id>/channels`); tests may create and inspect them directly.
    public let channels: ChannelStore
    /// Simulated devices: registration, their streams, store-and-forward, channels.
    public let devices: DeviceRegistry
    let broadcastHook: BroadcastHook

    private init(
        server: HTTP2Server, log: DeliveryLog, tokens: TokenRegistry, faults: FaultInjector, channels: ChannelStore,
        devices: DeviceRegistry, hook: BroadcastHook
    ) {
        self.server = server
        self.log = log
        self.tokens = tokens
        self.faults = faults
        self.channels = channels
        self.devices = devices
        self.broadcastHook = hook
    }

    /// Starts serving on `host:port` (0: any free port), over TLS when `tls` is given, else h2c.
    public static func start(
        _ configuration: EmulatorConfiguration, host: String = "127.0.0.1", port: UInt16 = 0, tls: TLSContext? = nil,
        loops: EventLoopGroup, clock: @escaping @Sendable () -> Int = ProviderTokenCache.systemClock
    ) async throws(HTTP2ConnectionError) -> Emulator {
        let log = DeliveryLog(capacity: configuration.deliveryLogCapacity)
        let tokens = TokenRegistry()
        let faults = FaultInjector()
        let channels = ChannelStore(limitPerApp: configuration.channelLimitPerApp)
        let hook = BroadcastHook()
        let devices = DeviceRegistry(unregistered: tokens, clock: clock)
        let handler = EmulatorHandler(
            configuration: configuration, log: log, tokens: tokens, faults: faults, clock: clock, channels: channels,
            broadcastHook: hook, devices: devices)
        var session = HTTP2SessionConfiguration()
        session.maxConcurrentStreams = configuration.initialMaxConcurrentStreams
        session.maxBodySize = PayloadLimits.voip + 1
        var serverConfiguration = HTTP2Server.Configuration(
            loops: loops, host: host, port: port, tls: tls, session: session, idleTimeout: configuration.idleTimeout)
        serverConfiguration.idleGoAwayDebugData = Reason.idleTimeout.goAwayDebugData
        serverConfiguration.shutdownGoAwayDebugData = Reason.shutdown.goAwayDebugData
        let server = try await HTTP2Server.start(configuration: serverConfiguration, handler: handler)
        handler.server.set(server)
        return Emulator(
            server: server, log: log, tokens: tokens, faults: faults, channels: channels, devices: devices, hook: hook)
    }

    public var port: Int { Int(server.port) }

    public func shutdown() async {
        await server.shutdown()
    }
}

extension Reason {
    /// `{"reason":"..."}`, as APNs puts it in GOAWAY debug data.
    var goAwayDebugData: [UInt8] {
        JSONValue.object(JSONObject([.init(key: "reason", value: .string(rawValue))])).encoded()
    }
}
