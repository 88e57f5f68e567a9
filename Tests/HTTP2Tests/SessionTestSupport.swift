import APNs
import HTTP2

// In-memory harness for the session tests: a client and a server session joined by pumping each
// one's output into the other's input until neither has anything left to say. No sockets.

/// Small, seeded, reproducible.
typealias SeededRandom = SplitMix64

/// Records everything a client session reports, and how often each token was reported.
final class ClientRecorder: HTTP2ClientSessionDelegate {
    var responses: [UInt64: HTTP2Response] = [:]
    var failures: [UInt64: HTTP2StreamError] = [:]
    var reports: [UInt64: Int] = [:]
    var goAways: [HTTP2GoAway] = []
    var settings: [HTTP2Settings] = []
    var pingAcks: [UInt64] = []
    /// Streaming requests: the response heads, and the body chunks in arrival order.
    var heads: [UInt64: HTTP2Response] = [:]
    var chunks: [UInt64: [[UInt8]]] = [:]
    /// Runs after each token report (to resubmit, close, ...).
    var onReport: ((HTTP2ClientSession, UInt64) -> Void)?

    func session(_ session: HTTP2ClientSession, didReceiveHead response: HTTP2Response, for token: UInt64) {
        heads[token] = response
    }

    func session(_ session: HTTP2ClientSession, didReceiveData data: [UInt8], for token: UInt64) {
        chunks[token, default: []].append(data)
    }

    func session(_ session: HTTP2ClientSession, didReceive response: HTTP2Response, for token: UInt64) {
        responses[token] = response
        reports[token, default: 0] += 1
        onReport?(session, token)
    }

    func session(_ session: HTTP2ClientSession, didFail error: HTTP2StreamError, for token: UInt64) {
        failures[token] = error
        reports[token, default: 0] += 1
        onReport?(session, token)
    }

    func session(_ session: HTTP2ClientSession, didReceiveGoAway goAway: HTTP2GoAway) {
        goAways.append(goAway)
    }

    func session(_ session: HTTP2ClientSession, didReceiveSettings settings: HTTP2Settings) {
        self.settings.append(settings)
    }

    func session(_ session: HTTP2ClientSession, didReceivePingAck payload: UInt64) {
        pingAcks.append(payload)
    }

    var reportedTwice: [UInt64] { reports.filter { $0.value != 1 }.map(\.key) }
}

/// Records requests; answers them with `respond` when set (otherwise they wait in `pending`).
final class ServerRecorder: HTTP2ServerSessionDelegate {
    var requests: [HTTP2Request] = []
    var pending: [HTTP2Request] = []
    var closed: [Int32: HTTP2ErrorCode] = [:]
    var pingAcks: [UInt64] = []
    var respond: ((HTTP2ServerSession, HTTP2Request) throws -> Void)?
    var respondErrors: [Error] = []

    func session(_ session: HTTP2ServerSession, didReceive request: HTTP2Request) {
        requests.append(request)
        guard let respond else {
            pending.append(request)
            return
        }
        do {
            try respond(session, request)
        } catch {
            respondErrors.append(error)
        }
    }

    func session(_ session: HTTP2ServerSession, didCloseStream streamID: Int32, errorCode: HTTP2ErrorCode) {
        closed[streamID] = errorCode
    }

    func session(_ session: HTTP2ServerSession, didReceivePingAck payload: UInt64) {
        pingAcks.append(payload)
    }

    /// Echo: 200 with the request body and a header naming the path.
    static func echo(_ session: HTTP2ServerSession, _ request: HTTP2Request) throws(HTTP2Error) {
        try session.submitResponse(
            streamID: request.streamID, status: 200,
            headers: [HTTP2Header("x-path", request.path ?? ""), HTTP2Header("content-type", "application/json")],
            body: request.body)
    }
}

/// A client and a server session joined in memory.
final class SessionPair {
    let client: HTTP2ClientSession
    let server: HTTP2ServerSession
    let clientEvents = ClientRecorder()
    let serverEvents = ServerRecorder()
    /// Frames the client sent, and frames the server sent.
    var clientFrames = FrameTally(clientSide: true)
    var serverFrames = FrameTally(clientSide: false)
    /// Every byte the client sent, in order, and every byte the server sent.
    var clientBytes: [UInt8] = []
    var serverBytes: [UInt8] = []
    private var toServer: [UInt8] = []
    private var toClient: [UInt8] = []

    init(
        client clientConfiguration: HTTP2SessionConfiguration = HTTP2SessionConfiguration(),
        server serverConfiguration: HTTP2SessionConfiguration = HTTP2SessionConfiguration()
    ) throws {
        client = try HTTP2ClientSession(configuration: clientConfiguration)
        server = try HTTP2ServerSession(configuration: serverConfiguration)
        client.delegate = clientEvents
        server.delegate = serverEvents
    }

    /// Moves bytes both ways until neither side produces any; returns the rounds it took.
    @discardableResult
    func pump(maxRounds: Int = 10_000) throws -> Int {
        for round in 0..<maxRounds {
            toServer.removeAll(keepingCapacity: true)
            client.produceOutput(into: &toServer)
            if !toServer.isEmpty {
                clientFrames.feed(toServer)
                clientBytes.append(contentsOf: toServer)
                try feed(toServer, to: server.receive)
            }
            toClient.removeAll(keepingCapacity: true)
            server.produceOutput(into: &toClient)
            if !toClient.isEmpty {
                serverBytes.append(contentsOf: toClient)
                serverFrames.feed(toClient)
                try feed(toClient, to: client.receive)
            }
            if toServer.isEmpty && toClient.isEmpty {
                return round
            }
        }
        throw PumpError.notQuiescent
    }

    private func feed(_ bytes: [UInt8], to receive: (UnsafeRawBufferPointer) throws(HTTP2Error) -> Void) throws {
        var failure: HTTP2Error?
        bytes.withUnsafeBytes { raw in
            do throws(HTTP2Error) {
                try receive(raw)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    enum PumpError: Error {
        case notQuiescent
    }
}

/// Request headers for tests: POST to `path` on a made-up authority.
func requestHeaders(path: String, extra: [HTTP2Header] = []) -> [HTTP2Header] {
    [
        HTTP2Header(":method", "POST"), HTTP2Header(":scheme", "https"),
        HTTP2Header(":authority", "api.push.example"), HTTP2Header(":path", path, neverIndex: true),
    ] + extra
}

/// `count` bytes of a pattern that depends on `seed`, so mixed-up bodies are caught.
func patternBody(count: Int, seed: UInt64) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
}

/// Hands `bytes` to a client session as its connection would, then drains what the session has to
/// send into `output` (replacing what was there). False when the session refused the input.
func feedClient(_ client: HTTP2ClientSession, _ bytes: [UInt8], output: inout [UInt8]) -> Bool {
    var failed = false
    bytes.withUnsafeBytes { raw in
        do throws(HTTP2Error) { try client.receive(raw) } catch { failed = true }
    }
    output.removeAll(keepingCapacity: true)
    client.produceOutput(into: &output)
    return !failed
}
