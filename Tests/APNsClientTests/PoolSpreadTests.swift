import APNs
import APNsClient
import HTTP2
import Synchronization
import Testing

/// Counts the requests each connection carries and the most streams one had open at once; answers
/// after 1 ms (so load builds up), echoing the apns-id, and records the apns-ids in arrival order.
final class ConnectionTally: HTTP2RequestHandler {
    private let state = Mutex<(perConnection: [UInt64: Int], mostOpen: Int, order: [String])>(([:], 0, []))

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let id = request.headers.value(for: "apns-id") ?? ""
        let open = responder.connection.openStreams
        state.withLock {
            $0.perConnection[responder.connection.id, default: 0] += 1
            $0.mostOpen = max($0.mostOpen, open)
            $0.order.append(id)
        }
        responder.connection.loop.schedule(after: 1_000_000) {
            _ = responder.respond(status: 200, headers: [HTTP2Header("apns-id", id)])
        }
    }

    /// Requests per connection, most first.
    var perConnection: [Int] { state.withLock { $0.perConnection.values.sorted(by: >) } }
    var mostOpen: Int { state.withLock { $0.mostOpen } }
    var order: [String] { state.withLock { $0.order } }
}

/// The pool opens up to `maximumConnections` connections as load arrives and spreads requests over
/// them, within each connection's MAX_CONCURRENT_STREAMS; waiting requests go out oldest first.
@Suite(.timeLimit(.minutes(1)))
struct PoolSpreadTests {
    static let note = Result {
        try APNs.Notification(
            token: DeviceToken(hex: String(repeating: "ab", count: 32)), topic: Topic("com.example.app"),
            payload: Payload.alert(body: "spread"))
    }

    struct World {
        let server: HTTP2Server
        let serverLoops: EventLoopGroup
        let transport: HTTP2Transport
        let client: APNsClient

        static func start(
            _ tally: ConnectionTally, streams: UInt32, connections: Int, loops: Int, serverConnections: Int? = nil,
            connectTimeout: Duration = .seconds(10)
        ) async throws -> World {
            let serverLoops = try EventLoopGroup(loopCount: 1, name: "spread-server")
            let server = try await HTTP2Server.start(
                configuration: HTTP2Server.Configuration(
                    loops: serverLoops, initialMaxConcurrentStreams: streams, maximumConnections: serverConnections),
                handler: tally)
            let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
            var configuration = TransportConfiguration(
                endpoint: endpoint, maximumConnections: connections, connectTimeout: connectTimeout)
            configuration.loopCount = loops
            let transport = try HTTP2Transport(configuration: configuration)
            let client = APNsClient(
                endpoint: endpoint, credentials: .certificate, transport: transport, retryPolicy: .none)
            return World(server: server, serverLoops: serverLoops, transport: transport, client: client)
        }

        func stop() async {
            await client.shutdown()
            await server.shutdown()
            await serverLoops.shutdown()
        }
    }

    /// Each of `counts` carries at least a sixth of `total` (an even spread gives each a quarter).
    static func expectEvenSpread(_ counts: [Int], total: Int, connections: Int) {
        #expect(counts.count == connections, "connections that carried requests: \(counts)")
        #expect(counts.reduce(0, +) == total)
        #expect(counts.allSatisfy { $0 >= total / (connections + 2) }, "requests per connection: \(counts)")
    }

    /// A bulk send on one loop, a server allowing 1,000 streams: one connection could take it all,
    /// yet all four carry it.
    @Test func aBulkSendSpreadsOverEveryConnection() async throws {
        let note = try Self.note.get()
        let tally = ConnectionTally()
        let world = try await World.start(tally, streams: 1000, connections: 4, loops: 1)
        // Long enough that the connections opened one after another, as load arrives, share it.
        var remaining = 6000
        let succeeded = Mutex(0)
        await world.client.sendEach(concurrency: 400) {
            guard remaining > 0 else { return nil }
            remaining -= 1
            return note
        } onResult: { _, result in
            if case .success = result { succeeded.withLock { $0 += 1 } }
        }
        #expect(succeeded.withLock { $0 } == 6000)
        Self.expectEvenSpread(tally.perConnection, total: 6000, connections: 4)
        #expect(world.transport.connectionCount == 4)
        await world.stop()
    }

