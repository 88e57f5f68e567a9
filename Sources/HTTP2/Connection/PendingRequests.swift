/// A client connection's requests in flight, in a reused table instead of a dictionary: a token is
/// the entry's index plus a generation (so a token that comes back late cannot reach the entry's
/// next occupant), and adding or removing a request hashes nothing and, once warm, allocates nothing.
///
/// Loop-confined, like the connection that owns it.
struct PendingRequests {
    /// Where a request's outcome goes.
    enum Completion {
        /// The closure given to `submit(...completion:)`.
        case closure((Result<HTTP2Response, HTTP2RequestFailure>) -> Void)
        /// The connection's `onCompletion`, with the owner's context.
        case context(UInt64)
    }

    struct Entry {
        var completion: Completion
        var streamID: Int32
        /// When the request times out (monotonic ns); 0 never.
        var deadline: UInt64
        var timedOut = false
        /// Streaming requests: the response head and each body chunk, as they arrive.
        var onHead: ((HTTP2Response) -> Void)? = nil
        var onData: (([UInt8]) -> Void)? = nil
    }

    private var entries: [Entry?] = []
    private var generations: [UInt32] = []
    private var free: [Int] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Stores `entry`; returns its token.
    mutating func insert(_ entry: Entry) -> UInt64 {
        let index: Int
        if let reused = free.popLast() {
            index = reused
            entries[index] = entry
        } else {
            index = entries.count
            entries.append(entry)
            generations.append(0)
        }
        count += 1
        return UInt64(generations[index]) << 32 | UInt64(index)
    }

    /// The index `token` names, if its entry is still there.
    private func index(_ token: UInt64) -> Int? {
        let index = Int(token & 0xFFFF_FFFF)
        guard index < entries.count, generations[index] == UInt32(truncatingIfNeeded: token >> 32),
            entries[index] != nil
        else { return nil }
        return index
    }

    subscript(token: UInt64) -> Entry? {
        guard let index = index(token) else { return nil }
        return entries[index]
    }

    /// Records the stream a request went out on.
    mutating func setStreamID(_ streamID: Int32, for token: UInt64) {
        guard let index = index(token) else { return }
        entries[index]?.streamID = streamID
    }

    /// Marks a request as timed out (its stream is being reset).
    mutating func markTimedOut(_ token: UInt64) {
        guard let index = index(token) else { return }
        entries[index]?.timedOut = true
    }

    /// Takes the entry out; the token is dead afterwards.
    mutating func remove(_ token: UInt64) -> Entry? {
        guard let index = index(token) else { return nil }
        // Moved out, not copied and then overwritten: destroying the old optional went through the
        // generic Optional value witness (~100 instructions per request).
        var entry: Entry? = nil
        swap(&entry, &entries[index])
        generations[index] &+= 1
        free.append(index)
        count -= 1
        return entry
    }

    /// Tokens of the requests whose deadline has passed and that have not timed out yet.
    func expired(now: UInt64) -> [UInt64] {
        var tokens: [UInt64] = []
        for index in entries.indices {
            guard let entry = entries[index], entry.deadline != 0, entry.deadline <= now, !entry.timedOut else { continue }
            tokens.append(UInt64(generations[index]) << 32 | UInt64(index))
        }
        return tokens
    }

    /// True while some request has a deadline still to watch.
    var hasDeadlines: Bool {
        entries.contains { entry in entry.map { $0.deadline != 0 && !$0.timedOut } ?? false }
    }

    /// Every token in the table.
    var tokens: [UInt64] {
        entries.indices.compactMap { index in
            entries[index] == nil ? nil : UInt64(generations[index]) << 32 | UInt64(index)
        }
    }
}
