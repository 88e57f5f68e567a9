import Glibc

/// The listening socket's handler on the accept loop: accepts in batches and hands each descriptor
/// to the server, which passes it to a connection loop.
///
/// Running out of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`) must not spin a
/// level-triggered loop on a listener that stays readable: accepting pauses for
/// ``pauseNanoseconds`` (the listener is watched for nothing meanwhile) and the kernel keeps the
/// pending connections in its backlog. At `maximumConnections` accepting pauses the same way
/// until a connection closes, or (`refusesConnectionsOverLimit`) each new one is closed once accepted.
///
/// Thread-safety: loop-confined.
// SAFETY: every member is used only on `loop`; the server reaches it through `loop.execute`. Each
// entry point (readable, stop, resumeAtLimit; start runs before the listener is registered) checks
// it in debug builds.
final class ServerAcceptor: IOHandler, @unchecked Sendable {
    let loop: EventLoop
    private var listener: TCPListener?
    /// Set while accepting; cleared at stop, which breaks the server <-> acceptor cycle.
    private var server: HTTP2Server?
    private var resumeTimer: TimerID?
    private var pausedAtLimit = false
    /// Accepts per readiness event before other work on the loop gets a turn.
    static let acceptsPerCall = 64
    static let pauseNanoseconds: UInt64 = 100_000_000

    init(loop: EventLoop, listener: TCPListener) {
        self.loop = loop
        self.listener = listener
    }

    /// Registers the listener; on failure closes it.
    func start(server: HTTP2Server) throws(SystemError) {
        guard let listener else { throw SystemError(function: "listen", errno: EBADF) }
        do {
            try loop.register(listener.fd, interest: .read, handler: self)
        } catch {
            listener.close()
            self.listener = nil
            throw error
        }
        self.server = server
    }

    func readable() {
        loop.preconditionInEventLoop()
        guard let listener, let server else { return }
        for _ in 0..<Self.acceptsPerCall {
            let refusing = !server.hasRoomForConnection
            if refusing, !server.configuration.refusesConnectionsOverLimit {
                pauseAtLimit(server)
                return
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    Result { () throws(SystemError) -> SyscallResult<Int32> in
                        try System.accept(listener.fd, address: address, length: &length)
                    }
                }
            }
            switch result {
            case .success(.completed(let fd)) where refusing:
                try? System.close(fd)
                server.connectionRefused()
            case .success(.completed(let fd)):
                server.handOff(fd, remote: SocketAddress(storage))
            case .success(.wouldBlock):
                return
            case .failure(let error) where error.errno == ECONNABORTED || error.errno == EPROTO:
                continue  // the client gave up before we got to it
            case .failure:
                server.acceptFailed()
                pause()
                return
            }
        }
    }

    func writable() {}

    func hangup() {
        stop()
    }

    /// Stops accepting and closes the listener; later calls do nothing.
    func stop() {
        loop.preconditionInEventLoop()
        if let resumeTimer { loop.cancel(resumeTimer) }
        resumeTimer = nil
        if let listener {
            try? loop.deregister(listener.fd)
            listener.close()
        }
        listener = nil
        server = nil
    }

    private func pause() {
        guard resumeTimer == nil else { return }
        resumeTimer = loop.schedule(after: Self.pauseNanoseconds) { [self] in
            resumeTimer = nil
            watch()
        }
        watch()
    }

    /// Stops at the connection limit; the server calls `resumeAtLimit` after the next close. The
    /// flag is published before the count is checked again, so a close in between is not missed.
    private func pauseAtLimit(_ server: HTTP2Server) {
        pausedAtLimit = true
        server.acceptPausedAtLimit.store(true, ordering: .releasing)
        watch()
        if server.hasRoomForConnection, server.acceptPausedAtLimit.exchange(false, ordering: .acquiringAndReleasing) {
            resumeAtLimit()
        }
    }

    func resumeAtLimit() {
        loop.preconditionInEventLoop()
        pausedAtLimit = false
        watch()
    }

    /// Watches the listener for connections unless a pause is in force.
    private func watch() {
        guard let listener else { return }
        let interest: IOInterest = resumeTimer == nil && !pausedAtLimit ? .read : []
        do {
            try loop.modify(listener.fd, interest: interest)
        } catch {
            stop()  // cannot stop watching it: better to stop accepting than to spin
        }
    }
}
