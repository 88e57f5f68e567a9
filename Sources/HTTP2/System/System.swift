// The syscall funnel: every system call Herald's transport makes goes through `System`.
//
// Rules, after swift-nio's System.swift: retry EINTR; report EAGAIN/EWOULDBLOCK (and EINPROGRESS for
// connect) as `.wouldBlock`; throw `SystemError` naming the function otherwise. EBADF and EFAULT mean
// a bug in this process (a descriptor used after close, a bad pointer), so debug builds stop there;
// release builds throw like for any other errno. Descriptors are created non-blocking and close-on-exec.
import Glibc

/// Herald's wrappers over Linux system calls (the syscall funnel).
///
/// Thread-safety: stateless; every function may be called from any thread.
public enum System {
    /// Runs `body` until it does not fail with `EINTR`; `-1` with `EAGAIN` becomes `.wouldBlock`.
    @inline(__always)
    static func call<Result: FixedWidthInteger>(
        _ function: StaticString, _ body: () -> Result
    ) throws(SystemError) -> SyscallResult<Result> {
        while true {
            let result = body()
            if result != -1 { return .completed(result) }
            let code = Glibc.errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw failure(function, code)
            }
        }
    }

    /// Like `call`, for calls that cannot report would-block on the descriptors Herald gives them.
    @inline(__always)
    static func callBlocking<Result: FixedWidthInteger>(
        _ function: StaticString, _ body: () -> Result
    ) throws(SystemError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw failure(function, code)
        }
    }

    /// The error for `function` failing with `code`; traps in debug builds on errors that mean a bug.
    static func failure(_ function: StaticString, _ code: Int32) -> SystemError {
        assert(code != EBADF && code != EFAULT, "\(function) failed with errno \(code): a bug in Herald")
        return SystemError(function: String(describing: function), errno: code)
    }

    /// The error for a libc function that this system does not provide.
    static func missing(_ function: StaticString) -> SystemError {
        SystemError(function: String(describing: function), errno: ENOSYS)
    }

    /// Closes `fd`. `EINTR` counts as closed: on Linux the descriptor is released either way.
    public static func close(_ fd: Int32) throws(SystemError) {
        if Glibc.close(fd) == 0 { return }
        let code = Glibc.errno
        if code == EINTR { return }
        throw failure("close", code)
    }

    /// Reads up to `buffer.count` bytes from `fd`; `.completed(0)` is end of file.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError)
        -> SyscallResult<Int>
    {
        try call("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Writes up to `bytes.count` bytes to `fd`; the result counts the bytes written.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError)
        -> SyscallResult<Int>
    {
        try call("write") { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }
}
