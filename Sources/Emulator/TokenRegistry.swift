import HTTP2
import Synchronization

/// Tokens the emulator treats as unregistered (410 Unregistered), with when they became invalid.
///
/// At most `limit` tokens are marked through ``unregister(_:at:)`` (a simulated device's tokens
/// are marked beyond it: the device is gone either way). With a store, each change is written
/// behind, on the delivery log's writer thread, in the order made: the event loop that marks a
/// token never waits for the store (a failure is counted in `StoreStatus`, not thrown), and
/// ``flush()`` (called at shutdown) returns once every mark is written.
public final class TokenRegistry: Sendable {
    /// Tokens marked at once unless configured otherwise (`EmulatorConfiguration.unregisteredTokenLimit`).
    public static let defaultLimit = 100_000

    private struct Marks {
        var tokens: [String: Int] = [:]
        /// Marks made and not yet handed to the store, oldest first.
        var waiting: [(token: String, milliseconds: Int)] = []
        /// A write of `waiting` is queued on the writer thread.
        var writeQueued = false
    }

    private let marks = AnnotatedMutex(Marks())
    /// No token is unregistered: the emulator's hot path skips the lookup (and the token's String).
    private let empty = Atomic<Bool>(true)
    private let store: (any UnregisteredTokenStore)?
    private let status: StoreStatus?
    private let writer: DeliveryLogWriter?
    /// The most tokens ``unregister(_:at:)`` marks.
    public let limit: Int

    public init(limit: Int = TokenRegistry.defaultLimit) {
        store = nil
        status = nil
        writer = nil
        self.limit = max(0, limit)
    }

    /// A registry that starts with `tokens` (as loaded from `store`) and writes changes behind to
    /// it on `writer`'s thread (at once, in the calling thread, without one).
    init(
        restoring tokens: [String: Int], store: any UnregisteredTokenStore, status: StoreStatus,
        writer: DeliveryLogWriter?, limit: Int = TokenRegistry.defaultLimit
    ) {
        marks.withLock { $0.tokens = tokens }
        empty.store(tokens.isEmpty, ordering: .releasing)
        self.store = store
        self.status = status
        self.writer = writer
        self.limit = max(0, limit)
    }

    /// Marks `token` (lowercase hex) unregistered at `milliseconds` since 1970. False, marking
    /// nothing, when `limit` tokens are marked and `token` is not one of them.
    @discardableResult
    public func unregister(_ token: String, at milliseconds: Int) -> Bool {
        mark(token.lowercased(), at: milliseconds, beyondLimit: false)
    }

    /// Marks a simulated device's token: never refused (the device is gone, its tokens must answer 410).
    func unregisterDeviceToken(_ token: String, at milliseconds: Int) {
        _ = mark(token.lowercased(), at: milliseconds, beyondLimit: true)
    }

    private func mark(_ token: String, at milliseconds: Int, beyondLimit: Bool) -> Bool {
        let (marked, queueWrite) = marks.withLock { marks -> (Bool, Bool) in
            if !beyondLimit, marks.tokens[token] == nil, marks.tokens.count >= limit { return (false, false) }
            marks.tokens[token] = milliseconds
            guard store != nil else { return (true, false) }
            marks.waiting.append((token, milliseconds))
            defer { marks.writeQueued = true }
            return (true, !marks.writeQueued)
        }
        guard marked else { return false }
        empty.store(false, ordering: .releasing)
        if queueWrite {
            if let writer {
                writer.perform { [self] in writeWaiting() }
            } else {
                writeWaiting()
            }
        }
        return true
    }

    /// Writes every mark waiting, oldest first (on the writer thread, or at `flush`).
    private func writeWaiting() {
        let waiting = marks.withLock { marks in
            defer {
                marks.waiting.removeAll()
                marks.writeQueued = false
            }
            return marks.waiting
        }
        for (token, milliseconds) in waiting {
            do {
                try store?.markUnregistered(token, at: milliseconds)
            } catch {
                status?.record(error)
            }
        }
    }

    /// Returns once every mark made so far is in the store (or counted as failed).
    func flush() async {
        if let writer { await writer.run { [self] in writeWaiting() } } else { writeWaiting() }
    }

    /// Tokens marked now.
    public var count: Int { marks.withLock { $0.tokens.count } }

    /// Whether no token has been unregistered (one atomic load).
    var isEmpty: Bool { empty.load(ordering: .acquiring) }

    /// When `token` was unregistered, or nil if it is live.
    public func unregisteredAt(_ token: String) -> Int? {
        marks.withLock { $0.tokens[token] }
    }
}
