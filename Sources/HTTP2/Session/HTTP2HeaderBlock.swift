import CNghttp2

/// Headers that stay the same from request to request, laid out once for nghttp2.
///
/// The names and values live in one allocation owned by the block and are handed to nghttp2 with
/// `NGHTTP2_NV_FLAG_NO_COPY_NAME | NO_COPY_VALUE`, so submitting a request copies nothing for them.
/// A session keeps the block alive while a request that uses it is in flight. Pseudo-headers are
/// moved to the front (RFC 9113 section 8.3). Build a new block when a value changes (for example
/// `authorization` after a provider token refresh); keep it identical otherwise so HPACK indexes it.
///
/// Immutable after `init`, so it may be shared between event loops.
public final class HTTP2HeaderBlock: @unchecked Sendable {
    // SAFETY: `storage` and `fields` are written only in init; afterwards nghttp2 and Swift only read.
    private let storage: UnsafeMutableRawPointer
    let fields: UnsafeMutableBufferPointer<nghttp2_nv>
    /// The first `pseudoCount` fields are pseudo-headers.
    let pseudoCount: Int
    /// The headers, pseudo-headers first, as given.
    public let headers: [HTTP2Header]
    /// The field encoded once (see `init(_:preEncoding:)`); nghttp2 is given a placeholder for it.
    let preEncoded: HPACKPreEncodedField?
    /// Where the placeholder value nghttp2 is given for `preEncoded` lies (in `storage`).
    let placeholderValue: UnsafeMutablePointer<UInt8>?
    /// The names' and values' bytes as laid out (with a NUL after each).
    let byteCount: Int

    /// Validates every header (see ``HTTP2Header/validate()``) and lays the block out.
    ///
    /// `preEncoding`: the name of a field nghttp2 always sends as a never-indexed literal (with
    /// nghttp2 1.52, `authorization`), whose value is then HPACK-encoded here once instead of in
    /// every request; the session writes the same bytes nghttp2 would have. Ignored (the field is
    /// sent as usual) when the block has no such field or nghttp2 would index it.
    public init(_ headers: [HTTP2Header], preEncoding: String? = nil) throws(HTTP2Error) {
        for header in headers {
            try header.validate()
        }
        let ordered = headers.filter(\.isPseudo) + headers.filter { !$0.isPseudo }
        var preEncoded: HPACKPreEncodedField?
        var preEncodedIndex = -1
        // What nghttp2 is given: `ordered`, with the pre-encoded field's value replaced.
        var laidOut = ordered
        if let preEncoding, let index = ordered.firstIndex(where: { $0.name == Array(preEncoding.utf8) }),
            let field = HPACKPreEncodedField.make(ordered[index])
        {
            preEncoded = field
            preEncodedIndex = index
            laidOut[index] = HTTP2Header(
                name: ordered[index].name, value: HPACKPreEncodedField.placeholderValue,
                neverIndex: ordered[index].neverIndex)
        }
        self.preEncoded = preEncoded
        let byteCount = laidOut.reduce(0) { $0 + $1.name.count + $1.value.count + 2 }
        self.byteCount = byteCount
        storage = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 1)
        fields = UnsafeMutableBufferPointer<nghttp2_nv>.allocate(capacity: max(laidOut.count, 1))
        var offset = 0
        var placeholderValue: UnsafeMutablePointer<UInt8>?
        for (index, header) in laidOut.enumerated() {
            let name = Self.copy(header.name, into: storage, at: &offset)
            let value = Self.copy(header.value, into: storage, at: &offset)
            let flags = NGHTTP2.nvFlagNoCopy | (header.neverIndex ? NGHTTP2.nvFlagNoIndex : 0)
            fields[index] = nghttp2_nv(
                name: name, value: value, namelen: header.name.count, valuelen: header.value.count, flags: flags)
            if index == preEncodedIndex { placeholderValue = value }
        }
        self.placeholderValue = placeholderValue
        pseudoCount = ordered.prefix { $0.isPseudo }.count
        self.headers = ordered
    }

    /// Convenience for `(name, value)` pairs, none of them never-indexed.
    public convenience init(_ pairs: KeyValuePairs<String, String>) throws(HTTP2Error) {
        try self.init(pairs.map { HTTP2Header($0.key, $0.value) })
    }

    deinit {
        storage.deallocate()
        fields.deallocate()
    }

    public var count: Int { headers.count }

    /// Copies `bytes` and a terminating NUL (some nghttp2 paths print names with `%s`).
    private static func copy(
        _ bytes: [UInt8], into storage: UnsafeMutableRawPointer, at offset: inout Int
    ) -> UnsafeMutablePointer<UInt8> {
        let start = storage.advanced(by: offset)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress {
                start.copyMemory(from: base, byteCount: source.count)
            }
        }
        start.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        offset += bytes.count + 1
        return start.assumingMemoryBound(to: UInt8.self)
    }
}
