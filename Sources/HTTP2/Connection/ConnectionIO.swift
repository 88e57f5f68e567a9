// The byte plumbing of one connection on its loop, client or server:
//
//   socket.read -> [TLS: receiveCiphertext, readPlaintext] -> deliver(plaintext) -> session
//   session.produceOutput -> [TLS: writePlaintext, drainCiphertext] -> outbound -> socket.write
//
// Reads drain the socket (bounded per call, for fairness; the loop is level-triggered and calls
// again). Writes gather everything pending into one buffer and send as much as the socket takes;
// the owner asks for EPOLLOUT only while `hasPendingOutput`.

/// Socket reads and writes for one connection, through TLS when it has a session. Loop-owned.
final class ConnectionIO {
    let socket: TCPSocket
    private(set) var tls: TLSSession?
    /// Plaintext connections read into this; TLS ones into their session's ciphertext buffer (so
    /// it is allocated on the first plaintext read only).
    private var readBuffer: [UInt8] = []
    /// Bytes asked of the socket per read.
    static let readSize = 64 * 1024
    private var produced: [UInt8] = []
    private var outbound: [UInt8] = []
    private var outboundStart = 0
    /// Reads per `readAvailable` call before yielding to other connections.
    static let readsPerCall = 8
    /// Session output taken per flush round, so one busy session cannot balloon memory.
    static let outputChunk = 64 * 1024

    init(socket: TCPSocket, tls: TLSSession? = nil) {
        self.socket = socket
        self.tls = tls
    }

    /// Starts TLS on an open socket (after TCP connect, or a proxy's tunnel).
    func startTLS(_ session: TLSSession) {
        tls = session
    }

    var hasPendingOutput: Bool { outboundStart < outbound.count }

    /// What one round of reading found.
    enum ReadOutcome {
        /// Read until the socket would block (or the per-call budget ran out).
        case open
        /// The peer closed its side.
        case endOfFile
    }

