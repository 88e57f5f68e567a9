// One running gateway, what `herald gateway` starts and stops: the store (SQLite in the data
// directory, or a PostgreSQL database that other gateway processes may share), the APNs clients of
// every configured app and environment, the delivery engine and the HTTP API.
//
//   start:    clients -> store (+ first admin key) -> engine -> server
//   shutdown: server (no new work) -> engine (batches in flight recorded, for a grace period)
//             -> clients (sends still in flight end; their leases bring them back) -> loops
//
// The API's `onNotificationCreated` wakes the engine, so a notification goes out at once instead of
// at the engine's next idle poll; both share one `GatewayMetrics`, which `GET /metrics` serves.
import APNs
import APNsClient
import HTTP2

/// A started gateway: store, APNs connections and the API server, started and stopped in order.
///
/// Lifecycle: ``start(_:)`` opens and binds; ``shutdown()`` stops the server, closes the clients and
/// the event loops, and releases the store (closing it when the last reference goes).
/// Thread-safety: immutable; `Sendable`.
public final class GatewayRuntime: Sendable {
    /// What to start.
    public struct Options: Sendable {
        /// SQLite's file and the first admin key's secret; with `database`, the secret only (nil: no
        /// admin key is made; `herald gateway key create` makes one).
        public var dataDirectory: GatewayDataDirectory?
        /// The state in PostgreSQL instead of the data directory's SQLite file.
        public var database: GatewayDatabase?
        public var apps: [GatewayAppSettings]
        public var host: String
        /// 0 picks a free port; read it back from ``GatewayRuntime/port``.
        public var port: UInt16
        /// The API over TLS (ALPN h2 and http/1.1); nil: h2c and plain HTTP/1.1.
        public var tls: TLSContext?
        public var clock: @Sendable () -> Int
        /// How the delivery engine claims, sends and retries (its clock is replaced by `clock`).
        public var delivery: DeliveryEngineConfiguration
        /// How long `shutdown()` lets batches in flight finish before abandoning them to their leases.
        public var shutdownGracePeriod: Duration

        public init(
            dataDirectory: GatewayDataDirectory?, database: GatewayDatabase? = nil, apps: [GatewayAppSettings],
            host: String = "127.0.0.1",
            port: UInt16 = 0, tls: TLSContext? = nil,
            clock: @escaping @Sendable () -> Int = GatewayConfiguration.systemMillisecondClock,
            delivery: DeliveryEngineConfiguration = DeliveryEngineConfiguration(),
            shutdownGracePeriod: Duration = .seconds(10)
        ) {
            self.dataDirectory = dataDirectory
            self.database = database
            self.apps = apps
            self.host = host
            self.port = port
            self.tls = tls
            self.clock = clock
            self.delivery = delivery
            self.shutdownGracePeriod = shutdownGracePeriod
        }
    }

    public let store: any GatewayStore
    public let connections: APNsConnections
    public let server: GatewayServer
    public let engine: DeliveryEngine
    /// The admin key made on this start (a first start with an empty store), its secret in
    /// ``GatewayDataDirectory/adminKeyPath``; nil when the store had keys.
    public let firstAdminKey: APIKey?
    private let loops: EventLoopGroup
    private let shutdownGracePeriod: Duration

    /// The port the API listens on.
    public var port: UInt16 { server.port }

