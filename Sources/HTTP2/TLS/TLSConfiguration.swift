import Keys

/// What a `TLSContext` is built from: the role, whom to trust, who we are, and what to negotiate.
///
/// Build one with `.client(...)` or `.server(...)`, adjust fields if needed, then freeze it into a
/// `TLSContext` once and share that. TLS 1.2 is the minimum; TLS 1.3 is preferred when both sides have it.
public struct TLSConfiguration: Sendable {
    /// Which end of the handshake this side plays.
    public enum Role: Sendable, Equatable {
        case client
        case server
    }

    /// Certificates that anchor verification of the peer.
    public enum TrustRoots: Sendable {
        /// OpenSSL's default locations (Debian: `/etc/ssl/certs`, `/usr/lib/ssl/cert.pem`; `SSL_CERT_FILE` and
        /// `SSL_CERT_DIR` override them).
        case systemDefault
        /// A PEM file of one or more CA certificates.
        case file(String)
        /// These certificates only, such as a `CertificateAuthority`'s root in tests and the emulator.
        case certificates([Certificate])
    }

    /// The oldest protocol version accepted.
    public enum MinimumVersion: Sendable, Equatable {
        case tls12
        case tls13
    }

    public var role: Role
    /// Trust anchors for verifying the peer; loaded only when `verifyPeer` is on.
    public var trustRoots: TrustRoots
    /// Client: verify the server's chain and name (default on). Server: require and verify a client
    /// certificate (default off).
    public var verifyPeer: Bool
    /// Server with `verifyPeer`: whether a client without a certificate is refused (default) or let in
    /// (a certificate it does present must still verify). APNs, and so the emulator, serves both token-
    /// and certificate-authenticated clients on one port.
    public var requireClientCertificate = true
    /// Client: the server name to check the certificate against and send as SNI (an IP literal is checked
    /// against IP SANs and not sent). A session may override it.
    public var serverHostname: String?
    /// Our certificate, leaf first, then intermediates: the server identity, or a client certificate for
    /// APNs certificate authentication. Empty for a client without one.
    public var certificateChain: [Certificate]
    /// The private key of `certificateChain[0]`.
    public var privateKey: PrivateKey?
    /// ALPN protocols in preference order; when non-empty, one of them must be negotiated (except
    /// that a server offering "http/1.1" also accepts a client that offers no ALPN at all).
    public var alpnProtocols: [String]
    public var minimumVersion: MinimumVersion

    /// A client configuration: verifies the server against `trustRoots` and `serverHostname`, offers h2.
    public static func client(
        serverHostname: String? = nil,
        trustRoots: TrustRoots = .systemDefault,
        verifyPeer: Bool = true,
        certificateChain: [Certificate] = [],
        privateKey: PrivateKey? = nil,
        alpnProtocols: [String] = ["h2"],
        minimumVersion: MinimumVersion = .tls12
    ) -> TLSConfiguration {
        TLSConfiguration(
            role: .client, trustRoots: trustRoots, verifyPeer: verifyPeer, serverHostname: serverHostname,
            certificateChain: certificateChain, privateKey: privateKey, alpnProtocols: alpnProtocols,
            minimumVersion: minimumVersion)
    }

    /// A server configuration with its identity; set `verifyPeer` to require client certificates that
    /// chain to `trustRoots`.
    public static func server(
        certificateChain: [Certificate],
        privateKey: PrivateKey,
        trustRoots: TrustRoots = .systemDefault,
        verifyPeer: Bool = false,
        alpnProtocols: [String] = ["h2"],
        minimumVersion: MinimumVersion = .tls12
    ) -> TLSConfiguration {
        TLSConfiguration(
            role: .server, trustRoots: trustRoots, verifyPeer: verifyPeer, serverHostname: nil,
            certificateChain: certificateChain, privateKey: privateKey, alpnProtocols: alpnProtocols,
            minimumVersion: minimumVersion)
    }

    /// This configuration with the certificate, key and chain of a PKCS#12 bundle as our identity.
    public func withIdentity(_ bundle: PKCS12Bundle) -> TLSConfiguration {
        var copy = self
        copy.certificateChain = [bundle.certificate] + bundle.chain
        copy.privateKey = bundle.privateKey
        return copy
    }
}
