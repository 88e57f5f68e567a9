import CNghttp2

// The splice (NGHTTP2Session+Splice.swift) rests on one behaviour of the nghttp2 a process runs
// with: `nghttp2_session_mem_send` hands out one whole frame per call, so a chunk that starts with
// a HEADERS frame header is that frame, END_HEADERS included. nghttp2 1.52 does (its
// `mem_send_internal` serializes one frame at a time), and `SessionPreEncodedFieldTests` compares
// every byte sent with and without splicing. A library that behaved otherwise would have the
// session fail instead of sending a placeholder, on every connection: so the behaviour is checked
// once per process, on a client session of its own in memory, before any field is pre-encoded.
// If the check fails, `make` returns nil and every field is sent as nghttp2 encodes it.

extension HPACKPreEncodedField {
    /// Whether this process's nghttp2 hands out one whole frame per `mem_send` call, HEADERS with
    /// the placeholder's representation where the splice looks for it. Computed once.
    static let libraryHandsOutWholeFrames: Bool = checkLibrary()

    /// Submits a request with a placeholder `authorization` and a body to a fresh client session
    /// and reads what it sends: past the client magic, every chunk must be exactly one frame, and
    /// the HEADERS frame must end its header block and hold the placeholder.
    static func checkLibrary() -> Bool {
        guard let placeholder = neverIndexed(name: Array("authorization".utf8), value: placeholderValue, flags: 0)
        else { return false }
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return false }
        defer { nghttp2_session_callbacks_del(callbacks) }
        var created: OpaquePointer?
        guard nghttp2_session_client_new(&created, callbacks, nil) == 0, let session = created else { return false }
        defer { nghttp2_session_del(session) }
        guard nghttp2_submit_settings(session, 0, nil, 0) == 0 else { return false }

        // The fields' bytes back to back in one allocation that outlives the submit.
        let fields: [([UInt8], [UInt8])] = [
            (Array(":method".utf8), Array("POST".utf8)), (Array(":scheme".utf8), Array("https".utf8)),
            (Array(":authority".utf8), Array("a.example".utf8)), (Array(":path".utf8), Array("/3/device/00".utf8)),
            (Array("authorization".utf8), placeholderValue),
        ]
        let bytes = fields.flatMap { $0.0 + $0.1 }
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        defer { storage.deallocate() }
        _ = storage.initialize(from: bytes)
        guard let base = storage.baseAddress else { return false }
        var list: [nghttp2_nv] = []
        var offset = 0
        for (name, value) in fields {
            list.append(
                nghttp2_nv(
                    name: base + offset, value: base + offset + name.count, namelen: name.count,
                    valuelen: value.count, flags: 0))
            offset += name.count + value.count
        }
        var provider = nghttp2_data_provider(
            source: nghttp2_data_source(ptr: nil),
            read_callback: { _, _, buffer, length, flags, _, _ in
                guard let buffer, length > 0 else { return 0 }
                buffer[0] = UInt8(ascii: "{")
                flags?.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue)
                return 1
            })
        let submitted = nghttp2_submit_request(session, nil, list, list.count, &provider, nil)
        guard submitted > 0 else { return false }

        let magic = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
        var sawHeaders = false
        var first = true
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            guard count >= 0 else { return false }
            guard count > 0, let data else { break }
            var chunk = UnsafeBufferPointer(start: data, count: count)
            if first, chunk.count >= magic.count, chunk.prefix(magic.count).elementsEqual(magic) {
                chunk = UnsafeBufferPointer(rebasing: chunk[magic.count...])
            }
            first = false
            guard !chunk.isEmpty else { continue }
            guard chunk.count >= 9 else { return false }
            let length = Int(chunk[0]) << 16 | Int(chunk[1]) << 8 | Int(chunk[2])
            guard chunk.count == 9 + length else { return false }  // more or less than one frame
            if chunk[3] == NGHTTP2.frameHeaders {
                guard let base = chunk.baseAddress,
                    let frame = NGHTTP2Session.HeadersFrameLayout(base, chunk.count), frame.endsHeaders,
                    placeholder.withUnsafeBufferPointer({
                        NGHTTP2Session.representation($0, in: frame.block(base))
                    }) != nil
                else { return false }
                sawHeaders = true
            }
        }
        return sawHeaders
    }
}
