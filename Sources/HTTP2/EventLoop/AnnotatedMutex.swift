import Synchronization

/// A `Mutex` whose handoffs ThreadSanitizer sees: what one holder did under the lock is ordered
/// before what the next holder does, even when the lock was contended.
///
/// Why: a contended `Mutex` is handed over by the kernel (see ``ThreadSanitizerOrder``), so TSan
/// reports two holders' accesses to the guarded value as a race although the lock orders them. Each
/// critical section acquires on the guarded value's address when it starts and releases on it when
/// it ends; outside a `-sanitize=thread` binary that is a nil test per lock. Use it for a lock that
/// several threads contend for (a log appended from every loop, counts updated from every loop);
/// a plain `Mutex` is enough where TSan has not reported one.
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
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            let order = ThreadSanitizerOrder.shared
            guard order.isActive else { return try body(&value) }
            // The value lives inside the mutex, so its address names this lock for as long as it exists.
            let address = withUnsafeMutablePointer(to: &value) { UnsafeMutableRawPointer($0) }
            order.acquire(address)
            defer { order.release(address) }
            return try body(&value)
        }
    }
}

extension AnnotatedMutex: Sendable where Value: ~Copyable {}
