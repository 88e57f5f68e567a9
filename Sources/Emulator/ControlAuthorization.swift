import APNs
import HTTP2

/// The control token's check (`EmulatorConfiguration.controlToken`): `/control/v1/` and
/// `/device/v1/` requests must carry `authorization: bearer <token>`.
///
/// The token is compared in time that depends on its length only, not on how many leading bytes
/// a guess gets right, so that a client cannot find it byte by byte from the answers' timing.
enum ControlAuthorization {
    /// Whether `header` (the `authorization` value) is `bearer <token>` (the scheme in any case).
    static func allows(_ header: ArraySlice<UInt8>?, token: String) -> Bool {
        guard let header else { return false }
        let scheme = Array("bearer ".utf8)
        guard header.count > scheme.count,
            zip(header.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        else { return false }
        return constantTimeEqual(header.dropFirst(scheme.count), Array(token.utf8))
    }

    /// Equal bytes, looking at every byte of `expected` whatever `given` holds.
    static func constantTimeEqual(_ given: ArraySlice<UInt8>, _ expected: [UInt8]) -> Bool {
        var difference = UInt64(given.count ^ expected.count)
        let given = Array(given)
        for index in expected.indices {
            let byte = index < given.count ? given[index] : 0
            difference |= UInt64(byte ^ expected[index])
        }
        return difference == 0
    }

    /// 401 `{"reason":"Unauthorized","error":...}` with `www-authenticate: Bearer`.
    static func refuse(_ responder: HTTP2Responder) {
        let body = JSONObject([
            .init(key: "reason", value: .string("Unauthorized")),
            .init(
                key: "error",
                value: .string(
                    "this emulator requires 'authorization: bearer <control token>' on /control/v1/ and /device/v1/")),
        ])
        _ = responder.respond(
            status: 401,
            headers: [HTTP2Header("content-type", "application/json"), HTTP2Header("www-authenticate", "Bearer")],
            body: JSONValue.object(body).encoded())
    }
}
