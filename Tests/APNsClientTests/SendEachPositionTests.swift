import APNs
import APNsClient
import Emulator
import HTTP2
import Synchronization
import Testing

/// What a positioned `sendEach` run saw, gathered one call at a time and read after it returns.
final class PositionLog: @unchecked Sendable {
    // SAFETY: written only by `sendEach`'s callbacks, which run one at a time (on the transport's
    // loop, or in `sendAll`'s collecting task); read by the test after `sendEach` has returned.
    var handedOut: [Notification] = []
    /// Per result, in completion order: its position, the notification handed back and whether
    /// it succeeded.
    var results: [(position: Int, notification: Notification, succeeded: Bool)] = []
}

/// Answers 200 for every request, late for the apns-ids in `slow`: answers come back out of order.
final class SlowForSomeTransport: APNsTransport {
    let slow: Set<String>
    var connectionCount: Int { 1 }

    init(slow: Set<String>) {
        self.slow = slow
    }

    func perform(_ request: APNsRequest, timeout: Duration) async -> Result<RawResponse, APNsClientError> {
        if slow.contains(request.apnsID) { try? await Task.sleep(for: .milliseconds(20)) }
        return .success(RawResponse(status: 200, apnsID: request.apnsID))
    }

    func shutdown() async {}
}

/// `APNsClient.sendEach(concurrency:next:onPositionedResult:)`: each result is told the position
/// `next` handed its notification out at, whatever order the answers come back in; over the HTTP/2
/// pool (the bulk path) and over another transport (`sendAll`).
@Suite(.timeLimit(.minutes(1)))
struct SendEachPositionTests {
    static let total = 300
    static let fast = String(repeating: "cd", count: 32)
    /// Answered late (the emulator's delay fault, or the fake transport's sleep).
    static let slow = String(repeating: "ab", count: 32)
    /// Rejected by the emulator (BadDeviceToken).
    static let rejected = String(repeating: "ef", count: 32)

    /// Every third notification to `slow`, every seventh to `rejected` (on the emulator), each
    /// with its own apns-id.
    static func notifications(rejecting: Bool) throws -> [Notification] {
        try (0..<total).map { position in
            let token = position % 3 == 0 ? slow : rejecting && position % 7 == 0 ? rejected : fast
            var notification = Notification(
                token: try DeviceToken(hex: token), topic: try Topic("com.example.app"),
                payload: Payload.alert(body: "position \(position)"))
            notification.apnsID = APNsID.random()
            return notification
        }
    }

    /// Sends `notifications` and checks that each result's position names the notification it came
    /// back with, every position once, and that the answers did come back out of order.
    static func sendAndCheck(_ client: APNsClient, _ notifications: [Notification], rejecting: Bool) async {
        let log = PositionLog()
        await client.sendEach(
            concurrency: 64,
            next: {
                guard log.handedOut.count < notifications.count else { return nil }
                log.handedOut.append(notifications[log.handedOut.count])
                return log.handedOut.last
            },
            onPositionedResult: { position, notification, result in
                guard case .success = result else {
                    log.results.append((position, notification, false))
                    return
                }
                log.results.append((position, notification, true))
            })
        #expect(log.results.count == total)
        #expect(Set(log.results.map(\.position)) == Set(0..<total), "every position once")
        let mismatched = log.results.filter { result in
            !log.handedOut.indices.contains(result.position)
                || log.handedOut[result.position].apnsID != result.notification.apnsID
                || log.handedOut[result.position].token != result.notification.token
        }
        #expect(mismatched.isEmpty, "a result's position is its notification's: \(mismatched.count) are not")
        let failed = Set(log.results.filter { !$0.succeeded }.map(\.position))
        let expected = rejecting ? Set((0..<total).filter { $0 % 3 != 0 && $0 % 7 == 0 }) : []
        #expect(failed == expected, "the rejected positions failed, no other")
        let order = log.results.map(\.position)
        #expect(order != order.sorted(), "the answers came back out of order (else the test shows nothing)")
    }

    @Test func overTheHTTP2PoolEachResultIsToldItsPosition() async throws {
        let world = try await BulkWorld.start(faults: [
            Fault(action: .delay, selection: .fraction(1), latencyMilliseconds: 20, token: Self.slow),
            Fault(
                action: .respond(status: 400, reason: .badDeviceToken), selection: .fraction(1), token: Self.rejected),
        ])
        await Self.sendAndCheck(world.client, try Self.notifications(rejecting: true), rejecting: true)
        await world.stop()
    }

    @Test func overAnotherTransportEachResultIsToldItsPosition() async throws {
        let notifications = try Self.notifications(rejecting: false)
        let slowIDs = Set(notifications.filter { $0.token.hex == Self.slow }.compactMap(\.apnsID?.value))
        let endpoint = try APNsEndpoint(url: "http://127.0.0.1:1")
        let client = APNsClient(
            endpoint: endpoint, credentials: .certificate, transport: SlowForSomeTransport(slow: slowIDs),
            retryPolicy: .none)
        await Self.sendAndCheck(client, notifications, rejecting: false)
        await client.shutdown()
    }
}
