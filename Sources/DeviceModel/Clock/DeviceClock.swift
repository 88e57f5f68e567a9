#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the model reads the time. Tests inject a `VirtualClock`; the CLI runs on the `SystemClock`.
///
/// The model never waits: work that is due later (a service extension's deadline, a local notification's
/// trigger) is kept as a scheduled event, and `Device.runDueEvents()` carries out everything due by `now`.
public protocol DeviceClock: AnyObject {
    var now: DeviceInstant { get }
}

/// A clock that moves only when told to.
///
/// Thread-safety: not thread-safe; owned by the test or driver that owns the device.
public final class VirtualClock: DeviceClock {
    public private(set) var now: DeviceInstant

    /// Starts at `start`; the default is 2026-01-01 09:00 UTC, a Thursday.
    public init(start: DeviceInstant = DeviceInstant(secondsSince1970: 1_767_258_000)) {
        self.now = start
    }

    /// Moves the clock forward; a negative or non-finite step leaves it where it is, because a device clock
    /// the model reads never runs backwards.
    public func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        now = now + seconds
    }
}

/// The machine's wall clock (`CLOCK_REALTIME`).
public final class SystemClock: DeviceClock {
    public init() {}

    public var now: DeviceInstant {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return DeviceInstant(secondsSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }
}
