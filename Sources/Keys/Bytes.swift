extension Array where Element == UInt8 {
    /// Calls `body` with a pointer OpenSSL may read `count` bytes from: never nil, even for an empty array.
    func withNonNullBytes<R>(_ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
        withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { return body(base, buffer.count) }
            let empty: UInt8 = 0
            return withUnsafePointer(to: empty) { body($0, 0) }
        }
    }
}
