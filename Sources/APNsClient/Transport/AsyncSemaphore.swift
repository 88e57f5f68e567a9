import Synchronization

/// Counts permits across tasks: `acquire` waits while none is left. Back-pressure for `perform`, so
/// a caller that outruns the connections waits instead of queueing without bound.
final class AsyncSemaphore: Sendable {
    private struct State {
        var permits: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }

    private let state: Mutex<State>

    init(permits: Int) {
        state = Mutex(State(permits: permits))
    }

    nonisolated(nonsending) func acquire() async {
        let acquired = state.withLock { state -> Bool in
            guard state.permits > 0 else { return false }
            state.permits -= 1
            return true
        }
        if acquired { return }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.permits > 0 {
                    state.permits -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.permits += 1
                return nil
            }
            let waiter = state.waiters[state.head]
            state.head += 1
            if state.head > 1024, state.head * 2 > state.waiters.count {
                state.waiters.removeFirst(state.head)
                state.head = 0
            }
            return waiter
        }
        waiter?.resume()
    }
}
