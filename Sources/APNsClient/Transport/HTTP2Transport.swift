import APNs
import HTTP2
import Keys
import Synchronization

/// The production transport: a pool of HTTP/2 connections to one endpoint, spread over event loops.
///
/// Thread-safety: `perform` may be called from any task; each loop's share of the pool lives on
/// that loop (`LoopPool`), so a task running on a loop's executor submits without a thread hop.
/// Lifecycle: connections open on demand and stay open; `shutdown()` closes them and stops loops
/// the transport created itself.
public final class HTTP2Transport: APNsTransport {
    public let configuration: TransportConfiguration
    private let group: EventLoopGroup
    private let ownsGroup: Bool
    private let pools: [LoopPool]
    private let nextPool = Atomic<Int>(0)
    private let openConnections = ConnectionCounter()

    /// Builds TLS (trust roots, client identity) and the pools; opens no connection yet.
    public init(configuration: TransportConfiguration, loops: EventLoopGroup? = nil) throws(APNsClientError) {
        self.configuration = configuration
        let connectionConfiguration = try Self.connectionConfiguration(configuration)
        if let loops {
            group = loops
            ownsGroup = false
        } else {
            do {
                group = try EventLoopGroup(
                    loopCount: max(
                        1,
                        min(
                            configuration.loopCount ?? EventLoopGroup.defaultLoopCount, configuration.maximumConnections
                        )),
                    name: "herald-apns")
            } catch {
                throw .invalidConfiguration("cannot start event loops: \(error)")
            }
            ownsGroup = true
        }
        let used = Array(group.loops.prefix(max(1, min(group.loops.count, configuration.maximumConnections))))
        let share = (configuration.maximumConnections + used.count - 1) / used.count
        var made: [LoopPool] = []
        for (index, loop) in used.enumerated() {
            let connections = min(share, configuration.maximumConnections - index * share)
            made.append(
                LoopPool(
                    loop: loop, connection: connectionConfiguration, maximumConnections: max(1, connections),
                    admissionLimit: (max(1, configuration.maximumQueuedRequests) + used.count - 1) / used.count,
                    scheme: configuration.endpoint.usesTLS ? "https" : "http", counter: openConnections))
        }
        pools = made
    }

    public var connectionCount: Int { openConnections.value.load(ordering: .relaxed) }

    /// Requests the transport sent again because the server refused them unprocessed
    /// (REFUSED_STREAM, or above a GOAWAY's last stream id).
    public var resentCount: Int { openConnections.resent.load(ordering: .relaxed) }

    /// Connections opened (ready) since the transport started, reconnections included.
    public var openedConnectionCount: Int { openConnections.opened.load(ordering: .relaxed) }

    public func preferredTaskExecutor() -> (any TaskExecutor)? {
        pools[nextPool.add(1, ordering: .relaxed).oldValue % pools.count].loop
    }

    @inline(__always)
    public nonisolated(nonsending) func perform(
        _ request: APNsRequest, timeout: Duration
    ) async -> Result<RawResponse, APNsClientError> {
        let pool = localPool() ?? pools[nextPool.add(1, ordering: .relaxed).oldValue % pools.count]
        // The standard library's executor-inheriting form: `withUnsafeContinuation(isolation:)`
        // switches to `isolation` on the way in and again after the resume, and each
        // `swift_task_switch` of a task with an executor preference reads the preference under the
        // task's status lock, twice per notification. This form hops
        // nowhere: the closure runs where `perform` runs (it only hands the request to the loop),
        // and the task resumes on the executor it suspended on, as with the other form. `perform`
        // is nonisolated(nonsending), so what follows the `await` still runs in the caller's
        // isolation (the compiler's own hop back stays).
        var handoff: UnsafeMutableRawPointer?
        let result: Result<RawResponse, APNsClientError> = await _unsafeInheritExecutor_withUnsafeContinuation {
            continuation in
            handoff = continuation.handoffAddress
            if pool.loop.inEventLoop {
                pool.perform(request, timeout: timeout, continuation: continuation)
            } else if !pool.loop.execute({ pool.perform(request, timeout: timeout, continuation: continuation) }) {
                continuation.resume(returning: .failure(.shutDown))
            }
        }
        acquireHandoff(handoff)  // see ContinuationHandoff.swift
        return result
    }

