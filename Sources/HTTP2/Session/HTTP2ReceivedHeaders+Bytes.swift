/// Received header fields as bytes, for handlers that read them without making a `String` or an
/// array per field (the emulator's hot path).
extension HTTP2ReceivedHeaders {
    /// The range of field `position`'s name in the buffer ``withUnsafeStorage(_:)`` passes.
    public func nameRange(at position: Int) -> Range<Int> {
        fields[position].nameRange
    }

    /// The range of field `position`'s value in the buffer ``withUnsafeStorage(_:)`` passes.
    public func valueRange(at position: Int) -> Range<Int> {
        fields[position].valueRange
    }

    /// How many fields come first and are pseudo-headers (`:method`, `:path`, ...). nghttp2 rejects
    /// a pseudo-header after a regular one, so the rest are regular headers (and trailers).
    public var pseudoHeaderCount: Int {
        var count = 0
        while count < fields.count, fields[count].nameCount > 0, bytes[Int(fields[count].start)] == UInt8(ascii: ":") {
            count += 1
        }
        return count
    }

    /// Calls `body` with every name and value, back to back; valid only during the call.
    public func withUnsafeStorage<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<used])) }
    }
}

extension HTTP2ReceivedHeaders {
    /// The generic `withUnsafeLayout` below, for a body that answers yes or no and cannot throw: not
    /// generic, so its nested buffer calls are specialized here in the module, where a caller in
    /// another module got them unspecialized, a generic call and a thunk per level, for every request.
    public func withUnsafeLayout(
        _ body: (_ storage: UnsafeBufferPointer<UInt8>, _ layout: UnsafeBufferPointer<UInt32>) -> Bool
    ) -> Bool {
        bytes.withUnsafeBufferPointer { all in
            let storage = UnsafeBufferPointer(rebasing: all[..<used])
            return fields.withUnsafeBufferPointer { fields in
                UnsafeRawBufferPointer(fields).withMemoryRebound(to: UInt32.self) { layout in body(storage, layout) }
            }
        }
    }

    /// Calls `body` with the storage and, per field, three `UInt32`s: where its name starts in the
    /// storage, the name's length, the value's length (pseudo-headers first). Valid only during the
    /// call; for validators that read fields without a call per field.
    public func withUnsafeLayout<Result>(
        _ body: (_ storage: UnsafeBufferPointer<UInt8>, _ layout: UnsafeBufferPointer<UInt32>) throws -> Result
    ) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { all in
            let storage = UnsafeBufferPointer(rebasing: all[..<used])
            return try fields.withUnsafeBufferPointer { fields in
                try UnsafeRawBufferPointer(fields).withMemoryRebound(to: UInt32.self) { layout in
                    try body(storage, layout)
                }
            }
        }
    }
}
