import Foundation
import HTTP2
import HeraldTestSupport
import Keys
import Synchronization
import Testing

/// A CA and a server certificate for localhost / 127.0.0.1, fresh per test.
struct TestPKI {
    let authority: CertificateAuthority
    let serverCertificate: Certificate
    let serverKey: PrivateKey

    init(commonName: String = "localhost") throws {
        authority = try CertificateAuthority.generate(commonName: "Herald Test CA")
        (serverCertificate, serverKey) = try authority.issue(
            commonName: commonName, subjectAlternativeNames: [commonName, "127.0.0.1"], isClient: false)
    }

    func clientContext(serverName: String = "localhost") throws -> TLSContext {
        try TLSContext(.client(serverHostname: serverName, trustRoots: .certificates([authority.certificate])))
    }
}

/// Opens a connection on `loop`, sends one request when ready, returns the result.
func sendOne(
    on loop: EventLoop, _ configuration: HTTP2ClientConnection.Configuration, path: String, method: String = "POST",
    body: [UInt8] = Array(#"{"aps":{"alert":"hi"}}"#.utf8), timeout: Duration? = .seconds(5)
) async -> Result<HTTP2Response, HTTP2RequestFailure> {
    await withCheckedContinuation { continuation in
        loop.execute {
            let once = OnceBox(continuation)
            _ = HTTP2ClientConnection.open(on: loop, configuration: configuration) { connection, event in
                switch event {
                case .ready:
                    var headers = HTTP2HeaderBuffer()
                    headers.append(":method", method)
                    headers.append(":scheme", configuration.tls == nil ? "http" : "https")
                    headers.append(":path", path)
                    headers.append(":authority", "\(configuration.host):\(configuration.port)")
                    connection.submit(headers: nil, extraHeaders: headers, body: body, timeout: timeout) { result in
                        once.resume(result)
                        connection.close()
                    }
                case .closed(let error):
                    once.resume(.failure(HTTP2RequestFailure(kind: .connection(error), mayHaveBeenProcessed: false)))
                default:
                    break
                }
            }
        }
    }
}

/// Resumes a continuation at most once (loop-confined use).
final class OnceBox<T: Sendable>: @unchecked Sendable {
    // SAFETY: used from one loop thread only.
    private var continuation: CheckedContinuation<T, Never>?
    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = continuation }
    func resume(_ value: T) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
