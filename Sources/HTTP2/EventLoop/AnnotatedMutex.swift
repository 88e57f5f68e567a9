import Synchronization

/// A `Mutex` whose handoffs ThreadSanitizer sees: what one holder did under the lock is ordered
/// before what the next holder does, even when the lock was contended.
///
/// Why: a contended `Mutex` is handed over by the kernel (see ``ThreadSanitizerOrder``), so TSan
/// reports two holders' accesses to the guarded value as a race although the lock orders them. Each
/// critical section acquires on the lock's address when it starts and releases on it when it ends.
/// Only a build with `HERALD_TSAN` defined (scripts/test-tsan) has this type; every other build
/// takes `Mutex` itself under this name (the typealias below), so the hot paths that lock per
/// request (the client's metrics) pay nothing: a generic wrapper across modules was not always
/// specialized, and looked its metadata up on every call. Use it for a lock that
/// several threads contend for (a log appended from every loop, counts updated from every loop);
/// a plain `Mutex` is enough where TSan has not reported one.
#if HERALD_TSAN
package struct AnnotatedMutex<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>

    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// `Mutex.withLock`, with the critical section's order told to ThreadSanitizer.
    @inlinable @inline(__always)
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let order = ThreadSanitizerOrder.shared
        guard order.isActive else { return try mutex.withLock(body) }
        // The lock's own address names it to TSan, taken before locking: taking the guarded value's
        // address inside would be an access to it that TSan records ahead of the acquire (it
        // reported exactly that as a race). Acquire and release on that address join the clock of
        // the lock's own atomics there, an order that holds anyway.
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            order.acquire(address)
            defer { order.release(address) }
            return try body(&value)
        }
    }
}

extension AnnotatedMutex: Sendable where Value: ~Copyable {}
#else
package typealias AnnotatedMutex<Value: ~Copyable> = Mutex<Value>
#endif
