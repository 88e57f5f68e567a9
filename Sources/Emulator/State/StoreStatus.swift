import Synchronization

/// Which store an emulator keeps its state in, and the writes to it that failed. A failed write
/// never fails a request: the emulator keeps serving from memory and counts it here (`GET
/// /control/v1/stats`, `storage`).
///
/// Thread-safety: `Sendable`; `record` may be called from any thread.
final class StoreStatus: Sendable {
    /// `sqlite` or `memory`.
    let kind: String
    /// The SQLite file, if any.
    let path: String?
    private let failures = Mutex<(count: Int, last: String?)>((0, nil))

    init(kind: String, path: String?) {
        self.kind = kind
        self.path = path
    }

    convenience init(describing store: any EmulatorStore) {
        if let sqlite = store as? SQLiteEmulatorStore {
            self.init(kind: "sqlite", path: sqlite.path)
        } else {
            self.init(kind: "memory", path: nil)
        }
    }

    /// Counts a failed write-through (an unregistered token, a channel, a device record).
    func record(_ error: any Error) {
        failures.withLock { $0 = ($0.count + 1, "\(error)") }
    }

    var failureCount: Int { failures.withLock { $0.count } }
    var lastError: String? { failures.withLock { $0.last } }
}
