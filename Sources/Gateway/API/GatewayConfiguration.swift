import APNs
import Glibc
import HTTP2

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
    /// TLS for the API (ALPN offering h2 and http/1.1); nil serves h2c and plain HTTP/1.1.
    public var tls: TLSContext?
    /// Milliseconds since 1970: `registered-at` and every other time the gateway records.
    public var clock: @Sendable () -> Int
    /// What `GET /metrics` serves: give the same object to the `DeliveryEngine`.
    public var metrics = GatewayMetrics()
    /// Called with the id of each notification `POST /notifications` creates (not for a repeated
    /// idempotency key), after it is committed and before the 202 is sent: the delivery engine's cue
    /// to expand and send it now. A scheduled one is announced too; its expansion waits for send-at.
    /// Runs on the request's task: return quickly.
    public var onNotificationCreated: (@Sendable (NotificationID) -> Void)? = nil

    public init(
        apps: [App], host: String = "127.0.0.1", port: UInt16 = 0, bodyLimit: Int = 1 << 20, tls: TLSContext? = nil,
        clock: @escaping @Sendable () -> Int = GatewayConfiguration.systemMillisecondClock
    ) {
        self.apps = Dictionary(apps.map { ($0.bundleID, $0) }, uniquingKeysWith: { _, last in last })
        self.host = host
        self.port = port
        self.bodyLimit = bodyLimit
        self.tls = tls
        self.clock = clock
    }

    /// Milliseconds since 1970 from the system's real-time clock.
    public static let systemMillisecondClock: @Sendable () -> Int = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
