import APNs
import HTTP2
import Testing

@testable import APNsClient

// What the pool reads from an HTTP/2 answer (`LoopPool.rawResponse`), and the session settings the
// transport gives its connections.

@Suite(.timeLimit(.minutes(1)))
struct RawResponseTests {
    static let sent = "123e4567-e89b-12d3-a456-426655440000"

    static func response(_ headers: [(String, String)], status: Int = 200) -> HTTP2Response {
        HTTP2Response(
            status: status, headers: HTTP2ReceivedHeaders(headers.map { HTTP2Header($0.0, $0.1) }), body: [])
    }

    @Test func anEchoedIDIsTheSentString() {
        let raw = LoopPool.rawResponse(
            Self.response([("apns-id", Self.sent), ("apns-unique-id", "u-1")]), sentID: Self.sent, isNotification: true)
        #expect(raw == RawResponse(status: 200, apnsID: Self.sent, uniqueID: "u-1"))
    }

    @Test func aDevicePushAnswerWithoutAnIDReadsNoBroadcastIDs() {
        // A server that leaves apns-id out (the client then reports the sent one): a device push's
        // answer is not read for a broadcast's or a channel's ids.
        let headers = [("apns-unique-id", "u-2"), ("apns-request-id", "r-1"), ("apns-channel-id", "c-1")]
        let raw = LoopPool.rawResponse(Self.response(headers), sentID: Self.sent, isNotification: true)
        #expect(raw == RawResponse(status: 200, apnsID: nil, uniqueID: "u-2"))
    }

    @Test func otherAnswersCarryTheirRequestAndChannelIDs() {
        let headers = [("apns-request-id", "r-1"), ("apns-channel-id", "c-1")]
        let raw = LoopPool.rawResponse(Self.response(headers, status: 201), sentID: "r-1", isNotification: false)
        #expect(raw == RawResponse(status: 201, requestID: "r-1", channelID: "c-1"))
    }

    @Test func requestsKnowWhetherTheyAreDevicePushes() throws {
        let notification = APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            pushType: .alert, payload: EncodedPayload(bytes: Array(#"{"aps":{}}"#.utf8)))
        #expect(APNsRequest(notification: notification, authority: "a", authorization: nil).isNotification)
        let management = APNsRequest(
            method: "GET", path: "/1/apps/x/channels", authority: "a", authorization: nil, headers: [], body: [],
            apnsID: "r-1")
        #expect(!management.isNotification)
    }

    @Test func connectionsNameApnsIDByIndexAfterTheFirstRequest() throws {
        let configuration = try HTTP2Transport.connectionConfiguration(
            TransportConfiguration(endpoint: try APNsEndpoint(url: "http://127.0.0.1:1")))
        #expect(configuration.session.plainNamesIndexedOnce == HTTP2HeaderNameSet(["apns-id"]))
    }
}
