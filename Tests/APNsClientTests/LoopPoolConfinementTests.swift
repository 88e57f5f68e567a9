import APNs
import Glibc
import HTTP2
import Testing

@testable import APNsClient

/// `LoopPool` belongs to its loop: its entry points stop a debug build when called from another
/// thread (each case runs in a child process, which the check ends), and work on the loop.
#if DEBUG
    @Suite(.timeLimit(.minutes(1)))
    struct LoopPoolConfinementTests {
        /// A pool of a transport to a port nothing needs to listen on: nothing connects before the
        /// check. Exits the child with success (failing the test) if it cannot be built.
        static func pool() -> LoopPool {
            guard let endpoint = try? APNsEndpoint(url: "http://127.0.0.1:1"),
                let transport = try? HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
            else { exit(0) }
            return transport.pickPool()
        }

        @Test func performOffTheLoopStops() async {
            await #expect(processExitsWith: .failure) {
                let pool = LoopPoolConfinementTests.pool()
                guard let token = try? DeviceToken(hex: String(repeating: "ab", count: 32)) else { exit(0) }
                let notification = APNsNotification(token: token, topic: nil, payload: Payload.alert(body: "x"))
                let request = APNsRequest(notification: notification, authority: "127.0.0.1:1", authorization: nil)
                pool.perform(request, timeout: .seconds(1), completion: .handler(IgnoringHandler(), tag: 0))
            }
        }

        @Test func observeShutdownOffTheLoopStops() async {
            await #expect(processExitsWith: .failure) {
                _ = LoopPoolConfinementTests.pool().observeShutdown {}
            }
        }

        @Test func shutdownOffTheLoopStops() async {
            await #expect(processExitsWith: .failure) {
                LoopPoolConfinementTests.pool().shutdown {}
            }
        }

        @Test func onTheLoopTheEntryPointsWork() async throws {
            let endpoint = try APNsEndpoint(url: "http://127.0.0.1:1")
            let transport = try HTTP2Transport(configuration: TransportConfiguration(endpoint: endpoint))
            let pool = transport.pickPool()
            let observed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let accepted = pool.loop.execute {
                    let id = pool.observeShutdown {}
                    if let id { pool.stopObservingShutdown(id) }
                    continuation.resume(returning: id != nil)
                }
                if !accepted { continuation.resume(returning: false) }
            }
            #expect(observed)
            await transport.shutdown()
        }
    }

    /// Drops every outcome (the off-loop `perform` stops before one could come).
    final class IgnoringHandler: LoopRequestHandler {
        func requestFinished(_ tag: Int, _ result: Result<RawResponse, APNsClientError>) {}
    }
#endif
