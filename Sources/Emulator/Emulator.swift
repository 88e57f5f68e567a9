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
    /// Simulated devices: registration, their streams, store-and-forward, channels.
    public let devices: DeviceRegistry

    private init(server: HTTP2Server, log: DeliveryLog, tokens: TokenRegistry, devices: DeviceRegistry) {
        self.server = server
        self.log = log
        self.tokens = tokens
        self.devices = devices
    }

    /// Starts serving on `host:port` (0: any free port), over TLS when `tls` is given, else h2c.
    public static func start(
        _ configuration: EmulatorConfiguration, host: String = "127.0.0.1", port: UInt16 = 0, tls: TLSContext? = nil,
        loops: EventLoopGroup, clock: @escaping @Sendable () -> Int = ProviderTokenCache.systemClock
    ) async throws(HTTP2ConnectionError) -> Emulator {
        let log = DeliveryLog(capacity: configuration.deliveryLogCapacity)
        let tokens = TokenRegistry()
        let devices = DeviceRegistry(unregistered: tokens, clock: clock)
        let handler = EmulatorHandler(
            configuration: configuration, log: log, tokens: tokens, clock: clock, devices: devices)
        var session = HTTP2SessionConfiguration()
        session.maxConcurrentStreams = configuration.initialMaxConcurrentStreams
        session.maxBodySize = PayloadLimits.voip + 1
        let server = try await HTTP2Server.start(
            configuration: HTTP2Server.Configuration(loops: loops, host: host, port: port, tls: tls, session: session),
            handler: handler)
        return Emulator(server: server, log: log, tokens: tokens, devices: devices)
    }

    public var port: Int { Int(server.port) }

    public func shutdown() async {
        await server.shutdown()
    }
}
