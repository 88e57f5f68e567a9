import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for a command that can stop cleanly (a bulk send): the first SIGINT or SIGTERM calls the
/// handler, a second one exits at once (status 130, as a shell reports an interrupted command).
enum Interrupts {
    /// Heard from the moment this returns (see `SignalSources`).
    static func onFirst(_ handler: @escaping @Sendable () -> Void) {
        let count = SignalCount()
        SignalSources.listen(to: [SIGINT, SIGTERM], on: DispatchQueue(label: "herald.interrupts")) { signals in
            if count.add(signals) == 1 { handler() } else { _exit(130) }
        }
    }

    private final class SignalCount: @unchecked Sendable {
        // SAFETY: only touched on the serial queue the sources run their handlers on.
        private var count = 0
        func add(_ signals: Int) -> Int {
            count += signals
            return count
        }
    }
}
