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

    /// An entry's plain values, in a table of trivial values: adding, finding and removing an
    /// owner-context request (the pool's, the common case) copies no closure and counts no
    /// reference. Entries with closures keep them in `callbacks`, by index. (A table of
    /// `Entry?` would copy and destroy each entry through value witnesses.)
    private struct Slot {
        var context: UInt64 = 0
        var deadline: UInt64 = 0
        var streamID: Int32 = 0
        var generation: UInt32 = 0
        var live = false
        var timedOut = false
        /// The entry's closures are in `callbacks[index]`.
        var hasCallbacks = false
    }

    private struct Callbacks {
        var completion: Completion
        var onHead: ((HTTP2Response) -> Void)?
        var onData: (([UInt8]) -> Void)?
    }

    private var slots: [Slot] = []
    private var callbacks: [Int: Callbacks] = [:]
    private var free: [Int] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// `insert` of an owner-context request without closures (the pool's): no `Entry` built.
    mutating func insertContext(_ context: UInt64, deadline: UInt64) -> UInt64 {
        let index = freeIndex()
        let generation = slots[index].generation
        slots[index] = Slot(context: context, deadline: deadline, generation: generation, live: true)
        count += 1
        return UInt64(generation) << 32 | UInt64(index)
    }

    /// A free slot's index: a released one, or a new slot at the end.
    @inline(__always)
    private mutating func freeIndex() -> Int {
        if let reused = free.popLast() { return reused }
        slots.append(Slot())
        return slots.count - 1
    }

    /// Stores `entry`; returns its token.
    mutating func insert(_ entry: Entry) -> UInt64 {
        let index = freeIndex()
        var hasCallbacks = entry.onHead != nil || entry.onData != nil
        var context: UInt64 = 0
        switch entry.completion {
        case .context(let value): context = value
        case .closure: hasCallbacks = true
        }
        if hasCallbacks {
            callbacks[index] = Callbacks(completion: entry.completion, onHead: entry.onHead, onData: entry.onData)
        }
        let generation = slots[index].generation
        slots[index] = Slot(
            context: context, deadline: entry.deadline, streamID: entry.streamID, generation: generation, live: true,
            timedOut: entry.timedOut, hasCallbacks: hasCallbacks)
        count += 1
        return UInt64(generation) << 32 | UInt64(index)
    }

    /// The index `token` names, if its entry is still there.
    private func index(_ token: UInt64) -> Int? {
        let index = Int(token & 0xFFFF_FFFF)
        guard index < slots.count, slots[index].live, slots[index].generation == UInt32(truncatingIfNeeded: token >> 32)
        else { return nil }
        return index
    }

    /// The entry at `index` (live), rebuilt from its slot and callbacks.
    private func entry(at index: Int) -> Entry {
        let slot = slots[index]
        guard slot.hasCallbacks, let callbacks = callbacks[index] else {
            return Entry(
                completion: .context(slot.context), streamID: slot.streamID, deadline: slot.deadline,
                timedOut: slot.timedOut)
        }
        return Entry(
            completion: callbacks.completion, streamID: slot.streamID, deadline: slot.deadline, timedOut: slot.timedOut,
            onHead: callbacks.onHead, onData: callbacks.onData)
    }

    subscript(token: UInt64) -> Entry? {
        guard let index = index(token) else { return nil }
        return entry(at: index)
    }

    /// Records the stream a request went out on.
    mutating func setStreamID(_ streamID: Int32, for token: UInt64) {
        guard let index = index(token) else { return }
        slots[index].streamID = streamID
    }

    /// Marks a request as timed out (its stream is being reset).
    mutating func markTimedOut(_ token: UInt64) {
        guard let index = index(token) else { return }
        slots[index].timedOut = true
    }

    /// Takes out the entry of an owner-context request without closures (the pool's, every
    /// request of a send): its context and whether it timed out, without building an `Entry` (its
    /// completion enum and optional closures, made and destroyed per response). Nil, and nothing
    /// taken, when the token is dead or the entry has closures (`remove` takes those).
    mutating func removeContext(_ token: UInt64) -> (context: UInt64, timedOut: Bool)? {
        guard let index = index(token), !slots[index].hasCallbacks else { return nil }
        let taken = (context: slots[index].context, timedOut: slots[index].timedOut)
        slots[index].live = false
        slots[index].generation &+= 1
        free.append(index)
        count -= 1
        return taken
    }

    /// Takes the entry out; the token is dead afterwards.
    mutating func remove(_ token: UInt64) -> Entry? {
        guard let index = index(token) else { return nil }
        let entry = entry(at: index)
        if slots[index].hasCallbacks { callbacks[index] = nil }
        slots[index].live = false
        slots[index].hasCallbacks = false
        slots[index].generation &+= 1
        free.append(index)
        count -= 1
        return entry
    }

    /// Tokens of the requests whose deadline has passed and that have not timed out yet.
    func expired(now: UInt64) -> [UInt64] {
        var tokens: [UInt64] = []
        for index in slots.indices {
            let slot = slots[index]
            guard slot.live, slot.deadline != 0, slot.deadline <= now, !slot.timedOut else { continue }
            tokens.append(UInt64(slot.generation) << 32 | UInt64(index))
        }
        return tokens
    }

    /// True while some request has a deadline still to watch.
    var hasDeadlines: Bool {
        slots.contains { $0.live && $0.deadline != 0 && !$0.timedOut }
    }

    /// Every token in the table.
    var tokens: [UInt64] {
        slots.indices.compactMap { index in
            slots[index].live ? UInt64(slots[index].generation) << 32 | UInt64(index) : nil
        }
    }
}