    private init(
        store: any GatewayStore, connections: APNsConnections, server: GatewayServer, engine: DeliveryEngine,
        firstAdminKey: APIKey?, loops: EventLoopGroup, shutdownGracePeriod: Duration
    ) {
        self.store = store
        self.connections = connections
        self.server = server
        self.engine = engine
        self.firstAdminKey = firstAdminKey
        self.loops = loops
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// Builds the clients (reading every key file, so a bad one stops the start before anything is
    /// written), opens the store, makes the first admin key when there is none, and binds.
    /// `makeClient`: tests pass one over a fake transport; by default the clients share the
    /// gateway's event loops.
    public static func start(
        _ options: Options,
        makeClient: (@Sendable (APNsClientSettings, EventLoopGroup) throws(APNsClientError) -> APNsClient)? = nil
    ) async throws(GatewayStartError) -> GatewayRuntime {
        var apps: [App] = []
        for settings in options.apps {
            do {
                apps.append(try settings.app())
            } catch {
                throw .configuration(error)
            }
        }
        let loops: EventLoopGroup
        do {
            loops = try EventLoopGroup(loopCount: EventLoopGroup.defaultLoopCount, name: "herald-gateway")
        } catch {
            throw .setup(GatewaySetupError("cannot start event loops: \(error)"))
        }
        var clients: [APNsConnections.Key: APNsClient] = [:]
        let connections: APNsConnections
        let store: any GatewayStore
        let firstAdminKey: APIKey?
        do throws(GatewayStartError) {
            for app in options.apps {
                for (environment, settings) in app.environments.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                    let key = APNsConnections.Key(bundleID: app.bundleID, environment: environment)
                    do {
                        if let makeClient {
                            clients[key] = try makeClient(settings, loops)
                        } else {
                            clients[key] = try defaultClient(settings, loops)
                        }
                    } catch {
                        throw .client(key, error)
                    }
                }
            }
            connections = APNsConnections(clients)
            store = try openStore(options)
            do throws(GatewaySetupError) {
                if let directory = options.dataDirectory {
                    try directory.create()
                    firstAdminKey = try await directory.createFirstAdminKey(in: store, now: options.clock())
                } else {
                    firstAdminKey = nil
                }
            } catch {
                throw .setup(error)
            }
        } catch {
            await APNsConnections(clients).shutdown()
            await loops.shutdown()
            throw error
        }
        var delivery = options.delivery
        delivery.clock = options.clock
        let engine = DeliveryEngine(store: store, connections: connections, configuration: delivery)
        // Which process this is, for a database shared by several (the claimer in `claimed_by`).
        engine.metrics.setInstance(claimer: delivery.claimer)
        var configuration = GatewayConfiguration(
            apps: apps, host: options.host, port: options.port, tls: options.tls, clock: options.clock)
        configuration.metrics = engine.metrics
        configuration.onNotificationCreated = { _ in engine.wake() }
        // Started before the server so a restart resumes the work left in the store at once.
        engine.start()
        let server: GatewayServer
        do {
            server = try await GatewayServer.start(
                configuration: configuration, store: store, loops: loops, apns: connections)
        } catch {
            await engine.shutdown(gracePeriod: options.shutdownGracePeriod)
            await connections.shutdown()
            await loops.shutdown()
            throw .listen(host: options.host, port: options.port, reason: "\(error)")
        }
        return GatewayRuntime(
            store: store, connections: connections, server: server, engine: engine, firstAdminKey: firstAdminKey,
            loops: loops, shutdownGracePeriod: options.shutdownGracePeriod)
    }

    /// The database's store, else the data directory's SQLite file.
    private static func openStore(_ options: Options) throws(GatewayStartError) -> any GatewayStore {
        if let database = options.database {
            do { return try database.openStore() } catch { throw .database(error) }
        }
        guard let directory = options.dataDirectory else {
            throw .setup(GatewaySetupError("no store: give a data directory or a database"))
        }
        do { return try directory.openStore() } catch { throw .setup(error) }
    }

    /// A client over HTTP/2 on the gateway's own event loops, with the engine's short in-send
    /// retries (long waits are the durable queue's backoff).
    private static func defaultClient(
        _ settings: APNsClientSettings, _ loops: EventLoopGroup
    ) throws(APNsClientError) -> APNsClient {
        var settings = settings
        settings.retryPolicy = settings.retryPolicy ?? DeliveryEngineConfiguration.clientRetryPolicy
        return try settings.makeClient(makeTransport: { (configuration) throws(APNsClientError) in
            try HTTP2Transport(configuration: configuration, loops: loops)
        })
    }

    /// Stops serving (connections closed), then the delivery engine (batches in flight are recorded
    /// within the grace period; later ones come back after their leases with the same apns-ids), then
    /// the APNs clients, then the event loops. The store closes when the last reference to it goes
    /// (this runtime's included).
    public func shutdown() async {
        await server.shutdown()
        await engine.shutdown(gracePeriod: shutdownGracePeriod)
        await connections.shutdown()
        await loops.shutdown()
    }
}

/// Why a gateway did not start.
public enum GatewayStartError: Error, Sendable, CustomStringConvertible {
    /// An app's settings are not valid (a bundle id, no environment).
    case configuration(FieldError)
    /// The APNs client of this app and environment could not be built (a key file, a certificate).
    case client(APNsConnections.Key, APNsClientError)
    /// The data directory or the store.
    case setup(GatewaySetupError)
    /// The PostgreSQL database: unreachable, a refused login, a newer schema.
    case database(GatewaySetupError)
    /// The API could not bind (an address in use, a host that does not resolve).
    case listen(host: String, port: UInt16, reason: String)

    public var description: String {
        switch self {
        case .configuration(let error): "\(error)"
        case .client(let key, let error): "\(key): \(error)"
        case .setup(let error): error.message
        case .database(let error): error.message
        case .listen(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        }
    }
}
