import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM (Ctrl-C, `kill`), so a long-running command can stop cleanly.
enum Termination {
    static func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            let queue = DispatchQueue(label: "herald.signals")
            var sources: [DispatchSourceSignal] = []
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { once.resume() }
                source.resume()
                sources.append(source)
            }
            Holder.sources = sources
        }
    }

    /// Keeps the signal sources alive for the life of the process.
    private enum Holder {
        nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []
    }

    private final class ResumeOnce: @unchecked Sendable {
        // SAFETY: only touched on the serial signal queue.
        private var continuation: CheckedContinuation<Void, Never>?
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
        func resume() {
            continuation?.resume()
            continuation = nil
        }
    }
}
