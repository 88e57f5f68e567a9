import APNs

#if canImport(Glibc)
    import Glibc
#endif

/// The emulator's two readings of time: seconds for the rules Apple states in seconds (provider token
/// age, `apns-expiration`, the per-token rate limit), milliseconds for every millisecond field it writes
/// (the delivery log's receive time, device lines, the 410 `timestamp`, as APNs's own), so that a
/// `since`/`until` filter tells apart two pushes of the same second.
struct EmulatorClock: Sendable {
    let seconds: @Sendable () -> Int
    let milliseconds: @Sendable () -> Int

    /// The clocks a caller injected, the missing one derived from the other; neither: the system's.
    /// A seconds clock alone gives whole seconds as milliseconds (tests that move time by seconds).
    static func resolve(seconds: (@Sendable () -> Int)?, milliseconds: (@Sendable () -> Int)?) -> EmulatorClock {
        switch (seconds, milliseconds) {
        case (let seconds?, let milliseconds?): EmulatorClock(seconds: seconds, milliseconds: milliseconds)
        case (let seconds?, nil): EmulatorClock(seconds: seconds, milliseconds: { seconds() * 1000 })
        case (nil, let milliseconds?): EmulatorClock(seconds: { milliseconds() / 1000 }, milliseconds: milliseconds)
        case (nil, nil):
            EmulatorClock(seconds: ProviderTokenCache.systemClock, milliseconds: Emulator.systemMillisecondClock)
        }
    }
}

extension Emulator {
    /// Milliseconds since 1970 from the system's real-time clock.
    public static let systemMillisecondClock: @Sendable () -> Int = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