    /// `perform` for a device push, answered decoded (`APNsClient.send`'s path: see
    /// `RequestCompletion.decoded`). Executors as in `perform`.
    @inline(__always)
    nonisolated(nonsending) func send(
        _ request: APNsRequest, timeout: Duration
    ) async -> Result<APNsResponse, APNsClientError> {
        let pool = localPool() ?? pools[nextPool.add(1, ordering: .relaxed).oldValue % pools.count]
        var handoff: UnsafeMutableRawPointer?
        let result: Result<APNsResponse, APNsClientError> = await _unsafeInheritExecutor_withUnsafeContinuation {
            continuation in
            handoff = continuation.handoffAddress
            if pool.loop.inEventLoop {
                pool.perform(request, timeout: timeout, continuation: continuation)
            } else if !pool.loop.execute({ pool.perform(request, timeout: timeout, continuation: continuation) }) {
                continuation.resume(returning: .failure(.shutDown))
            }
        }
        acquireHandoff(handoff)  // see ContinuationHandoff.swift
        return result
    }

    /// A pool for a loop-confined sender (the bulk path): the local one, else the next in turn.
    func pickPool() -> LoopPool {
        localPool() ?? pools[nextPool.add(1, ordering: .relaxed).oldValue % pools.count]
    }

    /// The pool of the loop this code runs on, if any.
    @inline(__always)
    private func localPool() -> LoopPool? {
        pools.withUnsafeBufferPointer { pools in
            for index in pools.indices {
                // The loop unretained: `pools`, a constant of the transport, holds each pool and each
                // pool its loop for as long as the transport lives (a retain and release per pool
                // looked at, per request, otherwise).
                let here = Unmanaged.passUnretained(pools[index].loop)._withUnsafeGuaranteedRef { $0.inEventLoop }
                if here { return pools[index] }
            }
            return nil
        }
    }

    public func shutdown() async {
        await withTaskGroup(of: Void.self) { tasks in
            for pool in pools {
                tasks.addTask {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        if !pool.loop.execute({ pool.shutdown { continuation.resume() } }) { continuation.resume() }
                    }
                }
            }
        }
        if ownsGroup { await group.shutdown() }
    }

    /// The response headers `LoopPool.complete` reads; the session drops the others (a server's
    /// `date`, `server`, `content-length`...) without copying them.
    static let responseHeaders = HTTP2HeaderNameSet(["apns-id", "apns-unique-id", "apns-request-id", "apns-channel-id"])

    /// TLS and connection settings from the transport's configuration; errors name the file.
    static func connectionConfiguration(
        _ configuration: TransportConfiguration
    ) throws(APNsClientError) -> HTTP2ClientConnection.Configuration {
        let endpoint = configuration.endpoint
        var proxy: ProxyConfiguration?
        if let url = configuration.proxy {
            do {
                proxy = try ProxyConfiguration(url: url)
            } catch {
                throw .invalidConfiguration("--proxy: \(error)")
            }
        }
        var tls: TLSContext?
        if endpoint.usesTLS {
            var settings = TLSConfiguration.client(
                serverHostname: endpoint.host, trustRoots: configuration.caFile.map { .file($0) } ?? .systemDefault)
            switch configuration.clientIdentity {
            case .pkcs12(let path, let password):
                do {
                    settings = settings.withIdentity(try PKCS12Bundle(contentsOfFile: path, password: password ?? ""))
                } catch {
                    throw .invalidConfiguration("--cert: \(error)")
                }
            case .pem(let certificatePath, let keyPath, let password):
                do {
                    settings.certificateChain = try Certificate.chain(contentsOfFile: certificatePath)
                } catch {
                    throw .invalidConfiguration("--cert: \(error)")
                }
                do {
                    settings.privateKey = try PrivateKey(contentsOfFile: keyPath, password: password)
                } catch {
                    throw .invalidConfiguration("--cert-key: \(error)")
                }
            case nil:
                break
            }
            do {
                tls = try TLSContext(settings)
            } catch {
                throw .invalidConfiguration(
                    (configuration.caFile.map { "--ca-file \($0): " } ?? "TLS: ") + error.description)
            }
        }
        var session = HTTP2SessionConfiguration()
        session.keptResponseHeaders = responseHeaders
        // `apns-id` (a plain value, new in every request) named by index after the first request.
        session.plainNamesIndexedOnce = HTTP2HeaderNameSet(["apns-id"])
        return HTTP2ClientConnection.Configuration(
            host: endpoint.host, port: endpoint.port, tls: tls, serverName: endpoint.host, proxy: proxy,
            session: session, connectTimeout: configuration.connectTimeout,
            idlePingInterval: configuration.idlePingInterval, pingTimeout: configuration.pingTimeout)
    }
}
