import HTTP2
import Keys

/// The API's TLS identity from PEM files (`herald gateway --tls-cert FILE --tls-key FILE`).
public enum GatewayTLS {
    /// What the API offers by ALPN: HTTP/2 first, HTTP/1.1 for curl without --http2, browsers and
    /// webhooks (a client offering no ALPN gets HTTP/1.1 too).
    public static let alpnProtocols = ["h2", "http/1.1"]

    /// A server context with the certificate chain (the server's certificate first) and its key.
    /// Errors name the file at fault.
    public static func serverContext(certificatePath: String, keyPath: String) throws(GatewaySetupError) -> TLSContext {
        let chain: [Certificate]
        do {
            chain = try Certificate.chain(contentsOfFile: certificatePath)
        } catch {
            throw GatewaySetupError("--tls-cert '\(certificatePath)': \(error)")
        }
        let key: PrivateKey
        do {
            key = try PrivateKey(contentsOfFile: keyPath)
        } catch {
            throw GatewaySetupError("--tls-key '\(keyPath)': \(error)")
        }
        do {
            return try TLSContext(.server(certificateChain: chain, privateKey: key, alpnProtocols: alpnProtocols))
        } catch {
            throw GatewaySetupError("--tls-cert/--tls-key: \(error)")
        }
    }
}
