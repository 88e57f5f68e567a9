import CNghttp2

// One header field HPACK-encoded once, so a session can put its bytes into every HEADERS frame
// instead of having nghttp2 encode it per request (see NGHTTP2Session+Splice.swift).
//
// nghttp2 1.52 sends `authorization` as a never-indexed literal whatever the flags, Huffman-coding
// the value each time: the provider token, the longest header, coded again in every request. A
// never-indexed literal changes neither side's dynamic table, so its encoding does not depend on
// the connection: the bytes encoded once by a fresh deflater are the bytes the session's deflater
// would write. The block hands nghttp2 a one-byte placeholder value instead (`~`, which Huffman
// lengthens, so nghttp2 writes it raw without coding it); the session swaps the placeholder's
// representation for the real one as the frame leaves nghttp2.
//
// Sound only when both representations are never-indexed literals: `make` checks that with
// nghttp2's own deflater and returns nil otherwise (the field is then sent as usual).

/// A header field's HPACK representation, and the placeholder's it stands in for. Immutable, so
/// it may be shared between threads (a block is); a class, so a session reads it without copies.
final class HPACKPreEncodedField: @unchecked Sendable {
    // SAFETY: `bytes` is written only in init; afterwards only read.
    /// The value nghttp2 is given in the field's place.
    static let placeholderValue: [UInt8] = [UInt8(ascii: "~")]

    /// Longer fields are sent as usual: spliced in, they could grow a HEADERS frame past the size
    /// every peer accepts, where nghttp2 would have split the block (see NGHTTP2Session+Splice.swift).
    static let maximumEncodedCount = 4096

    /// The placeholder field's representation, as nghttp2 writes it.
    let placeholder: [UInt8]
    /// The real field's representation.
    let encoded: [UInt8]
    /// `encoded`'s bytes, then `placeholder`'s, then the real value, where the session reads them
    /// (no array retained).
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The real value, for a request whose header block might be split (the session then hands
    /// nghttp2 the real field instead of the placeholder).
    let value: UnsafeBufferPointer<UInt8>

    private init(placeholder: [UInt8], encoded: [UInt8], value: [UInt8]) {
        self.placeholder = placeholder
        self.encoded = encoded
        bytes = .allocate(capacity: encoded.count + placeholder.count + value.count)
        _ = bytes.initialize(from: encoded + placeholder + value)
        self.value = UnsafeBufferPointer(rebasing: bytes[(encoded.count + placeholder.count)...])
    }

    deinit {
        bytes.deallocate()
    }

    var encodedBytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[0..<encoded.count]) }
    var placeholderBytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[encoded.count..<(encoded.count + placeholder.count)])
    }

    /// Encodes `field` and the placeholder with nghttp2's deflater; nil unless both come out
    /// as never-indexed literals (RFC 7541 section 6.2.3) and the field within `maximumEncodedCount`.
    static func make(_ field: HTTP2Header) -> HPACKPreEncodedField? {
        guard libraryHandsOutWholeFrames else { return nil }  // see HPACKPreEncodedField+LibraryCheck.swift
        guard !field.value.isEmpty else { return nil }
        let flags = field.neverIndex ? NGHTTP2.nvFlagNoIndex : NGHTTP2.flagNone
        guard let placeholder = neverIndexed(name: field.name, value: placeholderValue, flags: flags),
            let encoded = neverIndexed(name: field.name, value: field.value, flags: flags),
            encoded.count <= maximumEncodedCount
        else { return nil }
        return HPACKPreEncodedField(placeholder: placeholder, encoded: encoded, value: field.value)
    }

    /// The representation a fresh deflater writes for the field, if it is a never-indexed literal.
    static func neverIndexed(name: [UInt8], value: [UInt8], flags: UInt8) -> [UInt8]? {
        var deflater: OpaquePointer?
        guard nghttp2_hd_deflate_new(&deflater, 4096) == 0, let deflater else { return nil }
        defer { nghttp2_hd_deflate_del(deflater) }
        var name = name
        var value = value
        let capacity = 64 + name.count + value.count
        var output = [UInt8](repeating: 0, count: capacity)
        let written = name.withUnsafeMutableBufferPointer { namePointer in
            value.withUnsafeMutableBufferPointer { valuePointer in
                var field = nghttp2_nv(
                    name: namePointer.baseAddress, value: valuePointer.baseAddress, namelen: namePointer.count,
                    valuelen: valuePointer.count, flags: flags)
                return output.withUnsafeMutableBufferPointer { out in
                    nghttp2_hd_deflate_hd(deflater, out.baseAddress, out.count, &field, 1)
                }
            }
        }
        // 0001xxxx: literal never indexed. Anything else touches or may touch the dynamic table.
        guard written > 0, output[0] & 0xF0 == 0x10 else { return nil }
        return Array(output[0..<written])
    }
}
