// A real PostgreSQL for the tests: scripts/postgres-test-server, started once per test process on
// first use and shared by every test in it; each test takes a fresh database of its own.
//
//   test process --posix_spawn (own session)--> scripts/postgres-test-server
//        |  stdin: a pipe whose only writer is this process (close-on-exec: no other child holds it)
//        |  stdout: its first line is the connection string, written once the server accepts
//        +-- exits, however (a crash, SIGKILL) --> the pipe ends --> the script stops the server
//                                                  and removes its directory in /tmp
// The script runs in its own session (setsid), so a Ctrl-C to the test run's process group does not kill it
// before it has stopped the server.
import Foundation
import HTTP2
import Postgres
import Synchronization

/// The test process's PostgreSQL server.
public final class PostgresTestServer: Sendable {
    /// The server's connection string (`host=/tmp/herald-pg-... port=5432 user=herald dbname=postgres`).
    public let conninfo: String
    /// The script's process id.
    public let pid: pid_t
    private let stdinWriter: Int32

    private static let started = AnnotatedMutex<Result<PostgresTestServer, PostgresTestServerError>?>(nil)
    private static let databaseCounter = Atomic<Int>(0)

    /// The shared server, started by the first caller (which waits about a second for it).
    public static func shared() throws(PostgresTestServerError) -> PostgresTestServer {
        try started.withLock { started in
            if let started { return started }
            let result = Result { () throws(PostgresTestServerError) in try PostgresTestServer() }
            started = result
            return result
        }.get()
    }

    /// A server of the caller's own (tests of the harness itself); `stop` ends it.
    public static func start() throws(PostgresTestServerError) -> PostgresTestServer {
        try PostgresTestServer()
    }

    /// Ends the script's standard input, as this process's exit would, and waits for the script to
    /// stop the server and remove its directory; the script's exit status.
    public func stop() -> Int32 {
        close(stdinWriter)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }

    /// The directory holding the cluster and its socket (the connection string's host).
    public var directory: String {
        conninfo.split(separator: " ").first { $0.hasPrefix("host=") }.map { String($0.dropFirst(5)) } ?? ""
    }

    /// A new, empty database on the shared server; its connection string.
    public static func makeDatabase() throws -> String {
        let server = try shared()
        let name = "herald_test_\(getpid())_\(databaseCounter.add(1, ordering: .relaxed).newValue)"
        let connection = try PostgresConnection(server.conninfo)
        try connection.execute("CREATE DATABASE \(name)")
        return server.conninfo.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
    }

    private init() throws(PostgresTestServerError) {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/postgres-test-server").path
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-pg-\(getpid())-\(UUID().uuidString).log"
        ).path
        defer { try? FileManager.default.removeItem(atPath: errorLog) }
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        // pipe2(O_CLOEXEC) is hidden behind _GNU_SOURCE: set the flag right after. A child another
        // test spawns in between would hold the writer too, and the server would outlive this
        // process until that child ends; tests stop their children.
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw PostgresTestServerError(message: "pipe: \(String(cString: strerror(errno)))")
        }
        for descriptor in input + output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // setsid(1): a session of its own (POSIX_SPAWN_SETSID is hidden behind _GNU_SOURCE).
        let setsid = "/usr/bin/setsid"
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(setsid), strdup(script), nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, setsid, &actions, nil, &argv, environ)
        close(input[0])
        close(output[1])
        guard status == 0 else {
            close(input[1])
            close(output[0])
            throw PostgresTestServerError(message: "posix_spawn \(script): \(String(cString: strerror(status)))")
        }
        // The script prints its line once the server accepts connections, or exits (closing its
        // stdout) when it cannot start one: the read ends either way.
        let line = Self.readLine(output[0])
        close(output[0])
        guard let line, line.hasPrefix("host=") else {
            close(input[1])
            var exitStatus: Int32 = 0
            waitpid(pid, &exitStatus, 0)
            let log = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            throw PostgresTestServerError(message: "scripts/postgres-test-server did not start PostgreSQL: \(log)")
        }
        self.pid = pid
        conninfo = line
        stdinWriter = input[1]
    }

    private static func readLine(_ descriptor: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

public struct PostgresTestServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
