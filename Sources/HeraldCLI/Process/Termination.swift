import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT or SIGTERM (Ctrl-C, `kill`), so a long-running command can stop cleanly.
///
/// `listen()` takes the signals over on the caller's thread and returns once they are heard: a command
/// calls it before it says where it listens, so a supervisor that stops it on reading the address gets
/// a clean stop. (Taking them over inside the task that waits left a window: the task could start after
/// the address was printed, and a signal in between ended the process by its default action. Returning
/// before the dispatch sources were registered left another: the signal was discarded, see
/// `SignalSources`.) A signal that comes before `wait()` is kept, and `wait()` then returns at once.
enum Termination {
    private struct State {
        var signalled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private static let state = Mutex(State())

    /// Set up once: a second caller waits until the first one's sources are registered.
    private static let listening: Void = SignalSources.listen(
        to: [SIGINT, SIGTERM], on: DispatchQueue(label: "herald.signals")
    ) { _ in signalled() }

    /// Takes SIGINT and SIGTERM over from their default action; later calls do nothing.
    static func listen() {
        _ = listening
    }

    /// Returns once SIGINT or SIGTERM has come since `listen()` (which it calls, if nobody did).
    static func wait() async {
        listen()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.signalled { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private static func signalled() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.signalled = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
