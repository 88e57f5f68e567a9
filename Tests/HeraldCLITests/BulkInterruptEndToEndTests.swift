import Foundation
import HTTP2
import HeraldCLI
import HeraldTestSupport
import Keys
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Counts requests and lets a test await a count; answers 200, or never (`answers: false`: every
/// request stays in flight, its stream open).
final class CountingHandler: HTTP2RequestHandler, Sendable {
    private struct State {
        var paths: [String] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    let answers: Bool

    init(answers: Bool = true) {
        self.answers = answers
    }

    var paths: [String] { state.withLock { $0.paths } }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        if answers {
            _ = responder.respond(
                status: 200, headers: [HTTP2Header("apns-id", request.headers.value(for: "apns-id") ?? "")])
        }
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.paths.append(request.path ?? "")
            let count = state.paths.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once `count` requests have come.
    func waitFor(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.paths.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Ctrl-C in `herald send --requests`, through the real binary against a local h2c server: the
/// first stops reading, lets what is in flight finish, prints the summary and where to resume
/// (and `--skip-lines` resumes exactly there); a second exits at once.
///
/// (A slow pipe is not the input here: while the decoding thread waits for input, the loop waits
/// in `next()` for its next batch, so nothing sent reaches the server before Ctrl-C wakes it.)
@Suite(.timeLimit(.minutes(1)))
struct BulkInterruptEndToEndTests {
    /// Line `index` (from 1) sends to a token that names it.
    static func line(_ index: Int) -> String {
        let digits = String(index, radix: 16)
        let token = String(repeating: "0", count: 64 - digits.count) + digits
        return #"{"token":"\#(token)","payload":{"aps":{"alert":"n\#(index)"}}}"# + "\n"
    }

    static func lineIndex(_ path: String) -> Int { Int(path.split(separator: "/").last ?? "", radix: 16) ?? -1 }

    struct Fixture {
        let loops: EventLoopGroup
        let server: HTTP2Server
        let directory: String
        let key: String

        init(handler: CountingHandler) async throws {
            loops = try EventLoopGroup(loopCount: 1, name: "bulk-interrupt")
            server = try await HTTP2Server.start(
                configuration: HTTP2Server.Configuration(loops: loops), handler: handler)
            directory =
                FileManager.default.temporaryDirectory.appendingPathComponent("herald-int-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            key = directory + "/AuthKey.p8"
            try Data(try P256PrivateKey.generate().pkcs8PEM().utf8).write(to: URL(fileURLWithPath: key))
        }

        func arguments(_ extra: [String]) -> [String] {
            [
                "send", "--endpoint", "http://127.0.0.1:\(server.port)", "--auth-key", key, "--key-id", "ABC123DEFG",
                "--team-id", "DEF123GHIJ", "--topic", "com.example.app", "--quiet",
            ] + extra
        }

        func shutdown() async {
            await server.shutdown()
            await loops.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// The binary with its standard input a pipe the test writes to (and keeps open: a slow input).
    final class Running: @unchecked Sendable {
        // SAFETY: the test uses it from one task at a time; the file handles and process are thread-safe to read.
        let process: ChildProcess
        let input: FileHandle
        let errors: FileHandle

        init(_ arguments: [String]) throws {
            process = try ChildProcess(
                try #require(BinaryTests.binary, "herald next to the tests"), arguments, stdin: .pipe, stderr: .pipe)
            input = try #require(process.standardInput)
            errors = try #require(process.standardError)
        }

        func write(_ text: String) { input.write(Data(text.utf8)) }

        func interrupt() { process.send(SIGINT) }

        /// Standard error as it comes, until it contains `text` (read on a thread of its own: a
        /// blocking read must not hold one of the few threads the tests share).
        func readErrors(until text: String) async -> String {
            let errors = errors
            return await Self.offThePool {
                var seen = ""
                while !seen.contains(text) {
                    let chunk = errors.availableData
                    if chunk.isEmpty { break }
                    seen += String(decoding: chunk, as: UTF8.self)
                }
                return seen
            }
        }

        /// Waits for the exit (on a thread of its own): status and the rest of standard error.
        func finish() async -> (status: Int32, stderr: String) {
            let errors = errors
            let rest = await Self.offThePool { errors.readDataToEndOfFile() }
            let status = await process.waitForExit()
            try? input.close()
            return (status, String(decoding: rest, as: UTF8.self))
        }

        private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                Thread { continuation.resume(returning: body()) }.start()
            }
        }
    }

    /// A large input, interrupted once some of it has been sent: the lines it says are accounted
    /// for are exactly the lines sent, and resuming with `--skip-lines` sends each other line once.
    @Test func ctrlCStopsReadingReportsWhereToResumeAndSkipLinesResumesThere() async throws {
        let handler = CountingHandler()
        let fixture = try await Fixture(handler: handler)
        let total = 20_000
        let file = fixture.directory + "/requests.ndjson"
        try Data((1...total).map(Self.line).joined().utf8).write(to: URL(fileURLWithPath: file))
        let running = try Running(fixture.arguments(["--requests", file]))
        await handler.waitFor(1000)
        running.interrupt()
        let notice = await running.readErrors(until: "Ctrl-C again")
        let (status, rest) = await running.finish()
        let stderr = notice + rest
        #expect(status == 1, "an interrupted send did not finish its work: \(stderr)")
        let resume = try #require(
            stderr.split(separator: "--skip-lines ").last.flatMap { Int($0.prefix { $0.isNumber }) }, "\(stderr)")
        let sent = handler.paths.map(Self.lineIndex).sorted()
        #expect(resume >= 1000 && resume < total, "stopped early")
        #expect(sent == Array(1...resume), "every line before the resume point was sent, none after it")
        #expect(
            stderr.contains("\(resume) sent (reached APNs): \(resume) accepted, 0 rejected; 0 not sent"), "\(stderr)")

        let resumed = try Running(fixture.arguments(["--requests", file, "--skip-lines", String(resume)]))
        let second = await resumed.finish()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("\(total - resume) sent (reached APNs): \(total - resume) accepted"))
        #expect(handler.paths.map(Self.lineIndex).sorted() == Array(1...total), "each line sent once")
        await fixture.shutdown()
    }

    @Test func aSecondCtrlCExitsAtOnce() async throws {
        let handler = CountingHandler(answers: false)  // everything stays in flight
        let fixture = try await Fixture(handler: handler)
        let file = fixture.directory + "/requests.ndjson"
        try Data((1...10).map(Self.line).joined().utf8).write(to: URL(fileURLWithPath: file))
        let running = try Running(fixture.arguments(["--requests", file, "--timeout", "50"]))
        await handler.waitFor(10)
        running.interrupt()
        _ = await running.readErrors(until: "Ctrl-C again")
        running.interrupt()
        let (status, _) = await running.finish()
        #expect(status == 130, "the second Ctrl-C does not wait for the 50 s timeout")
        await fixture.shutdown()
    }
}
