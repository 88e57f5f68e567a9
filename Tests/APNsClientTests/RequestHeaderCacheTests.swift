import APNs
import HTTP2
import Testing

@testable import APNsClient

/// The pool's header blocks: whatever is cached, a request goes out with exactly its own headers.
@Suite(.timeLimit(.minutes(1)))
struct RequestHeaderCacheTests {
    struct Sent {
        /// Fields in the order nghttp2 gets them: the block's pseudo-headers, the buffer's, then
        /// the block's other fields, then the buffer's.
        var fields: [HTTP2Header]
        var fromBlock: Int
    }

    static func send(_ request: APNsRequest, through cache: inout RequestHeaderCache) -> Sent {
        var buffer = HTTP2HeaderBuffer()
        let block = cache.prepare(request, scheme: "https", into: &buffer)
        let blockFields = block?.headers ?? []
        let bufferFields = buffer.headers
        let fields =
            blockFields.filter(\.isPseudoField) + bufferFields.filter(\.isPseudoField)
            + blockFields.filter { !$0.isPseudoField } + bufferFields.filter { !$0.isPseudoField }
        return Sent(fields: fields, fromBlock: blockFields.count)
    }

    static func expectSame(_ sent: Sent, as request: APNsRequest) {
        let expected = request.headers
        #expect(
            sent.fields.filter { !$0.isPseudoField }.map { [$0.nameString, $0.valueString] }
                == expected.filter { !$0.name.hasPrefix(":") }.map { [$0.name, $0.value] })
        #expect(
            Set(sent.fields.filter(\.isPseudoField).map { $0.nameString + " " + $0.valueString })
                == Set(expected.filter { $0.name.hasPrefix(":") }.map { $0.name + " " + $0.value }))
        let neverIndexed = Set(sent.fields.filter(\.neverIndex).map(\.nameString))
        #expect(neverIndexed.isSubset(of: [":path", "apns-id", "apns-expiration", "apns-collapse-id"]))
        for name in [":path", "apns-id"] where expected.contains(where: { $0.name == name }) {
            #expect(neverIndexed.contains(name))
        }
    }

    static func request(
        topic: String? = "com.example.app", pushType: PushType = .alert, priority: Priority? = .immediate,
        expiration: Expiration? = nil, collapseID: String? = nil, authorization: String? = "bearer a.b.c"
    ) throws -> APNsRequest {
        let notification = Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try topic.map { try Topic($0) },
            pushType: pushType, priority: priority, expiration: expiration,
            collapseID: try collapseID.map { try CollapseID($0) },
            payload: Payload.alert(body: "Hi"))
        return APNsRequest(notification: notification, authority: "api.push.apple.com", authorization: authorization)
    }

    static let requests: [@Sendable () throws -> APNsRequest] = [
        { try request() },
        { try request(topic: nil, priority: nil, authorization: nil) },
        {
            try request(
                pushType: .background, priority: .powerConsiderate, expiration: .immediately, collapseID: "sync")
        },
        { try request(topic: "com.example.app.voip", pushType: .voip, collapseID: "c") },
    ]

    @Test(arguments: requests.indices)
    func sendsTheRequestsOwnHeaders(_ index: Int) throws {
        var cache = RequestHeaderCache()
        let request = try Self.requests[index]()
        let first = Self.send(request, through: &cache)
        Self.expectSame(first, as: request)
        let next = try Self.requests[index]()  // another apns-id, the same block
        Self.expectSame(Self.send(next, through: &cache), as: next)
        // :method, :scheme, :authority, authorization?, apns-push-type, apns-topic?, apns-priority?
        #expect(
            first.fromBlock == request.headers.count - 2 - (request.header("apns-expiration") == nil ? 0 : 1)
                - (request.header("apns-collapse-id") == nil ? 0 : 1))
    }

    @Test func manyCombinationsStayCorrectPastTheBlockLimit() throws {
        var cache = RequestHeaderCache()
        for round in 0..<2 {
            for index in 0..<(RequestHeaderCache.notificationBlockLimit + 4) {
                let request = try Self.request(topic: "com.example.app\(index)")
                let sent = Self.send(request, through: &cache)
                Self.expectSame(sent, as: request)
                let cached = index < RequestHeaderCache.notificationBlockLimit
                #expect(sent.fromBlock == (cached ? 7 : 4), "round \(round), topic \(index)")
            }
        }
    }

    @Test func aNewProviderTokenReplacesTheBlocks() throws {
        var cache = RequestHeaderCache()
        let old = try Self.request(authorization: "bearer old")
        Self.expectSame(Self.send(old, through: &cache), as: old)
        let new = try Self.request(authorization: "bearer new")
        let sent = Self.send(new, through: &cache)
        Self.expectSame(sent, as: new)
        #expect(sent.fields.contains { $0.nameString == "authorization" && $0.valueString == "bearer new" })
        #expect(!sent.fields.contains { $0.valueString == "bearer old" })
    }

    @Test func replacedHeadersAreSentAsGiven() throws {
        var cache = RequestHeaderCache()
        var request = try Self.request()
        request.headers = [(":method", "DELETE"), (":scheme", "https"), (":path", "/1/apps/x"), (":authority", "h")]
        let sent = Self.send(request, through: &cache)
        #expect(sent.fromBlock == 0)
        Self.expectSame(sent, as: request)
    }
}

extension HTTP2Header {
    fileprivate var isPseudoField: Bool { name.first == UInt8(ascii: ":") }
}
