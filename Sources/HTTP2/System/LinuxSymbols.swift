// Linux functions that Swift's Glibc module does not import.
//
// Why dlsym: the toolchain's Glibc module map does not include <sys/epoll.h> or <sys/eventfd.h>, and
// it declares accept4, pthread_setname_np and sched_getaffinity only under _GNU_SOURCE, which it does not define. The
// conventional fix is a system-library target with a shim.h (as CNIOLinux does in swift-nio); until
// Package.swift has one, these functions are looked up once in libc with dlsym(RTLD_DEFAULT, ...) and
// called through @convention(c) pointers, which use the C calling convention exactly. Only this file
// and Epoll.swift (constants, struct layout) change when a C target replaces it.
import Glibc

enum LinuxSymbols {
    typealias EpollCreate1 = @convention(c) (Int32) -> Int32
    typealias EpollCtl = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias EpollWait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32
    typealias EventFD = @convention(c) (UInt32, Int32) -> Int32
    typealias Accept4 =
        @convention(c) (
            Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32
        ) -> Int32
    typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>?) -> Int32
    typealias SchedGetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer?) -> Int32

    static let epollCreate1 = lookup("epoll_create1", as: EpollCreate1.self)
    static let epollCtl = lookup("epoll_ctl", as: EpollCtl.self)
    static let epollWait = lookup("epoll_wait", as: EpollWait.self)
    static let eventFD = lookup("eventfd", as: EventFD.self)
    static let accept4 = lookup("accept4", as: Accept4.self)
    static let setThreadName = lookup("pthread_setname_np", as: SetThreadName.self)
    static let schedGetAffinity = lookup("sched_getaffinity", as: SchedGetAffinity.self)

    /// The function `name` in the loaded libc, or nil (callers then fail with `ENOSYS`).
    private static func lookup<Function>(_ name: String, as type: Function.Type) -> Function? {
        // RTLD_DEFAULT is ((void *) 0) in glibc.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}
