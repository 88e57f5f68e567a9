import COpenSSL
import Keys

// A sans-I/O TLS engine: one OpenSSL `SSL` over one BIO whose ciphertext lives in two Swift byte
// arrays (CiphertextBuffers.swift). Whoever owns the socket moves bytes:
//
//   socket --recv--> receiveCiphertext --> [incoming] --> SSL --> readPlaintext --> application
//   application --> writePlaintext --> SSL --> [outgoing] --> drainCiphertext --send--> socket
//
// States (`phase`):
//
//   handshaking --SSL_do_handshake == 1, ALPN ok--> established --close()--> closing
//        |                                              |
//        +--------------- any fatal error --------------+--> failed(TLSError)   (sticky; rethrown)
//
// Invariants: plaintext written before the handshake completes waits in `pending` and is flushed, in
// order, as soon as it does; after a failure the write BIO still drains, so the alert reaches the peer.
// The I/O half is in TLSSession+IO.swift.

/// What `readPlaintext` found.
public enum TLSReadStatus: Sendable, Equatable {
    /// This many plaintext bytes were appended.
    case ok(Int)
    /// Nothing to deliver until more ciphertext arrives.
    case wantMore
    /// The peer sent close_notify: no more plaintext will come.
    case closed
}

/// One TLS connection's protocol state over memory BIOs: no sockets, no threads.
///
/// Thread-safety: not Sendable. An event loop owns it, with its socket, and calls it only on its thread.
/// Lifecycle: `close()` queues close_notify (drain it to the socket); deinit frees the `SSL` and its BIOs.
public final class TLSSession {
    enum Phase {
        case handshaking
        case established
        case closing
        case failed(TLSError)
    }

    public let context: TLSContext
    let ssl: OpaquePointer
    /// Ciphertext in both directions; the SSL's BIO (owned by `ssl`) reads and writes it.
    let ciphertext = CiphertextBuffers()
    var phase: Phase = .handshaking
    /// Plaintext accepted by `writePlaintext` but not yet taken by SSL_write; `pendingStart` is the first
    /// byte not yet taken.
    var pending: [UInt8] = []
    var pendingStart = 0
    /// Reused SSL_read destination (ConnectionIO decrypts into it too, and delivers from it).
    var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// Set when the peer's close_notify has been read.
    var peerClosed = false
    /// Whether the peer's close_notify has been read: no more plaintext will come.
    public var hasReadClose: Bool { peerClosed }
    /// The first failure to hand ciphertext to OpenSSL, reported by the next read.
    var receiveFailure: TLSError?
    /// The host name or IP address a verifying client checks the server's certificate against.
    var checkedName: String?

    /// Whether the handshake has completed (and ALPN, if configured, was agreed).
    public internal(set) var isHandshakeComplete = false
    /// The ALPN protocol agreed in the handshake, if any.
    public internal(set) var negotiatedALPN: String?

    /// A session for one connection; `serverName` overrides the configuration's `serverHostname` (clients).
    ///
    /// A verifying client needs a server name: without one any certificate from a trusted CA would pass.
    public init(context: TLSContext, serverName: String? = nil) throws(TLSError) {
        self.context = context
        TLSErrorStack.clear()
        guard let ssl = SSL_new(context.context) else {
            throw .invalidConfiguration(reason: "SSL_new: \(TLSErrorStack.summary(or: "failed"))")
        }
        guard let bio = ciphertext.makeBIO() else {
            SSL_free(ssl)
            throw .invalidConfiguration(reason: "BIO_new: \(TLSErrorStack.summary(or: "out of memory"))")
        }
        SSL_set_bio(ssl, bio, bio)  // the SSL owns the BIO from here (one reference for both roles)
        // Read-ahead: OpenSSL asks the BIO for all it holds (up to its buffer) instead of each record's
        // header and then its body, halving the reads through the BIO on a busy connection.
        SSL_set_read_ahead(ssl, 1)
        self.ssl = ssl
        switch context.configuration.role {
        case .server:
            SSL_set_accept_state(ssl)
        case .client:
            SSL_set_connect_state(ssl)
            try configureServerName(serverName ?? context.configuration.serverHostname)
        }
    }

    deinit {
        SSL_free(ssl)  // frees the BIO while `ciphertext` is still alive
    }

    /// The peer's certificate, once the handshake has received it (servers: only when they asked for one).
    public var peerCertificate: Certificate? {
        guard let x509 = SSL_get1_peer_certificate(ssl) else { return nil }
        return try? Certificate(owning: x509)
    }

    /// Whether ciphertext is waiting for `drainCiphertext`.
    public var hasPendingCiphertext: Bool {
        !ciphertext.outgoing.isEmpty
    }

    /// Appends all ciphertext waiting to go to the network to `buffer` (hands its storage over when
    /// `buffer` is empty: no copy).
    public func drainCiphertext(into buffer: inout [UInt8]) {
        ciphertext.drain(into: &buffer)
    }

    /// Hands ciphertext from the network to OpenSSL; `readPlaintext` then decrypts it.
    public func receiveCiphertext(_ bytes: UnsafeRawBufferPointer) {
        ciphertext.receive(bytes)
    }

    /// Like `receiveCiphertext(_:)` without the copy: `read` gets room for up to `count` bytes in
    /// the session's own buffer (a socket read goes straight there) and returns how many it wrote.
    func receiveCiphertext<Failure: Error>(
        upTo count: Int, _ read: (UnsafeMutableRawBufferPointer) throws(Failure) -> Int
    ) throws(Failure) {
        try ciphertext.receive(upTo: count, read)
    }

    private func configureServerName(_ name: String?) throws(TLSError) {
        let verify = context.configuration.verifyPeer
        guard let name else {
            if verify {
                throw .invalidConfiguration(reason: "a client that verifies the server needs its hostname")
            }
            return
        }
        guard !name.isEmpty, !name.utf8.contains(0) else {
            throw .invalidConfiguration(reason: "server name \(String(reflecting: name)) is empty or holds NUL")
        }
        let isIP = IPAddressText.isIPAddress(name)
        if !isIP, herald_SSL_set_tlsext_host_name(ssl, name) != 1 {  // RFC 6066: no IP literals in SNI
            throw .invalidConfiguration(
                reason: "SNI \(String(reflecting: name)): \(TLSErrorStack.summary(or: "refused"))")
        }
        guard verify else { return }
        let accepted: Bool
        if isIP {
            accepted = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1
        } else {
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            accepted = SSL_set1_host(ssl, name) == 1
        }
        checkedName = name
        guard accepted else {
            throw .invalidConfiguration(
                reason: "cannot check the certificate against \(String(reflecting: name)): "
                    + TLSErrorStack.summary(or: "refused"))
        }
    }
}

@available(*, unavailable, message: "a TLSSession belongs to one event loop")
extension TLSSession: Sendable {}
