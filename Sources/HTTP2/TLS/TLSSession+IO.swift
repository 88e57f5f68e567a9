import COpenSSL

// The I/O half of TLSSession: handshake, reads, writes, close. Every OpenSSL call is preceded by
// TLSErrorStack.clear() and every failure drains the stack into the TLSError it throws.

extension TLSSession {
    /// Starts the handshake (a client's ClientHello); a server's starts with the first data it receives.
    ///
    /// Drain the ciphertext afterwards. Calling it again, or on a server, is harmless.
    public func startHandshake() throws(TLSError) {
        try checkUsable()
        if !isHandshakeComplete { try advanceHandshake() }
    }

    /// Decrypts what has been received, appending plaintext to `buffer`; progresses the handshake first.
    ///
    /// Reads until OpenSSL wants more ciphertext, since it buffers whole records that the socket will not
    /// signal again. After a call, drain the ciphertext: handshake messages and alerts may be waiting.
    /// When it throws, plaintext decrypted before the failure has already been appended.
    public func readPlaintext(into buffer: inout [UInt8]) throws(TLSError) -> TLSReadStatus {
        var total = 0
        while true {
            let status = try readBuffer.withUnsafeMutableBytes { chunk in
                Result { () throws(TLSError) -> TLSReadStatus in
                    let status = try readPlaintext(into: chunk)
                    if case .ok(let count) = status {
                        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                    }
                    return status
                }
            }.get()
            switch status {
            case .ok(let count):
                total += count
                if count == readBuffer.count { continue }  // full: more may be decrypted already
                return .ok(total)
            case .wantMore, .closed:
                return total > 0 ? .ok(total) : status
            }
        }
    }

    /// Decrypts what has been received straight into `destination`, until it is full or OpenSSL wants
    /// more ciphertext; progresses the handshake first.
    ///
    /// `.ok(destination.count)`: call again, more plaintext may be decrypted already. Fewer bytes: all
    /// that was received is read (then `hasReadClose` says whether close_notify came with them). Saves
    /// a copy over the array form when the caller consumes each chunk where it lies. After a call,
    /// drain the ciphertext.
    public func readPlaintext(into destination: UnsafeMutableRawBufferPointer) throws(TLSError) -> TLSReadStatus {
        if let receiveFailure { throw fail(receiveFailure) }
        if case .failed(let error) = phase { throw error }
        if !isHandshakeComplete {
            if case .closing = phase { throw .closed }  // closed before the handshake: abandoned
            try advanceHandshake()
            guard isHandshakeComplete else { return .wantMore }
        }
        guard let base = destination.baseAddress else { return peerClosed ? .closed : .wantMore }
        var total = 0
        reading: while !peerClosed && total < destination.count {
            TLSErrorStack.clear()
            let count = SSL_read(ssl, base + total, Int32(clamping: destination.count - total))
            if count > 0 {
                total += Int(count)
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                break reading
            case SSL_ERROR_ZERO_RETURN:
                peerClosed = true
            case let code:
                throw fail(.protocolError(reason: failureReason(code)))
            }
        }
        try flushPending()  // a write that needed a read may go through now
        if total > 0 { return .ok(total) }
        return peerClosed ? .closed : .wantMore
    }

