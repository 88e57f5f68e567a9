import HTTP2
import Testing

@Suite("HTTP/2 session: random interleavings", .timeLimit(.minutes(1)))
struct SessionRandomTests {
    /// One seeded run: bytes cross in random pieces (frames split anywhere), while the client submits
    /// and cancels and the server answers, resets, changes SETTINGS and sends GOAWAY at random.
    final class Run {
        var random: SeededRandom
        let client: HTTP2ClientSession
        let server: HTTP2ServerSession
        let clientEvents = ClientRecorder()
        let serverEvents = ServerRecorder()
        var toServer: [UInt8] = []
        var toClient: [UInt8] = []
        var expectedBodies: [UInt64: [UInt8]] = [:]
        /// Stream ids of submitted requests, in submit order (an array: runs must not depend on hashing).
        var streams: [Int32] = []
        var nextToken: UInt64 = 1
        var sentGoAway = false

        init(seed: UInt64) throws {
            random = SeededRandom(seed: seed)
            let serverMax = UInt32.random(in: 1...40, using: &random)
            client = try HTTP2ClientSession(configuration: HTTP2SessionConfiguration(maxBodySize: 1 << 20))
            server = try HTTP2ServerSession(
                configuration: HTTP2SessionConfiguration(maxConcurrentStreams: serverMax, maxBodySize: 1 << 20))
            client.delegate = clientEvents
            server.delegate = serverEvents
        }

        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

        func step(_ index: Int) throws {
            switch random.next() % 10 {
            case 0, 1:
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    submit()
                }
            case 2:
                client.produceOutput(
                    into: &toServer, maxBytes: toServer.count + Int.random(in: 1...40_000, using: &random))
            case 3:
                try deliver(&toServer, to: server.receive)
            case 4:
                server.produceOutput(
                    into: &toClient, maxBytes: toClient.count + Int.random(in: 1...40_000, using: &random))
            case 5:
                try deliver(&toClient, to: client.receive)
            case 6, 7:
                serverActs()
            case 8:
                if chance(20), let streamID = streams.randomElement(using: &random) {
                    try? client.resetStream(streamID)
                }
            default:
                if index > 1_500, chance(5), !sentGoAway {
                    sentGoAway = true
                    let last = serverEvents.requests.map(\.streamID).randomElement(using: &random) ?? 0
                    try server.submitGoAway(lastStreamID: last, errorCode: .noError, debugData: Array("bye".utf8))
                } else if chance(10) {
                    try server.submitSettings(maxConcurrentStreams: UInt32.random(in: 1...40, using: &random))
                } else if chance(10) {
                    try client.submitPing(payload: random.next())
                }
            }
        }

        func submit() {
            let token = nextToken
            nextToken += 1
            let size = chance(5) ? Int.random(in: 0...150_000, using: &random) : Int.random(in: 0...600, using: &random)
            let body = patternBody(count: size, seed: token)
            do {
                let streamID = try client.submitRequest(
                    headers: requestHeaders(path: "/\(token)"), body: body.isEmpty ? nil : body, token: token)
                expectedBodies[token] = body
                streams.append(streamID)
            } catch {
                #expect(error.kind == .requestNotAllowed)  // after GOAWAY; the token is never reported
            }
        }

        func serverActs() {
            guard !serverEvents.pending.isEmpty else { return }
            let request = serverEvents.pending.remove(
                at: Int.random(in: 0..<serverEvents.pending.count, using: &random))
            let roll = random.next() % 100
            do throws(HTTP2Error) {
                if roll < 75 {
                    try ServerRecorder.echo(server, request)
                } else if roll < 85 {
                    try server.submitRstStream(streamID: request.streamID, errorCode: .refusedStream)
                } else if roll < 95 {
                    try server.submitRstStream(streamID: request.streamID, errorCode: .internalError)
                } else {
                    serverEvents.pending.append(request)  // not yet
                }
            } catch {
                #expect(error.kind == .streamClosed(streamID: request.streamID))  // cancelled or above GOAWAY
            }
        }

        /// Delivers a random prefix of `queue` (possibly mid-frame).
        func deliver(_ queue: inout [UInt8], to receive: (UnsafeRawBufferPointer) throws(HTTP2Error) -> Void) throws {
            guard !queue.isEmpty else { return }
            let count = Int.random(in: 1...queue.count, using: &random)
            let piece = Array(queue.prefix(count))
            queue.removeFirst(count)
            var failure: HTTP2Error?
            piece.withUnsafeBytes { bytes in
                do throws(HTTP2Error) {
                    try receive(bytes)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }

        /// Answers everything and moves all bytes until both sides are quiet.
        func settle() throws {
            for _ in 0..<100_000 {
                for request in serverEvents.pending {
                    try? ServerRecorder.echo(server, request)
                }
                serverEvents.pending.removeAll()
                client.produceOutput(into: &toServer)
                let movedToServer = !toServer.isEmpty
                while !toServer.isEmpty { try deliver(&toServer, to: server.receive) }
                server.produceOutput(into: &toClient)
                let movedToClient = !toClient.isEmpty
                while !toClient.isEmpty { try deliver(&toClient, to: client.receive) }
                if !movedToServer && !movedToClient && serverEvents.pending.isEmpty { return }
            }
            Issue.record("sessions did not settle")
        }
    }

    @Test("every token is reported exactly once, with its own body", arguments: Array(UInt64(1)...16))
    func everyTokenOnce(seed: UInt64) throws {
        let run = try Run(seed: seed)
        let abruptEnd = seed % 4 == 0
        for index in 0..<2_000 {
            try run.step(index)
        }
        if !abruptEnd {
            try run.settle()
        }
        run.client.close()
        run.server.close()

        let events = run.clientEvents
        #expect(events.reportedTwice.isEmpty)
        #expect(Set(events.reports.keys) == Set(run.expectedBodies.keys))
        #expect(run.expectedBodies.count > 50)
        for (token, response) in events.responses {
            #expect(response.status == 200)
            #expect(response.body == run.expectedBodies[token])
        }
        for (_, failure) in events.failures {
            switch failure.kind {
            case .refused, .cancelled, .reset(.internalError), .connectionClosed:
                break
            default:
                Issue.record("unexpected failure \(failure)")
            }
            if !abruptEnd {
                #expect(failure.kind != .connectionClosed || run.sentGoAway)
            }
        }
        #expect(run.client.openStreamCount == 0)
        #expect(run.server.openStreamCount == 0)
    }
}
