import APNs
import HTTP2
import Testing

@testable import APNsClient

// What `APNsClient.send` hears from the pool: the HTTP/2 answer decoded on the loop
// (`ResponseDecoder.decode(_:sentID:)`), which must mean what the `RawResponse` path means.

@Suite(.timeLimit(.minutes(1)))
struct DecodedResponseTests {
    static let sent = "123e4567-e89b-12d3-a456-426655440000"

    static func response(_ headers: [(String, String)], status: Int = 200, body: String = "") -> HTTP2Response {
        HTTP2Response(
            status: status, headers: HTTP2ReceivedHeaders(headers.map { HTTP2Header($0.0, $0.1) }),
            body: Array(body.utf8))
    }

    /// Both paths for one answer: decoded straight from the response, and through `RawResponse`.
    static func bothWays(_ response: HTTP2Response) -> (
        decoded: Result<APNsResponse, APNsClientError>, raw: Result<APNsResponse, APNsClientError>
    ) {
        let raw = LoopPool.rawResponse(response, sentID: sent, isNotification: true)
        return (ResponseDecoder.decode(response, sentID: sent), ResponseDecoder.decode(.success(raw), sentID: sent))
    }

    @Test func anAnswerWithoutHeadersIsTheSentID() {
        let (decoded, raw) = Self.bothWays(Self.response([]))
        #expect(decoded == .success(APNsResponse(apnsID: Self.sent, uniqueID: nil)))
        #expect(decoded == raw)
    }

    @Test func anEchoedIDAndAUniqueID() {
        let (decoded, raw) = Self.bothWays(Self.response([("apns-id", Self.sent), ("apns-unique-id", "u-1")]))
        #expect(decoded == .success(APNsResponse(apnsID: Self.sent, uniqueID: "u-1")))
        #expect(decoded == raw)
    }

    @Test func anotherIDIsReadInLowercase() {
        let other = "0A1B2C3D-0000-4000-8000-00000000000F"
        let (decoded, raw) = Self.bothWays(Self.response([("apns-id", other)]))
        #expect(decoded == .success(APNsResponse(apnsID: other.lowercased(), uniqueID: nil)))
        #expect(decoded == raw)
    }

    @Test func aRejectionCarriesItsReasonAndTimestamp() {
        let (decoded, raw) = Self.bothWays(
            Self.response(
                [("apns-id", Self.sent)], status: 410, body: #"{"reason":"Unregistered","timestamp":1700000000000}"#))
        guard case .failure(.rejected(let rejection)) = decoded else {
            Issue.record("expected a rejection, got \(decoded)")
            return
        }
        #expect(rejection.status == 410)
        #expect(rejection.reason == .unregistered)
        #expect(rejection.apnsID == Self.sent)
        #expect(rejection.timestampMilliseconds == 1_700_000_000_000)
        #expect(decoded == raw)
    }

    @Test func aRejectionWithoutHeadersNamesTheSentID() {
        let (decoded, raw) = Self.bothWays(Self.response([], status: 400, body: #"{"reason":"BadDeviceToken"}"#))
        guard case .failure(.rejected(let rejection)) = decoded else {
            Issue.record("expected a rejection, got \(decoded)")
            return
        }
        #expect(rejection.reason == .badDeviceToken)
        #expect(rejection.apnsID == Self.sent)
        #expect(decoded == raw)
    }

    @Test func aFailureStaysAFailure() {
        #expect(ResponseDecoder.decode(.failure(.shutDown), sentID: Self.sent) == .failure(.shutDown))
    }
}
