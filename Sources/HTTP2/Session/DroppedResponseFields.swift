import CNghttp2

/// Response fields a client session dropped (not among `keptResponseHeaders`) after its checks
/// accepted them, remembered by the identity of nghttp2's reference-counted buffers for their name
/// and value: a field that comes again from the peer's HPACK table comes in the same two buffers,
/// and is dropped without being checked again. A server repeats most of its fields in every
/// response (nghttpd: `server`, `date`, `cache-control`, `last-modified`), and checking each one's
/// name and value bytes was most of the cost of reading a response.
///
/// Why identity is enough: nghttp2 hands a field out of its static or dynamic table as that
/// entry's own buffers; a buffer's bytes never change once handed out, and the reference held here
/// keeps it alive, so while it is remembered its address names those bytes and no others. A field
/// sent as a literal comes in new buffers and is checked in full.
///
/// Only regular fields without a meaning to the checks (not `content-length`, `te` or the
/// connection-specific fields), which the checks accept by their bytes alone in any state of the
/// response, marking only that a regular field came (`repeatedField`); `:status`, whose value is
/// then known good, so only its place is checked again (`repeatedStatus`); and `content-length` by
/// its name alone (servers send its value as a literal, new each time), so only its value is
/// checked again (`repeatedContentLength`). Kept
/// fields are not remembered: APNs's are new in every response (`apns-id`), and would only push
/// the repeated ones out.
///
/// Fields are remembered by their position in the header block: a server sends its fields in the
/// same order in every response, so the field at a position is checked against the one remembered
/// there (one comparison, no search), and a field that is not the same takes that place.
///
/// Loop-confined, like the session. `removeAll` gives the buffers back; call it before the
/// session's allocator goes (nghttp2 frees them with it).
struct DroppedResponseFields {
    /// Positions remembered: the first fields of a block, more than a server's usual answer has.
    static let capacity = 16

    private struct Entry {
        /// The buffers' addresses, 0 when the position holds no field; `value` 0 for a
        /// content-length (remembered by its name, whatever its value).
        var name: UInt = 0
        var value: UInt = 0
        /// The field's size in the header list: name, value and 32 (RFC 7541 section 4.1).
        var listSize = 0
        /// A `:status` field's value; 0 for a regular field, `contentLength` for a content-length.
        var status = 0
    }

    /// `Remembered.status` of a content-length field.
    static let contentLength = -1

    /// What is known of a remembered field.
    struct Remembered {
        /// Its size in the header list (for a content-length, without its value).
        let listSize: Int
        /// The status it gives, for a `:status` field; 0 for a regular field; `contentLength`.
        let status: Int
    }

    private var entries = [Entry](repeating: Entry(), count: capacity)

    /// Fields remembered now.
    var rememberedCount: Int { entries.filter { $0.name != 0 }.count }

    /// The field remembered at `position`, when it has these buffers.
    @inline(__always)
    func field(at position: Int, name: OpaquePointer, value: OpaquePointer) -> Remembered? {
        guard position < Self.capacity else { return nil }
        return entries.withUnsafeBufferPointer { entries in
            let entry = entries[position]
            guard entry.name == UInt(bitPattern: name), entry.value == UInt(bitPattern: value) || entry.value == 0
            else { return nil }
            return Remembered(listSize: entry.listSize, status: entry.status)
        }
    }

    /// Remembers a field the checks accepted and the session dropped, holding its buffers, in place
    /// of the one at `position`.
    /// `status`: the value of a `:status` field, 0 for a regular one, `contentLength` for a
    /// content-length (remembered without its value; `listSize` without it too).
    mutating func remember(at position: Int, name: OpaquePointer, value: OpaquePointer, listSize: Int, status: Int) {
        guard position < Self.capacity else { return }
        let keepsValue = status != Self.contentLength
        nghttp2_rcbuf_incref(name)
        if keepsValue { nghttp2_rcbuf_incref(value) }
        forget(at: position)
        entries[position] = Entry(
            name: UInt(bitPattern: name), value: keepsValue ? UInt(bitPattern: value) : 0, listSize: listSize,
            status: status)
    }

    /// Forgets every field, giving its buffers back.
    mutating func removeAll() {
        for position in entries.indices { forget(at: position) }
    }

    private mutating func forget(at position: Int) {
        let entry = entries[position]
        guard entry.name != 0 else { return }
        entries[position] = Entry()
        nghttp2_rcbuf_decref(OpaquePointer(bitPattern: entry.name))
        if entry.value != 0 { nghttp2_rcbuf_decref(OpaquePointer(bitPattern: entry.value)) }
    }
}
