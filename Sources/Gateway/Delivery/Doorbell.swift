import HTTP2
import Synchronization

/// Wakes tasks waiting for work: `ring()` resumes every waiter, and a ring while nobody waits is
/// kept for the next `wait` (no wake-up is lost between looking for work and waiting).
///
/// Thread-safety: `Sendable`; each waiter's continuation is resumed exactly once, by whichever of
/// the ring, its timeout or the close takes it out of the table first.
final class Doorbell: Sendable {
    private struct State {
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
        /// Waiters whose timeout came before they were in `waiters`.
        var expired: Set<Int> = []
        var rung = false
        var closed = false
    }

    private let state = AnnotatedMutex(State())

    /// Resumes every waiter; with none, the next `wait` returns at once.
    func ring() {
        let waiters = state.withLock { state in
            defer { state.waiters = [:] }
            if state.waiters.isEmpty { state.rung = true }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Resumes every waiter and makes every later `wait` return at once.
    func close() {
        state.withLock { $0.closed = true }
        ring()
    }

    /// Returns when rung (or rung since the last wait), closed, or after `timeout`.
    func wait(timeout: Duration) async {
        let id: Int? = state.withLock { state in
            if state.rung || state.closed {
                state.rung = false
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self.expire(id)?.resume()
        }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.rung || state.closed || state.expired.contains(id) {
                    state.rung = false
                    return true
                }
                state.waiters[id] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
        await timer.value
        _ = state.withLock { $0.expired.remove(id) }
    }

    /// The waiter's continuation if it waits; else notes that its time ran out before it did.
    private func expire(_ id: Int) -> CheckedContinuation<Void, Never>? {
        state.withLock { state in
            if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
            state.expired.insert(id)
            return nil
        }
    }
}
