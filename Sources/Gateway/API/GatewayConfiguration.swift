import APNs
import Glibc

/// What one ``GatewayServer`` serves: its apps, where it listens, its limits.
///
/// Thread-safety: a value type; `Sendable`.
public struct GatewayConfiguration: Sendable {
    /// The apps by bundle id; a path naming any other app is answered 404.
    public var apps: [String: App]
    /// A numeric address ("127.0.0.1", "::") or a name, resolved once at start.
    public var host: String
    /// 0 picks a free port; read it back from ``GatewayServer/port``.
    public var port: UInt16
    /// The largest request body accepted; a larger one is answered 413 unread.
    public var bodyLimit: Int
    /// Milliseconds since 1970: `registered-at` and every other time the gateway records.
    public var clock: @Sendable () -> Int
    /// What `GET /metrics` serves: give the same object to the `DeliveryEngine`.
    public var metrics = GatewayMetrics()

    public init(
        apps: [App], host: String = "127.0.0.1", port: UInt16 = 0, bodyLimit: Int = 1 << 20,
        clock: @escaping @Sendable () -> Int = GatewayConfiguration.systemMillisecondClock
    ) {
        self.apps = Dictionary(apps.map { ($0.bundleID, $0) }, uniquingKeysWith: { _, last in last })
        self.host = host
        self.port = port
        self.bodyLimit = bodyLimit
        self.clock = clock
    }

    /// Milliseconds since 1970 from the system's real-time clock.
    public static let systemMillisecondClock: @Sendable () -> Int = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
