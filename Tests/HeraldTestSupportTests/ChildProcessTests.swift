import Foundation
import Glibc
import HeraldTestSupport
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ChildProcessTests {
    @Test func exitStatusIsTheChildsOwn() async throws {
        #expect(try await ChildProcess("/bin/sh", ["-c", "exit 0"]).waitForExit() == 0)
        #expect(try await ChildProcess("/bin/sh", ["-c", "exit 3"]).waitForExit() == 3)
        #expect(try ChildProcess("/bin/sh", ["-c", "exit 42"]).waitUntilExit() == 42)
    }

    @Test(arguments: [SIGTERM, SIGKILL, SIGINT])
    func deathBySignalIs128PlusTheSignal(_ signal: Int32) async throws {
        // cat reads its never-closed input: only the signal ends it.
        let child = try ChildProcess("/bin/cat", [], stdin: .pipe)
        child.send(signal)
        #expect(await child.waitForExit() == 128 + signal)
    }

    @Test func bothStreamsAreCapturedApart() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2; echo more"])
        #expect(await child.waitForExit() == 0)
        #expect(String(decoding: await child.capturedOutput(), as: UTF8.self) == "out\nmore\n")
        #expect(String(decoding: await child.capturedErrors(), as: UTF8.self) == "err\n")
    }

    @Test func standardInputFromAPipeAndOutputLargerThanAPipeHolds() async throws {
        let child = try ChildProcess("/bin/cat", [], stdin: .pipe)
        let text = String(repeating: "0123456789abcdef", count: 64 * 1024)
        child.standardInput?.write(Data(text.utf8))
        try child.standardInput?.close()
        #expect(await child.waitForExit() == 0)
        #expect(await child.capturedOutput().count == text.utf8.count)
    }

    @Test func bothStreamsIntoOneFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let child = try ChildProcess(
            "/bin/sh", ["-c", "echo one; echo two >&2; echo three"], stdout: .file(path), stderr: .standardOutput)
        #expect(await child.waitForExit() == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one\ntwo\nthree\n")
    }

    @Test func environmentAndDirectoryArePassed() async throws {
        let child = try ChildProcess(
            "/bin/sh", ["-c", "echo \"$HERALD_CHILD_TEST\"; pwd; env | wc -l"],
            environment: ["HERALD_CHILD_TEST": "yes"],
            directory: "/tmp")
        #expect(await child.waitForExit() == 0)
        let lines = String(decoding: await child.capturedOutput(), as: UTF8.self).split(separator: "\n")
        #expect(lines.first == "yes")
        #expect(lines.dropFirst().first == "/tmp")
        // Only what was given (sh adds PWD and perhaps SHLVL, OLDPWD, _): nothing of the test process's.
        #expect((Int(lines.last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 99) <= 5)
    }

    @Test func noDescriptorBeyondTheThreeStandardOnesReachesTheChild() async throws {
        // Descriptors the test process holds without close-on-exec: the child must not get them.
        let leaky = (0..<20).map { _ in open("/dev/null", O_RDONLY) }
        defer { for fd in leaky { close(fd) } }
        #expect(leaky.allSatisfy { $0 > 2 })
        let child = try ChildProcess("/bin/ls", ["/proc/self/fd"])
        #expect(await child.waitForExit() == 0)
        let fds = String(decoding: await child.capturedOutput(), as: UTF8.self).split(separator: "\n").map(String.init)
        // ls itself opens /proc/self/fd as one more descriptor, 3.
        #expect(fds == ["0", "1", "2", "3"])
    }

    @Test func aMissingExecutableThrows() {
        #expect(throws: ChildProcess.SpawnError.self) { try ChildProcess("/nonexistent/herald-nope", []) }
    }
}
