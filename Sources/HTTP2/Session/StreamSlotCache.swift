/// Which slot a client stream has, remembered by stream id in a direct-mapped table (`id >> 1`:
/// a client's streams all have odd ids): the session's stream lookup without a call into nghttp2
/// and its hash map.
///
/// An entry is a hint, never trusted: the caller checks that the slot is open with that stream id
/// (ids are not reused within a session), and asks nghttp2 when it is not. Ids are handed out in
/// order, so the streams in flight at once share an entry only when more than `clientCapacity` ids
/// lie between the oldest and the newest. Servers keep no table (`capacity` 0): a connection's 4 KB
/// would add up over an emulator's thousands of connections.
struct StreamSlotCache {
    static let clientCapacity = 1024
    /// Slot index + 1 per entry; 0 when none. Empty (no caching) or a power of two long.
    private var entries: [Int32]
    private let mask: Int

    init(capacity: Int) {
        precondition(
            capacity == 0 || capacity & (capacity - 1) == 0, "StreamSlotCache: capacity must be a power of two")
        entries = [Int32](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    /// The slot last noted for a stream whose id shares `streamID`'s entry, if any.
    @inline(__always)
    func slot(for streamID: Int32) -> Int32? {
        guard !entries.isEmpty else { return nil }
        let entry = entries[Int(streamID >> 1) & mask]
        return entry > 0 ? entry - 1 : nil
    }

    @inline(__always)
    mutating func note(_ streamID: Int32, slot: Int32) {
        guard !entries.isEmpty else { return }
        entries[Int(streamID >> 1) & mask] = slot + 1
    }
}
