import HTTP2

/// The gateway's HTTP API on one port, HTTP/1.1 and HTTP/2 (h2c with prior knowledge), over a
/// ``GatewayStore``; over TLS with ALPN (h2, http/1.1) when the configuration has a TLS context.
///
/// Lifecycle: ``start(configuration:store:loops:apns:)`` binds and serves, and samples the metrics into
/// their history (`GET /v1/metrics/history`) every interval; ``shutdown()`` stops both and closes every
/// connection. The caller owns the loops and the store: shut the server down first.
/// Thread-safety: `Sendable`.
public final class GatewayServer: Sendable {
    public let configuration: GatewayConfiguration
    private let server: HTTP2Server
    /// Samples the metrics into their history every interval until shutdown.
    private let sampler: Task<Void, Never>

    /// The port the API listens on (the real one when the configuration asked for 0).
    public var port: UInt16 { server.port }

    private init(configuration: GatewayConfiguration, server: HTTP2Server) {
        self.configuration = configuration
        self.server = server
        let metrics = configuration.metrics
        let clock = configuration.clock
        metrics.history.sample(metrics, now: clock())
        sampler = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .milliseconds(metrics.history.interval)) } catch { return }
                metrics.history.sample(metrics, now: clock())
            }
        }
    }

    /// A server dropped without ``shutdown()`` leaves no sampler behind.
    deinit {
        sampler.cancel()
    }

    /// Binds and starts serving. Throws what `HTTP2Server.start` throws (an address in use, a host
    /// that does not resolve). `apns` serves the channel routes (an app and environment without a
    /// client answers 409); the caller shuts its clients down after the server (workers share them).
    public static func start(
        configuration: GatewayConfiguration, store: any GatewayStore, loops: EventLoopGroup,
        apns: APNsConnections = APNsConnections([:])
    ) async throws -> GatewayServer {
        let handler = try GatewayHandler(configuration: configuration, store: store, apns: apns)
        var options = HTTP2Server.Configuration(
            loops: loops, host: configuration.host, port: configuration.port, tls: configuration.tls)
        options.acceptsHTTP1 = true
        options.session.maxBodySize = configuration.bodyLimit
        let server = try await HTTP2Server.start(configuration: options, handler: handler)
        return GatewayServer(configuration: configuration, server: server)
    }

    /// Stops accepting and closes every connection; requests still in the store are abandoned
    /// unanswered (the store call itself completes). Safe to call more than once.
    public func shutdown() async {
        sampler.cancel()
        await server.shutdown()
    }
}
