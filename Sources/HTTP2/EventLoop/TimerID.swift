import Synchronization

/// Identifies a timer scheduled on an ``EventLoop``, for ``EventLoop/cancel(_:)``.
///
/// IDs are not reused while their timer is pending; cancelling a fired or cancelled timer does nothing.
/// Thread-safety: a value type; `Sendable`.
public struct TimerID: Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64
    /// For timers scheduled from another thread: their cancellation flag, which any thread may set.
    let remote: RemoteTimer?

    /// A loop-local timer: slot in the heap's table, and that slot's generation.
    init(slot: UInt32, generation: UInt32) {
        rawValue = UInt64(generation) << 32 | UInt64(slot)
        remote = nil
    }

    /// A timer scheduled from another thread, numbered apart from loop-local ones.
    init(remote: RemoteTimer, sequence: UInt64) {
        rawValue = 1 << 63 | sequence
        self.remote = remote
    }

    var slot: Int { Int(rawValue & 0xffff_ffff) }
    var generation: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }
    var isRemote: Bool { remote != nil }

    public static func == (lhs: TimerID, rhs: TimerID) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { "TimerID(\(rawValue))" }
}

/// The shared state of a timer scheduled from another thread: a flag checked on the loop thread
/// before the timer is added to the heap and again before it fires.
final class RemoteTimer: Sendable {
    let cancelled = Atomic<Bool>(false)
}
