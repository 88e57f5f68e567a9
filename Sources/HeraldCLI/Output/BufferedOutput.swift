import Synchronization

/// Text for an output stream, gathered into blocks of about 64 KiB and written a block at a time
/// (a bulk send prints a line per notification; writing each line would make a system call of it).
///
/// Thread-safe; call `flush()` once at the end (and before anything that must appear after it).
final class BufferedOutput: Sendable {
    static let blockBytes = 64 * 1024
    private let sink: @Sendable (String) -> Void
    private let pending = Mutex<String>("")

    init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    func write(_ text: String) {
        let full: String? = pending.withLock { pending in
            pending += text
            guard pending.utf8.count >= Self.blockBytes else { return nil }
            defer { pending = "" }
            return pending
        }
        if let full { sink(full) }
    }

    func flush() {
        let rest = pending.withLock { pending in
            defer { pending = "" }
            return pending
        }
        if !rest.isEmpty { sink(rest) }
    }
}