    /// Reads what the socket has and hands the plaintext to `deliver`.
    func readAvailable(
        _ deliver: (UnsafeRawBufferPointer) throws(HTTP2ConnectionError) -> Void
    ) throws(HTTP2ConnectionError) -> ReadOutcome {
        if let tls { return try readAvailable(tls, deliver) }
        if readBuffer.isEmpty { readBuffer = [UInt8](repeating: 0, count: Self.readSize) }
        for _ in 0..<Self.readsPerCall {
            let socket = self.socket
            let read = readBuffer.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) -> IOResult in try socket.read(into: buffer) }
            }
            let result: IOResult
            switch read {
            case .success(let value): result = value
            case .failure(let error): throw .system(error)
            }
            switch result {
            case .wouldBlock:
                return .open
            case .endOfFile:
                return .endOfFile
            case .bytes(let count):
                let closed = try readBuffer.withUnsafeBytes { buffer in
                    Result { () throws(HTTP2ConnectionError) -> Bool in
                        try process(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), deliver)
                    }
                }.get()
                if closed { return .endOfFile }
                if count < readBuffer.count { return .open }
            }
        }
        return .open
    }

    /// `readAvailable` over TLS: the socket is read straight into the session's ciphertext buffer.
    private func readAvailable(
        _ tls: TLSSession, _ deliver: (UnsafeRawBufferPointer) throws(HTTP2ConnectionError) -> Void
    ) throws(HTTP2ConnectionError) -> ReadOutcome {
        let socket = self.socket
        for _ in 0..<Self.readsPerCall {
            var result = IOResult.wouldBlock
            do throws(SystemError) {
                try tls.receiveCiphertext(upTo: Self.readSize) { (room) throws(SystemError) -> Int in
                    result = try socket.read(into: room)
                    if case .bytes(let count) = result { return count }
                    return 0
                }
            } catch {
                throw .system(error)
            }
            switch result {
            case .wouldBlock:
                return .open
            case .endOfFile:
                return .endOfFile
            case .bytes(let count):
                if try decrypt(tls, deliver) { return .endOfFile }
                if count < Self.readSize { return .open }
            }
        }
        return .open
    }

    /// Handles bytes received from the socket (or left over from a proxy's answer): decrypts them
    /// when TLS is on and hands the plaintext to `deliver`. Returns true when TLS saw close_notify.
    func process(
        _ bytes: UnsafeRawBufferPointer, _ deliver: (UnsafeRawBufferPointer) throws(HTTP2ConnectionError) -> Void
    ) throws(HTTP2ConnectionError) -> Bool {
        guard let tls else {
            try deliver(bytes)
            return false
        }
        tls.receiveCiphertext(bytes)
        return try decrypt(tls, deliver)
    }

    /// Decrypts what the session has received and hands the plaintext to `deliver`. Returns true
    /// when TLS saw close_notify.
    private func decrypt(
        _ tls: TLSSession, _ deliver: (UnsafeRawBufferPointer) throws(HTTP2ConnectionError) -> Void
    ) throws(HTTP2ConnectionError) -> Bool {
        // Decrypted into the session's own read buffer and delivered from there: no copy into a
        // growing array, no buffer per connection beyond the session's.
        try tls.readBuffer.withUnsafeMutableBytes { buffer in
            Result { () throws(HTTP2ConnectionError) -> Bool in
                while true {
                    let status: TLSReadStatus
                    do throws(TLSError) {
                        status = try tls.readPlaintext(into: buffer)
                    } catch {
                        throw .tls(error)
                    }
                    switch status {
                    case .ok(let count):
                        try deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                        if count < buffer.count { return tls.hasReadClose }
                    case .wantMore:
                        return false
                    case .closed:
                        return true
                    }
                }
            }
        }.get()
    }

    /// Progresses a TLS handshake with no application data to read (after `startTLS`).
    func pumpTLS() throws(HTTP2ConnectionError) {
        guard let tls else { return }
        do {
            _ = try tls.readBuffer.withUnsafeMutableBytes { buffer in
                Result { () throws(TLSError) in try tls.readPlaintext(into: buffer) }
            }.get()
        } catch {
            throw .tls(error)
        }
    }

    /// Queues raw bytes for the socket, bypassing TLS (a proxy CONNECT request).
    func queueRaw(_ bytes: [UInt8]) {
        outbound.append(contentsOf: bytes)
    }

    /// Takes `produce`'s output (through TLS), and writes what the socket accepts.
    /// Returns whether bytes are still queued (then ask for EPOLLOUT).
    func flush(_ produce: (inout [UInt8], Int) -> Void) throws(HTTP2ConnectionError) -> Bool {
        while true {
            let before = outbound.count
            if let tls {
                produced.removeAll(keepingCapacity: true)
                produce(&produced, Self.outputChunk)
                if !produced.isEmpty {
                    let written = produced.withUnsafeBytes { buffer in
                        Result { () throws(TLSError) in try tls.writePlaintext(buffer) }
                    }
                    if case .failure(let error) = written { throw .tls(error) }
                }
                tls.drainCiphertext(into: &outbound)
            } else {
                produce(&outbound, outbound.count + Self.outputChunk)
            }
            let grew = outbound.count > before
            guard try writeQueued() else { return true }
            if !grew { return false }
        }
    }

    /// Writes queued bytes until done or the socket would block; true when everything was written.
    private func writeQueued() throws(HTTP2ConnectionError) -> Bool {
        while outboundStart < outbound.count {
            let start = outboundStart
            let socket = self.socket
            let write = outbound.withUnsafeBytes { buffer in
                Result { () throws(SystemError) -> WriteResult in
                    try socket.write(UnsafeRawBufferPointer(rebasing: buffer[start...]))
                }
            }
            let result: WriteResult
            switch write {
            case .success(let value): result = value
            case .failure(let error): throw .system(error)
            }
            switch result {
            case .written(let count):
                outboundStart += count
            case .wouldBlock:
                if outboundStart > Self.outputChunk {
                    outbound.removeFirst(outboundStart)
                    outboundStart = 0
                }
                return false
            }
        }
        outbound.removeAll(keepingCapacity: true)
        outboundStart = 0
        return true
    }
}
