import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

// The BIO a TLSSession's SSL reads ciphertext from and writes ciphertext to: two Swift byte arrays
// behind a custom BIO method, instead of two OpenSSL memory BIOs. A memory BIO copies every write
// into its buffer after zeroing the space (BUF_MEM_grow_clean), and the bytes are copied out again;
// here OpenSSL's records are appended straight to `outgoing`, which the connection takes by swap,
// and reads come straight from `incoming`: no zeroing and one copy fewer each way. A connection
// reads the socket straight into `incoming`'s free room (`receive(upTo:_:)`), not into a buffer of
// its own first.
//
//   socket --recv into incoming's room (or receiveCiphertext, a copy)--> incoming --bread--> SSL
//   SSL --bwrite--> outgoing --drainCiphertext (swap when the caller's buffer is empty)--> socket
//
// An empty `incoming` reads as "retry" (SSL_ERROR_WANT_READ), never as end of stream. Loop-confined
// with its session; the BIO holds it unretained (the session owns both, and frees the BIO first).

/// The ciphertext waiting in each direction of one TLS session.
final class CiphertextBuffers {
    /// From the network, not yet read by the SSL: `incoming[incomingOffset..<incomingEnd]`; the
    /// bytes past `incomingEnd` are room for the next receive.
    var incoming: [UInt8] = []
    var incomingOffset = 0
    var incomingEnd = 0
    /// From the SSL, not yet drained to the network.
    var outgoing: [UInt8] = []

    var incomingCount: Int { incomingEnd - incomingOffset }

    func receive(_ bytes: UnsafeRawBufferPointer) {
        receive(upTo: bytes.count) { room in
            room.copyMemory(from: bytes)
            return bytes.count
        }
    }

    /// Hands `fill` room for up to `count` bytes after those received so far; keeps the first
    /// bytes `fill` returns it wrote (at most `count`).
    func receive<Failure: Error>(upTo count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int)
        throws(Failure)
    {
        makeRoom(count)
        let start = incomingEnd
        let written = try incoming.withUnsafeMutableBytes { all in
            Result { () throws(Failure) -> Int in
                try fill(UnsafeMutableRawBufferPointer(rebasing: all[start..<(start + count)]))
            }
        }.get()
        incomingEnd += min(max(written, 0), count)
    }

    /// Makes `incoming` hold `count` free bytes after its unread ones, moving those to the front
    /// first (they are at most a record's worth) and growing only when that is not enough.
    private func makeRoom(_ count: Int) {
        if incomingOffset == incomingEnd {
            incomingOffset = 0
            incomingEnd = 0
            if incoming.count > Self.keptCapacity && count <= Self.keptCapacity { incoming = [] }  // give a burst's memory back
        }
        guard incoming.count - incomingEnd < count else { return }
        let unread = incomingCount
        if incomingOffset > 0 {
            let offset = incomingOffset
            incoming.withUnsafeMutableBytes { all in
                guard let base = all.baseAddress else { return }
                memmove(base, base + offset, unread)  // the regions may overlap
            }
            incomingOffset = 0
            incomingEnd = unread
        }
        if incoming.count < unread + count {
            incoming.append(contentsOf: repeatElement(0, count: unread + count - incoming.count))
        }
    }

    /// Larger buffers are freed once read through.
    static let keptCapacity = 256 * 1024

    /// Copies up to `count` bytes to `destination`; returns how many.
    func read(into destination: UnsafeMutableRawPointer, count: Int) -> Int {
        let taken = min(count, incomingCount)
        guard taken > 0 else { return 0 }
        incoming.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress {
                destination.copyMemory(from: base + incomingOffset, byteCount: taken)
            }
        }
        incomingOffset += taken
        return taken
    }

    /// Moves the outgoing ciphertext to the end of `buffer`.
    func drain(into buffer: inout [UInt8]) {
        guard !outgoing.isEmpty else { return }
        if buffer.isEmpty {
            swap(&buffer, &outgoing)
        } else {
            buffer.append(contentsOf: outgoing)
            outgoing.removeAll(keepingCapacity: outgoing.capacity <= 256 * 1024)
        }
    }

    /// A BIO over these buffers, for `SSL_set_bio(ssl, bio, bio)`; nil if OpenSSL is out of memory.
    /// The BIO does not retain `self`: keep `self` alive until the BIO is freed.
    func makeBIO() -> OpaquePointer? {
        guard let method = CiphertextBIOMethod.shared, let bio = BIO_new(method) else { return nil }
        BIO_set_data(bio, Unmanaged.passUnretained(self).toOpaque())
        BIO_set_init(bio, 1)
        return bio
    }
}

/// The BIO method, made once and shared (OpenSSL only reads it).
enum CiphertextBIOMethod {
    // SAFETY: written once by the (thread-safe) lazy initialiser, never mutated, only read by OpenSSL.
    nonisolated(unsafe) static let shared: OpaquePointer? = make()

    private static func make() -> OpaquePointer? {
        guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "herald-ciphertext") else {
            return nil
        }
        BIO_meth_set_write_ex(method, ciphertextWrite)
        BIO_meth_set_read_ex(method, ciphertextRead)
        BIO_meth_set_ctrl(method, ciphertextControl)
        return method
    }
}

@inline(__always)
private func withBuffers<Result>(_ bio: OpaquePointer?, orElse failure: Result, _ body: (CiphertextBuffers) -> Result)
    -> Result
{
    guard let bio, let data = BIO_get_data(bio) else { return failure }
    return Unmanaged<CiphertextBuffers>.fromOpaque(data)._withUnsafeGuaranteedRef(body)
}

private func ciphertextWrite(
    _ bio: OpaquePointer?, _ data: UnsafePointer<CChar>?, _ count: Int, _ written: UnsafeMutablePointer<Int>?
) -> Int32 {
    BIO_clear_flags(bio, BIO_FLAGS_READ | BIO_FLAGS_WRITE | BIO_FLAGS_IO_SPECIAL | BIO_FLAGS_SHOULD_RETRY)
    guard let data, let written else { return 0 }
    return withBuffers(bio, orElse: 0) { buffers in
        buffers.outgoing.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        written.pointee = count
        return 1
    }
}

private func ciphertextRead(
    _ bio: OpaquePointer?, _ data: UnsafeMutablePointer<CChar>?, _ count: Int, _ read: UnsafeMutablePointer<Int>?
) -> Int32 {
    BIO_clear_flags(bio, BIO_FLAGS_READ | BIO_FLAGS_WRITE | BIO_FLAGS_IO_SPECIAL | BIO_FLAGS_SHOULD_RETRY)
    guard let data, let read else { return 0 }
    let taken = withBuffers(bio, orElse: 0) { $0.read(into: UnsafeMutableRawPointer(data), count: count) }
    read.pointee = taken
    guard taken > 0 else {
        BIO_set_flags(bio, BIO_FLAGS_READ | BIO_FLAGS_SHOULD_RETRY)  // empty: try again later
        return 0
    }
    return 1
}

private func ciphertextControl(
    _ bio: OpaquePointer?, _ command: Int32, _ number: Int, _ pointer: UnsafeMutableRawPointer?
) -> Int {
    switch command {
    case BIO_CTRL_FLUSH:
        return 1
    case BIO_CTRL_PENDING:
        return withBuffers(bio, orElse: 0) { $0.incomingCount }
    case BIO_CTRL_WPENDING:
        return withBuffers(bio, orElse: 0) { $0.outgoing.count }
    default:
        return 0
    }
}
