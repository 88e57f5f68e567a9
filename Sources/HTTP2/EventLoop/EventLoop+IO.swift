import Glibc

extension EventLoop {
    /// Watches `fd` for `interest` (level-triggered) and reports its events to `handler`, which the
    /// loop retains until ``deregister(_:)``. Loop thread only.
    ///
    /// Throws `EEXIST` if `fd` is registered already, or what `epoll_ctl` reports.
    public func register(_ fd: Int32, interest: IOInterest, handler: any IOHandler) throws(SystemError) {
        preconditionInEventLoop()
        guard fd >= 0 else { throw SystemError(function: "epoll_ctl", errno: EBADF) }
        guard registration(of: fd) == nil else { throw SystemError(function: "epoll_ctl", errno: EEXIST) }
        nextGeneration &+= 1
        let generation = nextGeneration
        try System.epollCtl(
            epollFD, Epoll.add, fd, events: interest.epollEvents, data: Self.token(fd: fd, generation: generation))
        while registrations.count <= Int(fd) { registrations.append(nil) }
        registrations[Int(fd)] = Registration(handler: handler, interest: interest, generation: generation)
    }

    /// Changes what `fd` is watched for; no system call if it is unchanged. Loop thread only.
    ///
    /// Throws `ENOENT` if `fd` is not registered.
    public func modify(_ fd: Int32, interest: IOInterest) throws(SystemError) {
        preconditionInEventLoop()
        guard let current = registration(of: fd) else { throw SystemError(function: "epoll_ctl", errno: ENOENT) }
        guard current.interest != interest else { return }
        try System.epollCtl(
            epollFD, Epoll.modify, fd, events: interest.epollEvents,
            data: Self.token(fd: fd, generation: current.generation))
        registrations[Int(fd)]?.interest = interest
    }

    /// Stops watching `fd` and releases its handler; call it before closing `fd`. Loop thread only.
    ///
    /// No event reaches the handler afterwards, even one already returned by the current
    /// `epoll_wait`. Throws `ENOENT` if `fd` is not registered.
    public func deregister(_ fd: Int32) throws(SystemError) {
        preconditionInEventLoop()
        guard registration(of: fd) != nil else { throw SystemError(function: "epoll_ctl", errno: ENOENT) }
        defer { registrations[Int(fd)] = nil }  // after epoll_ctl: releasing the handler may close fd
        try System.epollCtl(epollFD, Epoll.delete, fd, events: 0, data: 0)
    }

    /// The interest `fd` is registered with, or nil if it is not registered. Loop thread only.
    public func interest(of fd: Int32) -> IOInterest? {
        preconditionInEventLoop()
        return registration(of: fd)?.interest
    }

    /// Delivers one epoll event: readable, then writable, then hang-up, while still registered.
    func dispatch(token: UInt64, events: UInt32) {
        let fd = Int32(truncatingIfNeeded: token & 0xffff_ffff)
        let generation = UInt32(truncatingIfNeeded: token >> 32)
        guard let handler = registration(of: fd, generation: generation)?.handler else { return }
        if events & Epoll.input != 0 {
            handler.readable()
        }
        if events & Epoll.output != 0, registration(of: fd, generation: generation) != nil {
            handler.writable()
        }
        if events & (Epoll.error | Epoll.hangup) != 0, registration(of: fd, generation: generation) != nil {
            handler.hangup()
        }
    }

    static func token(fd: Int32, generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    private func registration(of fd: Int32) -> Registration? {
        guard fd >= 0, Int(fd) < registrations.count else { return nil }
        return registrations[Int(fd)]
    }

    private func registration(of fd: Int32, generation: UInt32) -> Registration? {
        guard let found = registration(of: fd), found.generation == generation else { return nil }
        return found
    }
}
