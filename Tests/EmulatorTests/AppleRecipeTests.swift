import APNs
import Emulator
import Foundation
import HTTP2
import HeraldTestSupport
import Keys
import Testing

/// Apple's own command-line recipe ("Sending push notifications using command-line tools"): a JWT
/// built with `openssl` (a DER signature) and `curl --http2`, changing only host, port and CA.
@Suite(.timeLimit(.minutes(1)))
struct AppleRecipeTests {
    @Test func opensslJWTAndCurlGet200() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-recipe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = try P256PrivateKey.generate()
        try Data(try key.pkcs8PEM().utf8).write(to: URL(fileURLWithPath: directory + "/AuthKey_ABC123DEFG.p8"))
        let authority = try CertificateAuthority.generate(commonName: "Recipe CA")
        let (certificate, serverKey) = try authority.issue(commonName: "localhost", subjectAlternativeNames: ["localhost"])
        try Data(try authority.certificate.pem().utf8).write(to: URL(fileURLWithPath: directory + "/ca.pem"))

        let loops = try EventLoopGroup(loopCount: 1, name: "recipe")
        let emulator = try await Emulator.start(
            EmulatorConfiguration(keys: [.init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)]),
            tls: try TLSContext(.server(certificateChain: [certificate], privateKey: serverKey)), loops: loops)

        let script = """
            set -eu
            TEAM_ID=DEF123GHIJ
            TOKEN_KEY_FILE_NAME=\(directory)/AuthKey_ABC123DEFG.p8
            AUTH_KEY_ID=ABC123DEFG
            TOPIC=com.example.app
            DEVICE_TOKEN=\(String(repeating: "ab", count: 32))
            APNS_HOST_NAME=localhost:\(emulator.port)
            JWT_ISSUE_TIME=$(date +%s)
            JWT_HEADER=$(printf '{ "alg": "ES256", "kid": "%s" }' "${AUTH_KEY_ID}" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
            JWT_CLAIMS=$(printf '{ "iss": "%s", "iat": %d }' "${TEAM_ID}" "${JWT_ISSUE_TIME}" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
            JWT_HEADER_CLAIMS="${JWT_HEADER}.${JWT_CLAIMS}"
            JWT_SIGNED_HEADER_CLAIMS=$(printf "${JWT_HEADER_CLAIMS}" | openssl dgst -binary -sha256 -sign "${TOKEN_KEY_FILE_NAME}" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
            AUTHENTICATION_TOKEN="${JWT_HEADER}.${JWT_CLAIMS}.${JWT_SIGNED_HEADER_CLAIMS}"
            code=$(curl -s -o /dev/null -w '%{http_code}' --cacert \(directory)/ca.pem --header "apns-topic: $TOPIC" \\
              --header "apns-push-type: alert" --header "authorization: bearer $AUTHENTICATION_TOKEN" \\
              --data '{"aps":{"alert":"test"}}' --http2 https://${APNS_HOST_NAME}/3/device/${DEVICE_TOKEN})
            [ "$code" = 200 ]
            """
        try Data(script.utf8).write(to: URL(fileURLWithPath: directory + "/recipe.sh"))
        let status = try ChildProcess(["/bin/bash", directory + "/recipe.sh"]).wait()
        #expect(status == 0, "curl got 200 with Apple's openssl-signed token")
        #expect(emulator.log.entries().map(\.status) == [200])
        await emulator.shutdown()
        await loops.shutdown()
    }
}
