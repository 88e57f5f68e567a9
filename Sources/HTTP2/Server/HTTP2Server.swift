// HTTP2Server: a listener on the group's first loop hands each accepted descriptor to the loops
// round-robin; each loop adopts it as an HTTP2ServerConnection it alone owns.
//
//   accept loop: ServerAcceptor.readable -> accept4 -> count it -> target.loop.execute { adopt(fd) }
//   target loop: ServerLoopState.adopt -> HTTP2ServerConnection.start -> ... -> finalClose -> uncount
//
// Counts live in one Mutex; `shutdown()` stops the acceptor, asks every loop to close its
// connections (GOAWAY, flush, close) and waits for the open count to reach zero.
import Glibc
import Synchronization

/// An HTTP/2 server (TLS with ALPN h2, or h2c with prior knowledge) over an ``EventLoopGroup``;
/// with `Configuration.acceptsHTTP1`, HTTP/1.1 on the same port too.
///
/// Every connection keeps its own HTTP/2 state on one loop and reports to the
/// ``HTTP2RequestHandler`` there. The server never prints; it counts (``connectionCount``,
/// ``acceptedTotal``, ``acceptErrorCount``).
///
/// Lifecycle: ``start(configuration:handler:)`` binds and starts accepting; ``shutdown()`` stops
/// accepting, closes every connection and returns when they are gone. Shut the server down before
/// its loops; until then the loops keep it alive. Thread-safety: `Sendable`; every member may be
/// used from any thread.
public final class HTTP2Server: Sendable {
    public let configuration: Configuration
    let handler: any HTTP2RequestHandler
    /// The address the listener is bound to (with the real port when 0 was asked for).
    public let localAddress: SocketAddress
    let acceptor: ServerAcceptor
    let loopStates: [ServerLoopState]
    let state = AnnotatedMutex(ServerState())
    /// The acceptor stopped at `maximumConnections`; the next close resumes it.
    let acceptPausedAtLimit = Atomic<Bool>(false)
    private let nextLoop = Atomic<UInt>(0)
    private let lastConnectionID = Atomic<UInt64>(0)

    /// The port the server listens on.
    public var port: UInt16 { localAddress.port }

