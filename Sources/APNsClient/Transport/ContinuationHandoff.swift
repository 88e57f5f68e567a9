import HTTP2

// A pooled request's continuation is resumed on the pool's loop while its task may still be on its
// way to the `await` (a connect that fails at once, a pool shutting down). The concurrency runtime
// then hands the result over with atomics of its own (libswift_Concurrency is not instrumented), so
// ThreadSanitizer sees no order between what the loop did before `resume` and what the task does
// after its `await`: it reported the loop's read of the continuation's context in `resume` against
// the task's next continuation written in the same place of its frame
// (`ReconnectBackoffTests.theTransportWaitsOutTheBackoffBetweenConnects`). The order is real: the
// runtime resumes the task only after the result is in place. The loop releases on the
// continuation's context before it resumes it; the task acquires on the same address after its
// `await`. Only a build with `HERALD_TSAN` defined (scripts/test-tsan) has that code.

extension UnsafeContinuation {
    /// The continuation's context (the one pointer an `UnsafeContinuation` holds, living in the
    /// awaiting task's frame): the address its handoff is told to ThreadSanitizer on.
    @inline(__always)
    var handoffAddress: UnsafeMutableRawPointer { unsafeBitCast(self, to: UnsafeMutableRawPointer.self) }

    /// Resumes, after telling ThreadSanitizer that what this thread did comes first (`acquireHandoff`).
    @inline(__always)
    func resumeOrdered(returning value: sending T) where E == Never {
        #if HERALD_TSAN
        ThreadSanitizerOrder.shared.release(handoffAddress)
        #endif
        resume(returning: value)
    }
}

/// The awaiting side of `resumeOrdered`: call right after the `await`, with the address the
/// continuation had.
@inline(__always)
func acquireHandoff(_ address: UnsafeMutableRawPointer?) {
    #if HERALD_TSAN
    if let address { ThreadSanitizerOrder.shared.acquire(address) }
    #endif
}