    /// Concurrent `send`s from tasks, the connections divided over two loops: still four carry it.
    @Test func concurrentSendsSpreadOverEveryConnectionAcrossLoops() async throws {
        let note = try Self.note.get()
        let tally = ConnectionTally()
        let world = try await World.start(tally, streams: 1000, connections: 4, loops: 2)
        let client = world.client
        let succeeded = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    var succeeded = 0
                    for _ in 0..<10 where (try? await client.send(note)) != nil { succeeded += 1 }
                    return succeeded
                }
            }
            return await group.reduce(0, +)
        }
        #expect(succeeded == 2000)
        Self.expectEvenSpread(tally.perConnection, total: 2000, connections: 4)
        await world.stop()
    }

    /// A server allowing 8 streams a connection: the load spreads and no connection goes past 8
    /// (the server would refuse the stream, and the pool resend it).
    @Test func spreadingHonoursEachConnectionsStreamLimit() async throws {
        let note = try Self.note.get()
        let tally = ConnectionTally()
        let world = try await World.start(tally, streams: 8, connections: 4, loops: 1)
        var remaining = 1000
        let succeeded = Mutex(0)
        await world.client.sendEach(concurrency: 200) {
            guard remaining > 0 else { return nil }
            remaining -= 1
            return note
        } onResult: { _, result in
            if case .success = result { succeeded.withLock { $0 += 1 } }
        }
        #expect(succeeded.withLock { $0 } == 1000)
        #expect(tally.mostOpen <= 8, "most streams open on one connection: \(tally.mostOpen)")
        #expect(world.transport.resentCount == 0, "no request went past a connection's limit")
        Self.expectEvenSpread(tally.perConnection, total: 1000, connections: 4)
        await world.stop()
    }

    /// A server that takes one connection (the others wait in its backlog until the connect times
    /// out): the requests waiting when a further connect fails stay for the connection that works,
    /// instead of failing with it.
    @Test func aFailedConnectLeavesWaitingRequestsToTheOpenConnection() async throws {
        let note = try Self.note.get()
        let tally = ConnectionTally()
        let world = try await World.start(
            tally, streams: 4, connections: 4, loops: 1, serverConnections: 1, connectTimeout: .milliseconds(200))
        let client = world.client
        let succeeded = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    var succeeded = 0
                    for _ in 0..<20 where (try? await client.send(note)) != nil { succeeded += 1 }
                    return succeeded
                }
            }
            return await group.reduce(0, +)
        }
        #expect(succeeded == 2000)
        #expect(tally.perConnection.count == 1)
        await world.stop()
    }

    /// One request opens one connection: the others open only as load arrives.
    @Test func aSingleRequestOpensOneConnection() async throws {
        let tally = ConnectionTally()
        let world = try await World.start(tally, streams: 1000, connections: 4, loops: 1)
        for _ in 0..<3 { _ = try await world.client.send(try Self.note.get()) }
        #expect(world.transport.openedConnectionCount == 1)
        await world.stop()
    }

    /// Requests that wait for a stream (one connection, two streams) reach the server in the order
    /// they were taken.
    @Test func waitingRequestsGoOutOldestFirst() async throws {
        let tally = ConnectionTally()
        let world = try await World.start(tally, streams: 2, connections: 1, loops: 1)
        var ids: [String] = []
        var next = 0
        await world.client.sendEach(concurrency: 100) {
            guard next < 300 else { return nil }
            next += 1
            var note = try? Self.note.get()
            let id = APNsID.random()
            note?.apnsID = id
            ids.append(id.value)
            return note
        } onResult: { _, _ in
        }
        #expect(tally.order == ids)
        await world.stop()
    }
}
