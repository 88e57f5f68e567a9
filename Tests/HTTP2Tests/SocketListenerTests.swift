import Glibc
import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct SocketListenerTests {
    @Test(arguments: ["127.0.0.1", "::1"])
    func bindsToAFreePortAndAcceptsWithoutBlocking(host: String) throws {
        let listener = try TCPListener(host: host, port: 0)
        defer { listener.close() }
        let address = try listener.localAddress
        #expect(address.port != 0)
        #expect(address.host == host)
        #expect(try listener.accept() == nil, "nothing pending: nil, not a blocked thread")

        let (client, _) = try TCPSocket.connect(to: address)
        defer { client.close() }
        // Loopback connections complete in the kernel; wait for the listener with poll, not sleep.
        var pollfd = Glibc.pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pollfd, 1, 10_000) == 1)
        let accepted = try #require(try listener.accept())
        defer { accepted.close() }
        #expect(try accepted.remoteAddress == client.localAddress)
        #expect(try accepted.localAddress == address)
        #expect(fcntl(accepted.fd, F_GETFL) & O_NONBLOCK != 0, "accepted sockets are non-blocking")
        #expect(fcntl(accepted.fd, F_GETFD) & FD_CLOEXEC != 0, "and close-on-exec")
    }

    @Test func setsReuseAddressAndV6Only() throws {
        let v6 = try TCPListener(host: "::1", port: 0)
        defer { v6.close() }
        #expect(try System.getsockopt(v6.fd, level: SOL_SOCKET, option: SO_REUSEADDR) == 1)
        #expect(try System.getsockopt(v6.fd, level: Int32(IPPROTO_IPV6), option: IPV6_V6ONLY) == 1)
        #expect(fcntl(v6.fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(v6.fd, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aPortInUseFailsWithAddressInUse() throws {
        let first = try TCPListener(host: "127.0.0.1", port: 0)
        defer { first.close() }
        let port = try first.localAddress.port
        #expect(throws: SystemError(function: "bind", errno: EADDRINUSE)) {
            _ = try TCPListener(host: "127.0.0.1", port: port)
        }
    }

    @Test func aHostNameIsNotANumericAddress() {
        #expect(throws: SystemError(function: "bind(localhost)", errno: EINVAL)) {
            _ = try TCPListener(host: "localhost", port: 0)
        }
    }

    @Test func socketsAreUnusableButHarmlessAfterClose() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let (socket, _) = try TCPSocket.connect(to: try listener.localAddress)
        try socket.setNoDelay()
        #expect(try System.getsockopt(socket.fd, level: Int32(IPPROTO_TCP), option: TCP_NODELAY) == 1)
        socket.close()
        socket.close()
        listener.close()
        listener.close()
        #expect(!socket.isOpen)
        #expect(socket.fd == -1)
        var byte: UInt8 = 0
        #expect(throws: SystemError(function: "recv", errno: EBADF)) {
            _ = try withUnsafeMutableBytes(of: &byte) { try socket.read(into: $0) }
        }
        #expect(throws: SystemError(function: "send", errno: EBADF)) {
            _ = try withUnsafeBytes(of: &byte) { try socket.write($0) }
        }
        #expect(throws: SystemError(function: "accept4", errno: EBADF)) { _ = try listener.accept() }
    }
}

@Suite(.timeLimit(.minutes(1)))
struct SocketSystemCallTests {
    @Test func errorsNameTheFunctionAndTheErrno() {
        let error = SystemError(function: "connect", errno: ECONNREFUSED)
        #expect(error.description == "connect failed: Connection refused (errno 111)")
        #expect(SystemError(function: "x", errno: 99_999).message.contains("99999"))
    }

    @Test func wouldBlockIsAValueNotAnError() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let (socket, _) = try TCPSocket.connect(to: try listener.localAddress)
        defer { socket.close() }
        var pollfd = Glibc.pollfd(fd: socket.fd, events: Int16(POLLOUT), revents: 0)
        #expect(poll(&pollfd, 1, 10_000) == 1)
        try socket.finishConnect()
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try buffer.withUnsafeMutableBytes { try socket.read(into: $0) } == .wouldBlock)
        #expect(try buffer.withUnsafeMutableBytes { try System.recv(socket.fd, into: $0) } == .wouldBlock)
        #expect(try System.accept(listener.fd, address: nil, length: nil).completedValue != nil)
        #expect(try System.accept(listener.fd, address: nil, length: nil).completedValue == nil)
    }

    @Test func activeProcessorsFollowTheAffinityMask() {
        let count = System.activeProcessorCount()
        #expect(count >= 1)
        #expect(count <= sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    @Test func anEventFDCountsSignalsUntilConsumed() throws {
        let fd = try System.eventFD()
        defer { try? System.close(fd) }
        #expect(try System.eventFDConsume(fd) == .wouldBlock)
        #expect(try System.eventFDSignal(fd) == .completed(8))
        #expect(try System.eventFDSignal(fd) == .completed(8))
        #expect(try System.eventFDConsume(fd) == .completed(8))
        #expect(try System.eventFDConsume(fd) == .wouldBlock)
    }

    @Test func epollReportsTheDataItWasGiven() throws {
        let epoll = try System.epollCreate()
        defer { try? System.close(epoll) }
        let fd = try System.eventFD()
        defer { try? System.close(fd) }
        try System.epollCtl(epoll, Epoll.add, fd, events: Epoll.input, data: 0xfeed_f00d_1234_5678)
        let buffer = EpollEventBuffer(capacity: 4)
        #expect(try System.epollWait(epoll, into: buffer, timeout: 0) == 0)
        _ = try System.eventFDSignal(fd)
        #expect(try System.epollWait(epoll, into: buffer, timeout: 10_000) == 1)
        #expect(buffer.data(at: 0) == 0xfeed_f00d_1234_5678)
        #expect(buffer.events(at: 0) & Epoll.input != 0)
        try System.epollCtl(epoll, Epoll.delete, fd, events: 0, data: 0)
        #expect(try System.epollWait(epoll, into: buffer, timeout: 0) == 0)
        #expect(throws: SystemError(function: "epoll_ctl", errno: ENOENT)) {
            try System.epollCtl(epoll, Epoll.delete, fd, events: 0, data: 0)
        }
    }
}

extension SyscallResult {
    fileprivate var completedValue: Value? {
        if case .completed(let value) = self { return value }
        return nil
    }
}
