/// The server's connections on one loop: adopts handed-off descriptors, and closes them all at
/// shutdown.
///
/// Thread-safety: loop-confined; the server reaches it only through `loop.execute`.
// SAFETY: `connections` is touched only on `loop` (adopt and closeAll run there via execute, and
// connections remove themselves on their loop); `loop` is immutable and Sendable.
final class ServerLoopState: @unchecked Sendable {
    let loop: EventLoop
    var connections: [UInt64: HTTP2ServerConnection] = [:]

    init(loop: EventLoop) {
        self.loop = loop
    }

    /// Takes ownership of an accepted descriptor and starts serving it.
    func adopt(_ fd: Int32, id: UInt64, remote: SocketAddress?, server: HTTP2Server) {
        loop.preconditionInEventLoop()
        let socket = TCPSocket(adopting: fd)
        guard !server.isStopping else {
            socket.close()
            server.connectionEnded()
            return
        }
        let connection: HTTP2ServerConnection
        do {
            connection = try HTTP2ServerConnection(id: id, socket: socket, remote: remote, server: server, owner: self)
        } catch {
            socket.close()
            server.connectionEnded()
            return
        }
        connections[id] = connection
        connection.start()
    }

    /// Shutdown: GOAWAY and close every connection on this loop.
    func closeAll() {
        loop.preconditionInEventLoop()
        for connection in Array(connections.values) {
            connection.shutDown()
        }
    }
}
