import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C for a command that can stop cleanly (a bulk send): the first SIGINT or SIGTERM calls the
/// handler, a second one exits at once (status 130, as a shell reports an interrupted command).
enum Interrupts {
    static func onFirst(_ handler: @escaping @Sendable () -> Void) {
        let count = SignalCount()
        let queue = DispatchQueue(label: "herald.interrupts")
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)  // a dispatch source hears a signal only when it is ignored
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            // The source lives as long as the process: capturing it leaks nothing. Signals that
            // come together are one event; `data` counts them.
            source.setEventHandler {
                if count.add(Int(source.data)) == 1 { handler() } else { _exit(130) }
            }
            source.resume()
            sources.append(source)
        }
        Holder.sources.append(contentsOf: sources)
    }

    /// Keeps the signal sources alive for the life of the process.
    private enum Holder {
        nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []
    }

    private final class SignalCount: @unchecked Sendable {
        // SAFETY: only touched on the serial queue the sources run their handlers on.
        private var count = 0
        func add(_ signals: Int) -> Int {
            count += max(1, signals)
            return count
        }
    }
}
