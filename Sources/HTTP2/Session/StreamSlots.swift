/// The session's table of stream slots with a free list; an index is what nghttp2 holds per stream.
///
/// nghttp2's stream user data is a pointer; the table stores `index + 1` in it so that no stream
/// ever carries NULL, and checks the stream id on the way back so a stale value cannot reach a
/// reused slot.
struct StreamSlots {
    private var slots: [StreamSlot] = []
    private var freeList: [Int32] = []
    /// Slots nghttp2 still knows about (`.open`).
    private(set) var openCount = 0

    /// An open slot, fresh or reused.
    mutating func acquire() -> Int32 {
        let index: Int32
        if let reused = freeList.popLast() {
            index = reused
        } else {
            index = Int32(truncatingIfNeeded: slots.count)
            slots.append(StreamSlot())
        }
        slots[Int(index)].state = .open
        openCount += 1
        return index
    }

    /// Marks an open slot closed by nghttp2; it stays allocated until its close event is delivered.
    mutating func markClosed(_ index: Int32, code: UInt32) {
        guard slots[Int(index)].state == .open else { return }
        slots[Int(index)].state = .closed
        slots[Int(index)].closeCode = code
        openCount -= 1
    }

    /// Returns a slot to the free list.
    mutating func release(_ index: Int32) {
        if slots[Int(index)].state == .open { openCount -= 1 }
        guard slots[Int(index)].state != .free else { return }
        slots[Int(index)].reset()
        freeList.append(index)
    }

    subscript(index: Int32) -> StreamSlot {
        _read { yield slots[Int(index)] }
        _modify { yield &slots[Int(index)] }
    }

    /// Runs `body` on slot `index` in one access (one uniqueness check of the table, not one per
    /// field touched). `body` must not reach the table itself.
    @inline(__always)
    mutating func withSlot<Result>(_ index: Int32, _ body: (inout StreamSlot) -> Result) -> Result {
        body(&slots[Int(index)])
    }

    /// The pre-encoded field of slot `index`'s header block, if it is spliced in, read without
    /// copying the slot.
    func preEncodedField(_ index: Int32) -> HPACKPreEncodedField? {
        guard !slots[Int(index)].realFieldSubmitted else { return nil }
        return slots[Int(index)].headerBlock?.preEncoded
    }

    /// The open slot `userData` names, if it belongs to `streamID`.
    func openSlot(userData: UnsafeMutableRawPointer?, streamID: Int32) -> Int32? {
        // Field by field: copying the slot would retain and release every buffer in it.
        guard let index = Self.index(userData), Int(index) < slots.count, slots[Int(index)].state == .open,
            slots[Int(index)].streamID == streamID
        else { return nil }
        return index
    }

    /// Whether slot `index` is open for `streamID`.
    @inline(__always)
    func isOpen(_ index: Int32, streamID: Int32) -> Bool {
        Int(index) < slots.count && slots[Int(index)].state == .open && slots[Int(index)].streamID == streamID
    }

    /// Whether slot `index` is in use (open, or closed with its close not yet delivered) for `streamID`.
    @inline(__always)
    func holds(_ index: Int32, streamID: Int32) -> Bool {
        Int(index) < slots.count && slots[Int(index)].state != .free && slots[Int(index)].streamID == streamID
    }

    /// The open slot for `streamID`, by search: for a client request still queued inside nghttp2,
    /// which has no nghttp2 stream (and so no user data) until its HEADERS are sent.
    func openSlot(streamID: Int32) -> Int32? {
        slots.firstIndex { $0.state == .open && $0.streamID == streamID }.map { Int32(truncatingIfNeeded: $0) }
    }

    /// Indexes of every open slot (for closing the session).
    var openIndexes: [Int32] {
        slots.indices.filter { slots[$0].state == .open }.map { Int32(truncatingIfNeeded: $0) }
    }

    static func userData(_ index: Int32) -> UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: Int(index) + 1)
    }

    static func index(_ userData: UnsafeMutableRawPointer?) -> Int32? {
        let value = Int(bitPattern: userData)
        guard value > 0, value <= Int(Int32.max) else { return nil }
        return Int32(value - 1)
    }
}
