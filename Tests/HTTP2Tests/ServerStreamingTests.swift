import Synchronization
import Testing

@testable import HTTP2

/// What a streaming client on loopback saw, in order.
enum ProbeEvent: Sendable, Equatable {
    case head(Int)
    case data([UInt8])
    case done(status: Int?, failure: HTTP2StreamError.Kind?)
}

/// A streaming request from Herald's client connection, driven from the test through its loop.
final class StreamProbe: @unchecked Sendable {
    // SAFETY: `connection` and `request` are touched only on `loop` (inside loop.execute).
    let loop: EventLoop
    let events: AsyncStream<ProbeEvent>
    private let sink: AsyncStream<ProbeEvent>.Continuation
    private var connection: HTTP2ClientConnection?
    private var request: UInt64?

    init(loop: EventLoop, port: UInt16, path: String) {
        self.loop = loop
        (events, sink) = AsyncStream.makeStream()
        loop.execute { [self] in
            connection = HTTP2ClientConnection.open(
                on: loop, configuration: .init(host: "127.0.0.1", port: Int(port), tls: nil)
            ) { [self] connection, event in
                switch event {
                case .ready where request == nil:
                    var headers = HTTP2HeaderBuffer()
                    for header in [
                        (":method", "GET"), (":scheme", "http"), (":path", path), (":authority", "localhost"),
                    ] {
                        headers.append(header.0, header.1)
                    }
                    request = connection.submitStreaming(
                        headers: nil, extraHeaders: headers, body: [],
                        onHead: { [sink] in sink.yield(.head($0.status)) },
                        onData: { [sink] in sink.yield(.data($0)) },
                        completion: { [sink] result in
                            switch result {
                            case .success(let response): sink.yield(.done(status: response.status, failure: nil))
                            case .failure(let failure):
                                if case .stream(let error) = failure.kind {
                                    sink.yield(.done(status: nil, failure: error.kind))
                                } else {
                                    sink.yield(.done(status: nil, failure: .connectionClosed))
                                }
                            }
                        })
                case .closed:
                    sink.finish()
                default:
                    break
                }
            }
        }
    }

    func cancel() { loop.execute { [self] in if let request { connection?.cancel(request) } } }
    func close() { loop.execute { [self] in connection?.close() } }
}

/// How the server's streaming responses ended, as their onClose heard it.
final class EndRecorder: Sendable {
    let ends: AsyncStream<HTTP2StreamEnd>
    let sink: AsyncStream<HTTP2StreamEnd>.Continuation
    init() { (ends, sink) = AsyncStream.makeStream() }
    func next() async -> HTTP2StreamEnd? {
        var iterator = ends.makeAsyncIterator()
        return await iterator.next()
    }
}

@Suite("HTTP/2 server: streaming responses on loopback", .timeLimit(.minutes(1)))
struct ServerStreamingTests {
    @Test("writes from another task arrive at Herald's client in order; finish completes the request")
    func serverStreamsToClient() async throws {
        let ends = EndRecorder()
        let lines = (1...20).map { Array("line \($0)\n".utf8) }
        let handler = TestHandler(route: { _, responder in
            responder.startStreaming(headers: [HTTP2Header("content-type", "application/x-ndjson")]) {
                ends.sink.yield($0)
            }
            let sendable = responder.sendable
            Task {
                for line in lines { sendable.write(line) }
                sendable.finish()
            }
        })
        try await withServer(handler: handler) { server in
            let clientLoops = try EventLoopGroup(loopCount: 1, name: "stream-client")
            let probe = StreamProbe(loop: clientLoops.loops[0], port: server.port, path: "/listen")
            var received: [ProbeEvent] = []
            for await event in probe.events {
                received.append(event)
                if case .done = event { break }
            }
            #expect(received.first == .head(200))
            let body = received.compactMap { if case .data(let bytes) = $0 { bytes } else { nil } }.flatMap { $0 }
            #expect(body == lines.flatMap { $0 })
            #expect(received.last == .done(status: 200, failure: nil))
            #expect(await ends.next() == .finished)
            probe.close()
            await clientLoops.shutdown()
        }
    }

