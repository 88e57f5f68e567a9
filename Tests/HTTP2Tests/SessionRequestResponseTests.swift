import HTTP2
import Testing

@Suite("HTTP/2 session: request and response", .timeLimit(.minutes(1)))
struct SessionRequestResponseTests {
    @Test("one request with headers and body gets its response")
    func oneRequest() throws {
        let pair = try SessionPair()
        pair.serverEvents.respond = ServerRecorder.echo
        let body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        let streamID = try pair.client.submitRequest(
            headers: requestHeaders(path: "/3/device/abc", extra: [HTTP2Header("apns-topic", "com.example")]),
            body: body, token: 42)
        #expect(streamID == 1)
        try pair.pump()

        let request = try #require(pair.serverEvents.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/3/device/abc")
        #expect(request.headers.value(for: "apns-topic") == "com.example")
        #expect(request.body == body)
        #expect(!request.exceededBodyLimit)

        let response = try #require(pair.clientEvents.responses[42])
        #expect(response.status == 200)
        #expect(response.headers.value(for: "x-path") == "/3/device/abc")
        #expect(response.headers.value(for: ":status") == "200")
        #expect(response.body == body)
        #expect(pair.clientEvents.reports == [42: 1])
        #expect(pair.client.openStreamCount == 0)
        #expect(pair.server.openStreamCount == 0)
        #expect(pair.serverEvents.closed[streamID] == HTTP2ErrorCode.noError)
    }
}
