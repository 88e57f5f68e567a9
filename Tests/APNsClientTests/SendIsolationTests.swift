import APNs
import APNsClient
import HTTP2
import HeraldTestSupport
import Testing

/// Where a send continues after its `await`: in the caller's isolation (an actor), or on the loop a
/// task prefers. The transport's continuation hops nowhere itself; the caller's hop must remain.
@Suite(.timeLimit(.minutes(1)))
struct SendIsolationTests {
    /// An actor isolated to a loop of its own (not the transport's), so that "on its executor"
    /// can be checked without trapping: on that loop's thread.
    actor Sender {
        let client: APNsClient
        let loop: EventLoop
        var succeeded = 0
        var isolatedAfterEveryAwait = true

        nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

        init(client: APNsClient, loop: EventLoop) {
            self.client = client
            self.loop = loop
        }

        func send(_ notification: APNs.Notification, times: Int) async {
            for _ in 0..<times {
                if case .success = await client.result(for: notification) { succeeded += 1 }
                isolatedAfterEveryAwait = isolatedAfterEveryAwait && loop.inEventLoop
            }
        }
    }

    static func notification() throws -> APNs.Notification {
        APNs.Notification(
            token: try DeviceToken(hex: String(repeating: "ab", count: 32)), topic: try Topic("com.example.app"),
            payload: Payload.alert(title: "Hi", body: "There"))
    }

    @Test func anActorCallerContinuesOnItsActor() async throws {
        let server = try Nghttpd()
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint)))
        let actorLoops = try EventLoopGroup(loopCount: 1, name: "actor-loop")
        let sender = Sender(client: client, loop: actorLoops.loops[0])
        let note = try Self.notification()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { await sender.send(note, times: 25) } }
        }
        #expect(await sender.succeeded == 100)
        #expect(await sender.isolatedAfterEveryAwait)
        await client.shutdown()
        await actorLoops.shutdown()
    }

    @Test func aTaskPreferringTheLoopContinuesOnTheLoop() async throws {
        let server = try Nghttpd()
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:\(server.port)")
        let group = try EventLoopGroup(loopCount: 1, name: "isolation-test")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate,
            transport: try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint), loops: group))
        let loop = group.loops[0]
        let note = try Self.notification()
        let onLoop = await Task(executorPreference: loop) {
            var always = true
            for _ in 0..<50 {
                _ = await client.result(for: note)
                always = always && loop.inEventLoop
            }
            return always
        }.value
        #expect(onLoop)
        #expect(client.metrics.succeeded == 50)
        await client.shutdown()
        await group.shutdown()
    }
}
