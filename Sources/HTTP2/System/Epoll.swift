// epoll and eventfd constants and the `struct epoll_event` layout, written out because Swift's Glibc
// module does not import <sys/epoll.h> or <sys/eventfd.h> (see LinuxSymbols.swift).
//
// struct epoll_event { uint32_t events; epoll_data_t data; } is declared __attribute__((packed)) on
// x86-64 only: 12 bytes with `data` at offset 4 there, 16 bytes with `data` at offset 8 elsewhere.
import Glibc

/// epoll and eventfd constants (Linux ABI values).
///
/// Thread-safety: constants only.
public enum Epoll {
    /// `EPOLLIN`: readable, or end of stream.
    public static let input: UInt32 = 0x001
    /// `EPOLLOUT`: writable.
    public static let output: UInt32 = 0x004
    /// `EPOLLERR`: an error is pending; always reported.
    public static let error: UInt32 = 0x008
    /// `EPOLLHUP`: hung up; always reported.
    public static let hangup: UInt32 = 0x010
    /// `EPOLLRDHUP`: the peer shut down its writing side.
    public static let readHangup: UInt32 = 0x2000

    /// `EPOLL_CTL_ADD`.
    public static let add: Int32 = 1
    /// `EPOLL_CTL_DEL`.
    public static let delete: Int32 = 2
    /// `EPOLL_CTL_MOD`.
    public static let modify: Int32 = 3

    #if arch(x86_64) || arch(i386)
        static let eventStride = 12
        static let dataOffset = 4
    #else
        static let eventStride = 16
        static let dataOffset = 8
    #endif
}

/// Memory for the events one `epoll_wait` returns.
///
/// Thread-safety: not thread-safe; owned by the one thread that waits on it (an event loop).
public final class EpollEventBuffer {
    private let storage: UnsafeMutableRawBufferPointer
    /// How many events one wait can return.
    public let capacity: Int

    /// Allocates room for `capacity` events (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = .allocate(byteCount: self.capacity * Epoll.eventStride, alignment: 8)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit { storage.deallocate() }

    /// The `events` mask of event `index`.
    public func events(at index: Int) -> UInt32 {
        storage.loadUnaligned(fromByteOffset: index * Epoll.eventStride, as: UInt32.self)
    }

    /// The `data.u64` of event `index`: the value given to `epollCtl`.
    public func data(at index: Int) -> UInt64 {
        storage.loadUnaligned(fromByteOffset: index * Epoll.eventStride + Epoll.dataOffset, as: UInt64.self)
    }

    var baseAddress: UnsafeMutableRawPointer? { storage.baseAddress }
}

extension System {
    /// Creates a close-on-exec epoll instance (`epoll_create1(EPOLL_CLOEXEC)`).
    public static func epollCreate() throws(SystemError) -> Int32 {
        guard let create = LinuxSymbols.epollCreate1 else { throw missing("epoll_create1") }
        return try callBlocking("epoll_create1") { create(O_CLOEXEC) }
    }

    /// Adds, modifies or deletes (`Epoll.add`, `.modify`, `.delete`) the registration of `fd`;
    /// `data` comes back with each of its events.
    public static func epollCtl(_ epollFD: Int32, _ operation: Int32, _ fd: Int32, events: UInt32, data: UInt64)
        throws(SystemError)
    {
        guard let control = LinuxSymbols.epollCtl else { throw missing("epoll_ctl") }
        var event = (UInt64(0), UInt64(0))  // 16 bytes, 8-aligned: room for either layout
        _ = try withUnsafeMutableBytes(of: &event) { (raw) throws(SystemError) -> Int32 in
            raw.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: data, toByteOffset: Epoll.dataOffset, as: UInt64.self)
            return try callBlocking("epoll_ctl") { control(epollFD, operation, fd, raw.baseAddress) }
        }
    }

    /// Waits up to `timeout` milliseconds (-1: forever, 0: poll) for events; returns how many.
    ///
    /// An interrupted wait (`EINTR`) returns 0 instead of waiting again, so the caller can recompute
    /// its timeout.
    public static func epollWait(_ epollFD: Int32, into buffer: EpollEventBuffer, timeout: Int32)
        throws(SystemError) -> Int
    {
        guard let wait = LinuxSymbols.epollWait else { throw missing("epoll_wait") }
        let count = wait(epollFD, buffer.baseAddress, Int32(clamping: buffer.capacity), timeout)
        if count >= 0 { return Int(count) }
        let code = Glibc.errno
        if code == EINTR { return 0 }
        throw failure("epoll_wait", code)
    }

    /// Creates a non-blocking, close-on-exec eventfd with counter 0.
    public static func eventFD() throws(SystemError) -> Int32 {
        guard let create = LinuxSymbols.eventFD else { throw missing("eventfd") }
        return try callBlocking("eventfd") { create(0, O_NONBLOCK | O_CLOEXEC) }
    }

    /// Adds 1 to an eventfd's counter, making it readable; `.wouldBlock` if the counter is full
    /// (it is then readable already).
    public static func eventFDSignal(_ fd: Int32) throws(SystemError) -> SyscallResult<Int> {
        var one: UInt64 = 1
        return try withUnsafeBytes(of: &one) { (bytes) throws(SystemError) -> SyscallResult<Int> in
            try write(fd, bytes)
        }
    }

    /// Reads and resets an eventfd's counter; `.wouldBlock` if it was 0.
    public static func eventFDConsume(_ fd: Int32) throws(SystemError) -> SyscallResult<Int> {
        var counter: UInt64 = 0
        return try withUnsafeMutableBytes(of: &counter) { (bytes) throws(SystemError) -> SyscallResult<Int> in
            try read(fd, into: bytes)
        }
    }
}
