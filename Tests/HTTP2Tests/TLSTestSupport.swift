import Foundation
import HTTP2
import HeraldTestSupport
import Keys

/// A client and a server session joined in memory: `pump()` moves ciphertext both ways until quiescent.
///
/// Each side's plaintext collects in `received`, its first error in `error`; a failed side's ciphertext
/// (its alert) is still delivered to the other side.
final class TLSPair {
    final class Side {
        let session: TLSSession
        var received: [UInt8] = []
        var error: TLSError?
        var sawClose = false

        init(_ session: TLSSession) {
            self.session = session
        }

        func read() {
            guard error == nil else { return }
            do {
                if try session.readPlaintext(into: &received) == .closed { sawClose = true }
            } catch {
                self.error = error
            }
        }
    }

    let client: Side
    let server: Side
    /// Ciphertext bytes moved in each direction, for checks that data really crossed the wire.
    private(set) var bytesToServer = 0
    private(set) var bytesToClient = 0

    init(client: TLSSession, server: TLSSession) {
        self.client = Side(client)
        self.server = Side(server)
    }

    /// A pair over fresh contexts; the client starts its handshake but nothing is pumped yet.
    convenience init(client: TLSConfiguration, server: TLSConfiguration, serverName: String? = nil) throws {
        let clientSession = try TLSSession(context: TLSContext(client), serverName: serverName)
        let serverSession = try TLSSession(context: TLSContext(server))
        self.init(client: clientSession, server: serverSession)
        try clientSession.startHandshake()
    }

    /// Moves ciphertext until a round moves nothing; returns the number of rounds.
    @discardableResult
    func pump(maximumRounds: Int = 10_000) -> Int {
        var wire: [UInt8] = []
        for round in 1...maximumRounds {
            wire.removeAll(keepingCapacity: true)
            client.session.drainCiphertext(into: &wire)
            let toServer = wire.count
            bytesToServer += toServer
            wire.withUnsafeBytes { server.session.receiveCiphertext($0) }
            server.read()

            wire.removeAll(keepingCapacity: true)
            server.session.drainCiphertext(into: &wire)
            bytesToClient += wire.count
            wire.withUnsafeBytes { client.session.receiveCiphertext($0) }
            client.read()
            if toServer == 0 && wire.isEmpty { return round }
        }
        return maximumRounds
    }
}

/// A test PKI: a CA and a localhost server identity it issued.
struct TLSFixture {
    let authority: CertificateAuthority
    let serverCertificate: Certificate
    let serverKey: PrivateKey

    init(
        serverNames: [String] = ["localhost", "127.0.0.1", "::1"], commonName: String = "localhost",
        validity: CertificateValidity = .days(825)
    ) throws {
        authority = try CertificateAuthority.generate(commonName: "Herald TLS Test CA")
        (serverCertificate, serverKey) = try authority.issue(
            commonName: commonName, subjectAlternativeNames: serverNames, validity: validity)
    }

    var serverConfiguration: TLSConfiguration {
        .server(certificateChain: [serverCertificate], privateKey: serverKey)
    }

    func clientConfiguration(serverHostname: String? = "localhost") -> TLSConfiguration {
        .client(serverHostname: serverHostname, trustRoots: .certificates([authority.certificate]))
    }
}

/// A temporary directory for one test, removed when the value goes away.
final class TLSScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tls-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    func readText(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }
}

/// Runs `/usr/bin/openssl` with empty stdin (it can never prompt); throws with its stderr on failure.
enum OpenSSLCommand {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ arguments: [String]) throws {
        let process = try ChildProcess("/usr/bin/openssl", arguments, stdout: .null)
        let status = process.waitUntilExit()
        let stderr = process.waitForCapturedErrors()
        guard status == 0 else {
            throw Failure(
                description: "openssl \(arguments.first ?? "") failed: \(String(decoding: stderr, as: UTF8.self))")
        }
    }
}

extension TLSSession {
    /// Writes `bytes` as plaintext.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writePlaintext($0) }
    }
}

/// `count` bytes of a repeating pattern that a truncation or reordering would break.
func patternBytes(_ count: Int, seed: UInt8 = 7) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ ($0 >> 8)) }
}
