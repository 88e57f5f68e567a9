import Foundation
import Keys
import Testing

@Suite("PKCS12Bundle loading", .timeLimit(.minutes(1)))
struct CertificatePKCS12Tests {
    static let password = "p12-Secret!"

    /// Exports the fixture's leaf, key and CA with `openssl pkcs12 -export` (plus `extra` arguments).
    static func export(_ fixture: IssuedFixture, _ extra: [String] = [], in scratch: ScratchDirectory) throws -> String
    {
        try fixture.write(to: scratch)
        let path = scratch.path("bundle.p12")
        try OpenSSLTool.run(
            [
                "pkcs12", "-export", "-inkey", scratch.path("leaf-key.pem"), "-in", scratch.path("leaf.pem"),
                "-certfile", scratch.path("ca.pem"), "-passout", "pass:\(password)", "-out", path,
            ] + extra)
        return path
    }

    @Test("a bundle from openssl pkcs12 -export loads with the right password", arguments: [[], ["-legacy"]])
    func roundTrip(extra: [String]) throws {
        let fixture = try IssuedFixture(isClient: true)
        let scratch = try ScratchDirectory()
        let path = try Self.export(fixture, extra, in: scratch)
        let bundle = try PKCS12Bundle(contentsOfFile: path, password: Self.password)
        #expect(bundle.certificate == fixture.leaf)
        #expect(bundle.privateKey.matches(fixture.leaf))
        #expect(bundle.chain == [fixture.authority.certificate])
        #expect(try PKCS12Bundle(der: scratch.read("bundle.p12"), password: Self.password).certificate == fixture.leaf)
    }

    @Test("a wrong password is a clear error naming the file, never the password")
    func wrongPassword() throws {
        let fixture = try IssuedFixture(isClient: true)
        let scratch = try ScratchDirectory()
        let path = try Self.export(fixture, in: scratch)
        for attempt in ["hunter2-wrong", ""] {
            let error = keysError { () throws(KeysError) in try PKCS12Bundle(contentsOfFile: path, password: attempt) }
            #expect(error == .wrongPassword(item: "PKCS#12 bundle", path: path))
            let message = error?.description ?? ""
            let quoted = String(reflecting: path)
            #expect(message == "the password given does not decrypt the PKCS#12 bundle in \(quoted) (wrong password?)")
            #expect(!message.contains(Self.password))
            if !attempt.isEmpty { #expect(!message.contains(attempt)) }
        }
    }

    @Test("a bundle with an empty password loads with the empty password")
    func emptyPassword() throws {
        let fixture = try IssuedFixture()
        let scratch = try ScratchDirectory()
        try fixture.write(to: scratch)
        try OpenSSLTool.run([
            "pkcs12", "-export", "-inkey", scratch.path("leaf-key.pem"), "-in", scratch.path("leaf.pem"),
            "-passout", "pass:", "-out", scratch.path("empty.p12"),
        ])
        let bundle = try PKCS12Bundle(contentsOfFile: scratch.path("empty.p12"), password: "")
        #expect(bundle.certificate == fixture.leaf && bundle.chain.isEmpty)
    }

    @Test("not a PKCS#12 file, or a bundle without a key, is malformedPKCS12")
    func malformed() throws {
        let fixture = try IssuedFixture()
        let scratch = try ScratchDirectory()
        let pemPath = try scratch.write("cert.pem", try fixture.leaf.pem())
        guard
            case .malformedPKCS12(_, let path)? = keysError({ () throws(KeysError) in
                try PKCS12Bundle(contentsOfFile: pemPath, password: "x")
            })?.kind
        else {
            Issue.record("a PEM file is not a PKCS#12 bundle")
            return
        }
        #expect(path == pemPath)

        try OpenSSLTool.run([
            "pkcs12", "-export", "-nokeys", "-in", scratch.path("cert.pem"), "-passout", "pass:x",
            "-out", scratch.path("nokey.p12"),
        ])
        let error = keysError { () throws(KeysError) in
            try PKCS12Bundle(contentsOfFile: scratch.path("nokey.p12"), password: "x")
        }
        #expect(error?.description.contains("it holds no") == true, "\(String(describing: error))")
    }
}
