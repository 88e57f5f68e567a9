import APNs
import HTTP2

/// An APNs-compatible server: `POST /3/device/<token>` answered with Apple's statuses, reasons and
/// headers, and a delivery log to assert on.
///
/// Lifecycle: `start` binds and serves on the given loops; `shutdown` closes every connection.
/// Thread-safety: `Sendable`; the log may be read while it serves.
public final class Emulator: Sendable {
    public let server: HTTP2Server
    /// Faults injected into provider requests; tests may declare them directly or through the control API.
    public let faults: FaultInjector
    let broadcastHook: BroadcastHook
    /// The in-memory state and its store (see Emulator+Store.swift).
    let state: EmulatorState
    /// The request handler, which the console's listener shares for `/control/v1/` (EmulatorConsole).
    let handler: EmulatorHandler

    public var log: DeliveryLog { state.log }
    /// Unregistered tokens (410); tests may unregister directly or through the control API.
    public var tokens: TokenRegistry { state.tokens }
    /// Broadcast channels (`/1/apps/<bundle-id>/channels`); tests may create and inspect them directly.
    public var channels: ChannelStore { state.channels }
    /// Simulated devices: registration, their streams, store-and-forward, channels.
    public var devices: DeviceRegistry { state.devices }

    private init(
        server: HTTP2Server, state: EmulatorState, faults: FaultInjector, hook: BroadcastHook, handler: EmulatorHandler
    ) {
        self.server = server
        self.handler = handler
        self.faults = faults
        self.broadcastHook = hook
        self.state = state
    }

    /// Starts serving on `host:port` (0: any free port), over TLS when `tls` is given, else h2c.
    /// Its state lives in memory only; `start(_:store:...)` keeps it in a store.
    /// `clock` (UNIX seconds) and `millisecondClock` (milliseconds since 1970) replace the system's
    /// clock; given one, the other follows it.
    public static func start(
        _ configuration: EmulatorConfiguration, host: String = "127.0.0.1", port: UInt16 = 0, tls: TLSContext? = nil,
        loops: EventLoopGroup, clock: (@Sendable () -> Int)? = nil, millisecondClock: (@Sendable () -> Int)? = nil
    ) async throws(HTTP2ConnectionError) -> Emulator {
        let clock = EmulatorClock.resolve(seconds: clock, milliseconds: millisecondClock)
        return try await start(
            configuration, state: EmulatorState(configuration: configuration, clock: clock), host: host, port: port,
            tls: tls, loops: loops, clock: clock)
    }

    static func start(
        _ configuration: EmulatorConfiguration, state: EmulatorState, host: String, port: UInt16, tls: TLSContext?,
        loops: EventLoopGroup, clock: EmulatorClock
    ) async throws(HTTP2ConnectionError) -> Emulator {
        let faults = FaultInjector(limit: configuration.faultLimit)
        let hook = BroadcastHook()
        let handler = EmulatorHandler(
            configuration: configuration, log: state.log, tokens: state.tokens, faults: faults, clock: clock.seconds,
            milliseconds: clock.milliseconds,
            channels: state.channels, broadcastHook: hook, devices: state.devices, storeStatus: state.status)
        var session = HTTP2SessionConfiguration()
        session.maxConcurrentStreams = configuration.initialMaxConcurrentStreams
        session.maxBodySize = PayloadLimits.voip + 1
        var serverConfiguration = HTTP2Server.Configuration(
            loops: loops, host: host, port: port, tls: tls, session: session, idleTimeout: configuration.idleTimeout)
        serverConfiguration.idleGoAwayDebugData = Reason.idleTimeout.goAwayDebugData
        serverConfiguration.shutdownGoAwayDebugData = Reason.shutdown.goAwayDebugData
        serverConfiguration.firstRequestTimeout = configuration.firstRequestTimeout
        serverConfiguration.maximumConnections = configuration.maximumConnections
        serverConfiguration.refusesConnectionsOverLimit = true
        let server = try await HTTP2Server.start(configuration: serverConfiguration, handler: handler)
        handler.server.set(server)
        return Emulator(server: server, state: state, faults: faults, hook: hook, handler: handler)
    }

    public var port: Int { Int(server.port) }

    /// Closes every connection, then writes what the delivery log's writer still holds to the store.
    public func shutdown() async {
        await server.shutdown()
        await state.shutdown()
    }
}

extension Reason {
    /// `{"reason":"..."}`, as APNs puts it in GOAWAY debug data.
    var goAwayDebugData: [UInt8] {
        JSONValue.object(JSONObject([.init(key: "reason", value: .string(rawValue))])).encoded()
    }
}
