import Dispatch

/// Signals heard through dispatch sources that are in place when `listen` returns.
///
/// A dispatch source hears its signal only once libdispatch's manager thread has registered it, some
/// time after `resume()`. On Linux that registration installs libdispatch's own handler for the signal
/// (it forwards the signal to a signalfd), so a source neither needs the signal ignored first nor works
/// better for it: ignoring it (the Darwin recipe) only discards a signal that comes before the
/// registration. Herald did that, so a stop sent the moment `herald emulator` printed its address could
/// be discarded, and the emulator ran on. `listen` therefore waits for the registration, and a signal
/// that comes before it still has its default action.
enum SignalSources {
    /// Calls `handler` on `queue`, with how many signals came together, each time one of `signals` comes,
    /// from the moment this returns until the process ends. Blocks until the sources are registered, so
    /// it must not be called on `queue` (which runs their registration handlers).
    static func listen(to signals: [Int32], on queue: DispatchQueue, handler: @escaping @Sendable (Int) -> Void) {
        let registered = DispatchGroup()
        for signalNumber in signals {
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            // Signals that come together are one event; `data` counts them. The handler holds the
            // source, so it lives (and listens) as long as the process.
            source.setEventHandler { handler(max(1, Int(source.data))) }
            registered.enter()
            // Runs after libdispatch has installed its handler and opened the signalfd.
            source.setRegistrationHandler { registered.leave() }
            source.resume()
        }
        registered.wait()
    }
}
