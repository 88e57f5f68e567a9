// Start, shutdown with connections open, and descriptors after many connections.
import Foundation
import Glibc
import Synchronization
import Testing

@testable import HTTP2

/// Inodes of the TCP sockets this process holds on `port` (either end): /proc/net/tcp{,6} lists
/// every socket with its port and inode, /proc/self/fd names the socket inodes this process has
/// open. Other suites running at the same time cannot disturb this count, unlike a plain count
/// of /proc/self/fd.
func socketInodes(onPort port: UInt16) -> Set<UInt64> {
    var onPort = Set<UInt64>()
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        for line in readProcFile(table).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 9, let inode = UInt64(fields[9]), inode != 0 else { continue }
            let ports = [fields[1], fields[2]].compactMap {
                $0.split(separator: ":").last.flatMap { UInt16($0, radix: 16) }
            }
            if ports.contains(port) { onPort.insert(inode) }
        }
    }
    var held = Set<UInt64>()
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    for entry in entries {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
            target.hasPrefix("socket:["), let inode = UInt64(target.dropFirst(8).dropLast())
        else { continue }
        held.insert(inode)
    }
    return onPort.intersection(held)
}

/// The whole of a /proc file. (Foundation's String(contentsOfFile:) stops after the first page:
/// these files report a size of 0.)
func readProcFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

