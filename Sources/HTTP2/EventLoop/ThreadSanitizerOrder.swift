import Glibc

/// Tells ThreadSanitizer about an order it cannot see, in a binary built with `-sanitize=thread`;
/// does nothing in any other binary.
///
/// Why: `Synchronization.Mutex` on Linux is a priority-inheritance futex. Uncontended, it locks and
/// unlocks with atomics compiled into the caller, which TSan sees. Contended, the kernel hands the
/// lock over (`FUTEX_UNLOCK_PI` / `FUTEX_LOCK_PI` in libswiftSynchronization, not instrumented), so
/// TSan sees no order between the two holders, and reports everything one wrote under the lock and
/// the other read, including data handed over through it (a request built by a task and read on the
/// loop). `acquire` at the start of a critical section and `release` at its end restore the order
/// (``AnnotatedMutex`` does it for a whole lock). The same holds for other handoffs through code TSan
/// cannot see (a continuation resumed before its task awaits it: the concurrency runtime's atomics).
///
/// The TSan runtime exports `__tsan_acquire` and `__tsan_release` from a sanitized binary; they are
/// looked up once per owner (an `EventLoop` keeps one; rarer paths use `shared`). The calls are
/// compiled only with `HERALD_TSAN` defined (scripts/test-tsan passes `-DHERALD_TSAN` with
/// `--sanitize=thread`): the client's hot path takes a lock and a handoff per request, and even a
/// nil test and a `shared` access each time were a measurable share of its instructions.
package struct ThreadSanitizerOrder: Sendable {
    /// For paths too rare to keep their own (each use of a static pays for its one-time check).
    package static let shared = ThreadSanitizerOrder()

    @usableFromInline typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    @usableFromInline let acquireFunction: Annotation?
    @usableFromInline let releaseFunction: Annotation?

    package init() {
        #if HERALD_TSAN
        acquireFunction = Self.lookUp("__tsan_acquire")
        releaseFunction = Self.lookUp("__tsan_release")
        #else
        acquireFunction = nil
        releaseFunction = nil
        #endif
    }

    /// Whether this binary runs under ThreadSanitizer (the annotations do something).
    @inlinable package var isActive: Bool { acquireFunction != nil }

    /// Orders what follows after everything before a `release` on the same address.
    @inlinable @inline(__always)
    package func acquire(_ address: UnsafeMutableRawPointer) {
        #if HERALD_TSAN
        if let acquireFunction { acquireFunction(address) }
        #endif
    }

    /// Orders everything before this before a later `acquire` on the same address.
    @inlinable @inline(__always)
    package func release(_ address: UnsafeMutableRawPointer) {
        #if HERALD_TSAN
        if let releaseFunction { releaseFunction(address) }
        #endif
    }

    private static func lookUp(_ name: String) -> Annotation? {
        // A null handle is RTLD_DEFAULT: the executable and everything loaded with it.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: Annotation.self)
    }
}