    @Test("the client's cancel reaches the handler as a reset with CANCEL")
    func cancelSeenByServer() async throws {
        let ends = EndRecorder()
        let handler = TestHandler(route: { _, responder in
            responder.startStreaming { ends.sink.yield($0) }
            responder.write(Array("hello\n".utf8))
        })
        try await withServer(handler: handler) { server in
            let clientLoops = try EventLoopGroup(loopCount: 1, name: "stream-client")
            let probe = StreamProbe(loop: clientLoops.loops[0], port: server.port, path: "/listen")
            var last: ProbeEvent?
            for await event in probe.events {
                if case .data = event { probe.cancel() }
                last = event
                if case .done = event { break }
            }
            #expect(last == .done(status: nil, failure: .cancelled))
            #expect(await ends.next() == .reset(.cancel))
            probe.close()
            await clientLoops.shutdown()
        }
    }

    @Test("a client that goes away ends the stream as connectionClosed")
    func connectionLostSeenByServer() async throws {
        let ends = EndRecorder()
        let handler = TestHandler(route: { _, responder in
            responder.startStreaming { ends.sink.yield($0) }
        })
        try await withServer(handler: handler) { server in
            let clientLoops = try EventLoopGroup(loopCount: 1, name: "stream-client")
            let probe = StreamProbe(loop: clientLoops.loops[0], port: server.port, path: "/listen")
            for await event in probe.events where event == .head(200) {
                probe.close()
            }
            #expect(await ends.next() == .connectionClosed)
            await clientLoops.shutdown()
        }
    }

    @Test("2 MB in 4 KB chunks through 64 KB windows arrive intact")
    func manyChunksUnderFlowControl() async throws {
        let body = patternBody(count: 2 << 20, seed: 11)
        let handler = TestHandler(route: { _, responder in
            responder.startStreaming()
            for start in stride(from: 0, to: body.count, by: 4096) {
                responder.write(Array(body[start..<min(start + 4096, body.count)]))
            }
            responder.finish()
        })
        try await withServer(handler: handler, options: ServerTestOptions(streamBufferLimit: 4 << 20)) { server in
            let clientLoops = try EventLoopGroup(loopCount: 1, name: "stream-client")
            let probe = StreamProbe(loop: clientLoops.loops[0], port: server.port, path: "/big")
            var received: [UInt8] = []
            var chunks = 0
            var done: ProbeEvent?
            for await event in probe.events {
                if case .data(let bytes) = event {
                    received += bytes
                    chunks += 1
                }
                if case .done = event {
                    done = event
                    break
                }
            }
            let intact = received == body
            #expect(received.count == body.count)
            #expect(intact)
            #expect(chunks > 1)
            #expect(done == .done(status: 200, failure: nil))
            probe.close()
            await clientLoops.shutdown()
        }
    }

    @Test("a client that stops reading: writes are refused at the buffer cap and the stream is reset")
    func slowReaderHitsTheCap() async throws {
        let ends = EndRecorder()
        let accepted = Atomic<Int>(0)
        let limit = 128 * 1024
        let handler = TestHandler(route: { _, responder in
            responder.startStreaming { ends.sink.yield($0) }
            let chunk = [UInt8](repeating: 0x61, count: 16 * 1024)
            func writeMore() {
                guard responder.write(chunk) else { return }
                accepted.add(chunk.count, ordering: .relaxed)
                responder.connection.loop.schedule(after: 1_000_000) { writeMore() }
            }
            writeMore()
        })
        try await withServer(handler: handler, options: ServerTestOptions(streamBufferLimit: limit)) { server in
            // A client that sends its request and then never reads: no WINDOW_UPDATE ever comes.
            let socket = try RawTestSocket(port: server.port)
            let session = try HTTP2ClientSession()
            try session.submitStreamingRequest(
                headers: nil, extraHeaders: HTTP2HeaderBuffer(requestHeaders(path: "/listen")), body: nil, token: 1)
            var bytes: [UInt8] = []
            session.produceOutput(into: &bytes)
            try socket.write(bytes)
            #expect(await ends.next() == .reset(.enhanceYourCalm))
            let total = accepted.load(ordering: .relaxed)
            #expect(total >= limit && total <= limit + 65_535 + 16 * 1024, "accepted \(total) bytes")
            socket.close()
        }
    }
}
