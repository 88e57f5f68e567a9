// A plain thread for blocking work (waiting for swiftc, decoding its output): the audit is synchronous
// and must not tie up the cooperative pool of a caller that is async.
import Glibc

final class WorkerThread: @unchecked Sendable {
    // SAFETY: `thread` is written once by init before any other use and read only by join.
    private var thread = pthread_t()
    private let started: Bool
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(Box(body))
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, workerThreadMain, box.toOpaque())
        if result != 0 {
            box.release()
            started = false
        } else {
            started = true
        }
        self.thread = thread
    }

    /// Waits for the body to finish; runs it here when no thread could be started.
    func join() {
        if started { pthread_join(thread, nil) } else { body() }
    }

    fileprivate final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}

private func workerThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    Unmanaged<WorkerThread.Box>.fromOpaque(argument).takeRetainedValue().body()
    return nil
}
