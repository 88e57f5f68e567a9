import APNs
import APNsClient
import HeraldCLI
import Synchronization
import Testing

/// A transport that gives no answer: a connection failure for one token, a timeout for the others.
final class SilentTransport: APNsTransport {
    let failing: String

    init(failing: String) {
        self.failing = failing
    }

    var connectionCount: Int { 0 }

    func perform(_ request: APNsRequest, timeout: Duration) async -> Result<RawResponse, APNsClientError> {
        if request.header(":path")?.hasSuffix(failing) == true {
            return .failure(.transport(TransportFailure(mayHaveReachedAPNs: true, message: "connection reset")))
        }
        return .failure(.timedOut(afterSeconds: 1))
    }

    func shutdown() async {}
}

/// The summary tells what reached APNs from what did not, and explains both kinds of failure apart.
@Suite(.timeLimit(.minutes(1)))
struct SendSummaryTests {
    @Test func notificationsThatNeverGotAnAnswerAreNotCountedAsSent() async {
        let output = Mutex("")
        let errors = Mutex("")
        let transport = SilentTransport(failing: SendCommandTests.token1)
        let context = CommandContext(
            standardOutput: { text in output.withLock { $0 += text } },
            standardError: { text in errors.withLock { $0 += text } },
            readStandardInput: { () throws(InputError) in [] },
            readFile: { (path: String) throws(InputError) in
                guard path == "k.p8" else { throw InputError("cannot read '\(path)'") }
                return Array(SendCommandTests.key.utf8)
            },
            writeFile: { (_: String, _: [UInt8]) throws(InputError) in }, now: { 1_767_225_600 },
            makeTransport: { (_: TransportConfiguration) throws(APNsClientError) -> any APNsTransport in transport })
        let status = await runHerald(
            ["send"] + SendCommandTests.auth
                + ["-t", SendCommandTests.token1, "-t", SendCommandTests.token2, "--alert", "x", "--retries", "0"],
            context: context)
        #expect(status == 1)
        let summary = errors.withLock { $0 }
        #expect(summary.hasPrefix("0 sent (reached APNs): 0 accepted, 0 rejected; 2 not sent\n"), "\(summary)")
        #expect(!summary.contains("rejected by APNs:"))
        #expect(summary.contains("not sent, or no answer (Herald's own failures):\n"))
        #expect(summary.contains("  1 timeout: no answer within --timeout; the notification may have been delivered\n"))
        #expect(summary.contains("  1 transport: no answer: the connection failed or broke"))
    }
}