@Suite(.timeLimit(.minutes(1)))
struct ServerLifecycleTests {
    @Test func shutdownSendsGoAwayClosesOpenConnectionsAndStopsAccepting() async throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let handler = TestHandler(route: { request, responder in
            if request.path == "/hold" {
                arrived.yield()  // never answered
            } else {
                responder.respond(status: 200)
            }
        })
        try await withServer(handler: handler) { server in
            let port = server.port
            let (ready, signal) = AsyncStream.makeStream(of: Void.self)
            async let idle = onThread { () -> [HTTP2GoAway] in
                let client = try ServerTestClient(port: port)
                _ = try client.send("/x")
                signal.yield()
                try client.waitForEndOfFile()
                return client.goAways
            }
            async let holding = onThread { () -> ([HTTP2GoAway], Bool) in
                let client = try ServerTestClient(port: port)
                let token = try client.request("/hold")
                try client.run { client.session.openStreamCount == 1 && !client.settings.isEmpty }
                signal.yield()
                try client.waitForEndOfFile()
                return (client.goAways, client.response(token) == nil)
            }
            var readiness = ready.makeAsyncIterator()
            var holds = arrivals.makeAsyncIterator()
            _ = await readiness.next()
            _ = await readiness.next()
            _ = await holds.next()
            #expect(server.connectionCount == 2)

            async let first: Void = server.shutdown()
            async let second: Void = server.shutdown()
            _ = await (first, second)
            #expect(server.connectionCount == 0)

            let idleGoAways = try await idle
            let (holdingGoAways, unanswered) = try await holding
            #expect(idleGoAways.map(\.errorCode) == [.noError])
            #expect(holdingGoAways.map(\.lastStreamID) == [1])  // processed: may have been acted on
            #expect(unanswered)
            let refused = try await onThread { () -> Bool in
                do {
                    _ = try connectBlocking(port: port)
                    return false
                } catch {
                    return true
                }
            }
            #expect(refused)
        }
        #expect(handler.snapshot.opened == handler.snapshot.closed)
    }

    @Test func aThousandConnectsAndDisconnectsLeaveNoDescriptorBehind() async throws {
        let handler = TestHandler()
        try await withServer(handler: handler) { server in
            let port = server.port
            let before = socketInodes(onPort: port)
            #expect(before.count == 1)  // the listener
            try await onThread {
                for _ in 0..<1000 {
                    try connectBlocking(port: port).close()
                }
            }
            await server.waitUntil { $0.accepted == 1000 && $0.open == 0 }
            #expect(socketInodes(onPort: port) == before)
            #expect(server.acceptedTotal == 1000)
        }
        #expect(handler.snapshot.opened == 1000)
        #expect(handler.snapshot.closed == 1000)
    }

    @Test func atTheConnectionLimitNewClientsWaitUntilOneCloses() async throws {
        try await withServer(options: ServerTestOptions(maximumConnections: 2)) { server in
            let port = server.port
            let (servedWhileFull, acceptedWhileFull, servedAfter) = try await onThread { () -> (Bool, Int, Int) in
                let first = try ServerTestClient(port: port)
                let second = try ServerTestClient(port: port)
                _ = try first.send("/a")
                _ = try second.send("/b")
                let third = try ServerTestClient(port: port)  // connected by the kernel, in the backlog
                let token = try third.request("/c")
                // Showing that nothing happens needs a (short) wait.
                let servedWhileFull = (try? third.run(timeout: 0.2) { third.response(token) != nil }) != nil
                let acceptedWhileFull = server.acceptedTotal
                first.close()
                try third.waitFor([token])
                return (servedWhileFull, acceptedWhileFull, third.response(token)?.status ?? 0)
            }
            #expect(!servedWhileFull)
            #expect(acceptedWhileFull == 2)
            #expect(servedAfter == 200)
            #expect(server.acceptedTotal == 3)
        }
    }

    @Test func closedConnectionsAndTheirContextsAreFreed() async throws {
        final class WeakContexts: @unchecked Sendable {
            // SAFETY: appended on the loops under `lock`, read after the server has shut down.
            let lock = Mutex<[Weak]>([])
            struct Weak: @unchecked Sendable { weak var context: HTTP2ServerConnectionContext? }
        }
        let contexts = WeakContexts()
        let handler = TestHandler(
            onOpen: { connection in contexts.lock.withLock { $0.append(.init(context: connection)) } },
            route: apnsLikeRoute)
        let (serverTLS, fixture) = try makeServerTLS()
        let client = try clientTLS(fixture)
        try await withServer(handler: handler, options: ServerTestOptions(tls: serverTLS)) { server in
            let port = server.port
            try await onThread {
                for path in ["/x", "/delay/20", "/goaway"] {
                    let connection = try ServerTestClient(port: port, tls: client)
                    _ = try connection.send(path)
                }
            }
            await server.waitUntil { $0.open == 0 }
            for loopState in server.loopStates {
                let remaining = try await onLoop(loopState.loop) { loopState.connections.count }
                #expect(remaining == 0)
            }
        }
        let alive = contexts.lock.withLock { list in list.filter { $0.context != nil }.count }
        #expect(contexts.lock.withLock { $0.count } == 3)
        #expect(alive == 0)
    }

    @Test func startReportsWhatCannotWork() async throws {
        let loops = try EventLoopGroup(loopCount: 1, name: "server-start")
        defer { loops.shutdownGracefully() }
        let clientContext = try clientTLS(try TLSFixture())
        let handler = TestHandler()
        let server = try await HTTP2Server.start(configuration: .init(loops: loops), handler: handler)
        let cases: [(HTTP2Server.Configuration, String)] = [
            (.init(loops: loops, host: "127.0.0.1", port: server.port), "EADDRINUSE"),
            (.init(loops: loops, host: "nonexistent.invalid"), "resolve"),
            (.init(loops: loops, tls: clientContext), "client TLS"),
            (.init(loops: loops, session: HTTP2SessionConfiguration(maxHeaderListSize: 0)), "session"),
        ]
        for (configuration, what) in cases {
            do {
                let unexpected = try await HTTP2Server.start(configuration: configuration, handler: handler)
                await unexpected.shutdown()
                Issue.record("\(what): started")
            } catch {
                switch (what, error) {
                case ("EADDRINUSE", .system(let system)): #expect(system.errno == EADDRINUSE)
                case ("resolve", .resolve): break
                case ("client TLS", .tls): break
                case ("session", .http2): break
                default: Issue.record("\(what): \(error)")
                }
            }
        }
        await server.shutdown()
    }
}