    /// Encrypts `bytes` for the peer, or keeps them until the handshake completes; then drain the ciphertext.
    public func writePlaintext(_ bytes: UnsafeRawBufferPointer) throws(TLSError) {
        try checkUsable()
        guard !bytes.isEmpty else { return }
        if !isHandshakeComplete || pendingStart < pending.count {
            pending.append(contentsOf: bytes)
            try flushPending()
            return
        }
        let written: Int
        do {
            written = try write(bytes)
        } catch {
            throw fail(error)
        }
        if written < bytes.count {
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[written...]))
        }
    }

    /// Queues close_notify (drain it to the peer); later writes throw `.closed`. Reads may continue.
    ///
    /// Before the handshake completes there is nothing to close politely: pending plaintext is dropped.
    public func close() {
        if case .established = phase {
            phase = .closing
            TLSErrorStack.clear()
            _ = SSL_shutdown(ssl)  // 0: ours sent, the peer's not yet seen; either way nothing to retry
            TLSErrorStack.clear()
        } else if case .handshaking = phase {
            phase = .closing
        }
        pending = []
        pendingStart = 0
    }

    private func checkUsable() throws(TLSError) {
        switch phase {
        case .failed(let error): throw error
        case .closing: throw .closed
        case .handshaking, .established: return
        }
    }

    private func advanceHandshake() throws(TLSError) {
        TLSErrorStack.clear()
        let result = SSL_do_handshake(ssl)
        guard result == 1 else {
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return
            case let code: throw fail(handshakeError(code))
            }
        }
        var selected: UnsafePointer<UInt8>? = nil
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        negotiatedALPN = selected.map {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
        }
        let offered = context.configuration.alpnProtocols
        // A client that offers no ALPN at all speaks HTTP/1.1 (RFC 7301 3.1 lets the server go on):
        // a server offering "http/1.1" takes it as that.
        let plainHTTP1 =
            negotiatedALPN == nil && context.configuration.role == .server && offered.contains("http/1.1")
        if !offered.isEmpty && !plainHTTP1 && !offered.contains(where: { $0 == negotiatedALPN }) {
            throw fail(.alpnMismatch(got: negotiatedALPN, offered: offered))
        }
        isHandshakeComplete = true
        if case .handshaking = phase { phase = .established }
        try flushPending()
    }

    /// Hands `pending` to SSL_write as far as it will take it.
    private func flushPending() throws(TLSError) {
        guard isHandshakeComplete, case .established = phase, pendingStart < pending.count else { return }
        var failure: TLSError?
        let written = pending.withUnsafeBytes { all in
            do throws(TLSError) {
                return try write(UnsafeRawBufferPointer(rebasing: all[pendingStart...]))
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw fail(failure) }
        pendingStart += written
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: pending.count <= 64 * 1024)
            pendingStart = 0
        }
    }

    /// SSL_write until all of `bytes` is taken or OpenSSL needs to read first; returns the count taken.
    ///
    /// Does not record failures itself (`bytes` may point into `pending`): callers pass them to `fail`.
    private func write(_ bytes: UnsafeRawBufferPointer) throws(TLSError) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var offset = 0
        while offset < bytes.count {
            TLSErrorStack.clear()
            let count = SSL_write(ssl, base + offset, Int32(clamping: bytes.count - offset))
            if count > 0 {
                offset += Int(count)
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE: return offset
            case SSL_ERROR_ZERO_RETURN: throw .closed
            case let code: throw .protocolError(reason: failureReason(code))
            }
        }
        return offset
    }

    /// Records `error` as the session's end; the write BIO keeps any alert OpenSSL queued.
    private func fail(_ error: TLSError) -> TLSError {
        phase = .failed(error)
        pending = []
        pendingStart = 0
        return error
    }

    private func handshakeError(_ code: Int32) -> TLSError {
        let verdict = SSL_get_verify_result(ssl)
        if context.configuration.verifyPeer, verdict != X509_V_OK {
            TLSErrorStack.clear()
            var reason = X509_verify_cert_error_string(verdict).map { String(cString: $0) } ?? "error \(verdict)"
            if verdict == X509_V_ERR_HOSTNAME_MISMATCH || verdict == X509_V_ERR_IP_ADDRESS_MISMATCH, let checkedName {
                reason += " (the certificate does not name \(String(reflecting: checkedName)))"
            }
            return .certificateVerificationFailed(reason: reason)
        }
        return .handshakeFailed(reason: failureReason(code))
    }

    private func failureReason(_ code: Int32) -> String {
        switch code {
        case SSL_ERROR_SYSCALL:
            TLSErrorStack.summary(or: "the peer's data ended in the middle of a record")
        default:
            TLSErrorStack.summary(or: "SSL error \(code)")
        }
    }
}