    /// Binds, listens and starts accepting on the group's first loop.
    ///
    /// Throws `.resolve` for a host that does not resolve, `.system` when binding fails (`EADDRINUSE`,
    /// `EACCES`), `.tls` for a TLS context that is not a server's or does not offer h2, `.http2` for
    /// session limits nghttp2 refuses.
    public static func start(
        configuration: Configuration, handler: any HTTP2RequestHandler
    ) async throws(HTTP2ConnectionError) -> HTTP2Server {
        try configuration.validate()
        let address = try await resolve(configuration.host, port: configuration.port)
        let acceptLoop = configuration.loops.loops[0]
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<HTTP2Server, HTTP2ConnectionError>, Never>) in
            let accepted = acceptLoop.execute {
                let result = Result { () throws(HTTP2ConnectionError) in
                    try HTTP2Server(
                        configuration: configuration, handler: handler, address: address, acceptLoop: acceptLoop)
                }
                if case .success(let server) = result { ThreadSanitizerOrder.shared.release(server.orderAddress) }
                continuation.resume(returning: result)
            }
            if !accepted {
                continuation.resume(returning: .failure(.system(SystemError(function: "execute", errno: ESHUTDOWN))))
            }
        }
        let server = try result.get()
        // The server was made on the loop. When the loop resumes the continuation before this task
        // awaits it, the concurrency runtime hands the result over with atomics of its own, which
        // ThreadSanitizer does not see: it reported reading `localAddress` here as a race.
        ThreadSanitizerOrder.shared.acquire(server.orderAddress)
        return server
    }

    /// The address the start handoff's ThreadSanitizer annotations are made on.
    private var orderAddress: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Runs on the accept loop: binds the listener and registers the acceptor.
    private init(
        configuration: Configuration, handler: any HTTP2RequestHandler, address: SocketAddress, acceptLoop: EventLoop
    ) throws(HTTP2ConnectionError) {
        let listener: TCPListener
        do {
            listener = try TCPListener(address: address, backlog: configuration.backlog)
            localAddress = try listener.localAddress
        } catch {
            throw .system(error)
        }
        self.configuration = configuration
        self.handler = handler
        self.acceptor = ServerAcceptor(loop: acceptLoop, listener: listener)
        self.loopStates = configuration.loops.loops.map { ServerLoopState(loop: $0) }
        do {
            try acceptor.start(server: self)
        } catch {
            throw .system(error)
        }
    }

    private static func resolve(_ host: String, port: UInt16) async throws(HTTP2ConnectionError) -> SocketAddress {
        if let numeric = SocketAddress(ipAddress: host, port: port) { return numeric }
        do {
            let addresses = try await Resolver.resolve(host: host, port: port)
            guard let first = addresses.first else {
                throw ResolverError(host: host, code: EAI_NONAME, message: "no address")
            }
            return first
        } catch let error as ResolverError {
            throw .resolve(error)
        } catch let error as SystemError {
            throw .system(error)
        } catch {
            throw .system(SystemError(function: "getaddrinfo", errno: EINVAL))
        }
    }

    // MARK: Counters

    /// Connections accepted and not yet closed.
    public var connectionCount: Int { state.withLock { $0.counts.open } }
    /// Connections accepted since start.
    public var acceptedTotal: Int { state.withLock { $0.counts.accepted } }
    /// Connections closed as soon as accepted, over `maximumConnections` (`refusesConnectionsOverLimit`).
    public var refusedTotal: Int { state.withLock { $0.counts.refused } }
    /// Failed `accept` calls (`EMFILE`, `ENFILE`, `ENOBUFS`, ...); each pauses accepting briefly.
    public var acceptErrorCount: Int { state.withLock { $0.counts.acceptErrors } }

    // MARK: Shutdown

    /// Stops accepting, sends GOAWAY to every connection and closes it (each gets at most
    /// `closeTimeout` to write its last bytes), and returns once every connection is closed.
    /// Requests still unanswered are abandoned. Safe to call more than once, from any thread.
    public func shutdown() async {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        if first {
            let acceptor = self.acceptor
            await Self.run(on: acceptor.loop) { acceptor.stop() }
            for loopState in loopStates {
                loopState.loop.execute { loopState.closeAll() }
            }
        }
        await waitUntil { $0.open == 0 }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Waits until `condition` holds for the counts (checked now and after every change).
    func waitUntil(_ condition: @escaping @Sendable (ServerCounts) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if condition(state.counts) { return true }
                state.waiters.append(ServerState.Waiter(condition: condition, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Runs `body` on `loop` and waits for it; returns at once if the loop has shut down.
    private static func run(on loop: EventLoop, _ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let accepted = loop.execute {
                body()
                continuation.resume()
            }
            if !accepted { continuation.resume() }
        }
    }

    // MARK: Connections (accept loop and connection loops)

    /// Accept loop: counts `fd` and hands it to the next loop, or closes it when stopping.
    func handOff(_ fd: Int32, remote: SocketAddress?) {
        let counted = update { state -> Bool in
            guard !state.stopping else { return false }
            state.counts.open += 1
            state.counts.accepted += 1
            return true
        }
        guard counted else {
            try? System.close(fd)
            return
        }
        let loopState = loopStates[Int(nextLoop.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(loopStates.count))]
        let id = lastConnectionID.wrappingAdd(1, ordering: .relaxed).newValue
        let accepted = loopState.loop.execute {
            loopState.adopt(fd, id: id, remote: remote, server: self)
        }
        if !accepted {
            try? System.close(fd)
            connectionEnded()
        }
    }

    /// A counted connection is gone (closed, or never adopted).
    func connectionEnded() {
        update { $0.counts.open -= 1 }
        if acceptPausedAtLimit.exchange(false, ordering: .acquiringAndReleasing) {
            let acceptor = self.acceptor
            acceptor.loop.execute { acceptor.resumeAtLimit() }
        }
    }

    /// Whether another connection fits under `maximumConnections`.
    var hasRoomForConnection: Bool {
        guard let maximum = configuration.maximumConnections else { return true }
        return connectionCount < maximum
    }

    func connectionRefused() {
        update { $0.counts.refused += 1 }
    }

    func acceptFailed() {
        update { $0.counts.acceptErrors += 1 }
    }

    /// Changes the state under the lock, then resumes the waiters whose condition now holds.
    @discardableResult
    private func update<Value: Sendable>(_ body: (inout ServerState) -> Value) -> Value {
        let (value, ready) = state.withLock { state -> (Value, [CheckedContinuation<Void, Never>]) in
            let value = body(&state)
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(state.counts) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return (value, ready)
        }
        for continuation in ready { continuation.resume() }
        return value
    }
}

/// What the server counts.
struct ServerCounts: Sendable {
    var open = 0
    var accepted = 0
    var refused = 0
    var acceptErrors = 0
}

/// The server's shared state, behind its Mutex.
struct ServerState {
    struct Waiter {
        let condition: @Sendable (ServerCounts) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    var counts = ServerCounts()
    var stopping = false
    var waiters: [Waiter] = []
}
