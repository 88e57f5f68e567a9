import Dispatch
import Glibc
import Testing

@testable import HeraldCLI

/// A signal that comes the moment `SignalSources.listen` returns is heard. (The sources used to be
/// registered later, on libdispatch's manager thread, with the signal ignored until then: such a signal
/// was discarded, and `herald emulator` ran on after a stop sent on reading its address.)
@Suite(.timeLimit(.minutes(1)))
struct SignalSourcesTests {
    @Test func aSignalRightAfterListenIsHeard() {
        // Real-time signals nothing else in this process uses, a fresh one each round: a signal that has
        // had a source keeps libdispatch's handler, so only a fresh one shows the moment before it.
        let first = __libc_current_sigrtmin() + 8
        for signalNumber in first..<first + 8 {
            let heard = DispatchSemaphore(value: 0)
            SignalSources.listen(to: [signalNumber], on: DispatchQueue(label: "signal-sources-test")) { _ in
                heard.signal()
            }
            kill(getpid(), signalNumber)
            guard heard.wait(timeout: .now() + 10) == .success else {
                Issue.record("signal \(signalNumber), sent as listen returned, was never heard")
                return
            }
        }
    }
}
