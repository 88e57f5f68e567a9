// A child process started with posix_spawn, for tests.
//
// Why not Foundation's `Process`: in Swift 6.3.1's swift-corelibs-foundation, `Process.run()` reads
// 256 bytes past `dirent.d_name` while it counts the parent's open descriptors
// (`findMaximumOpenFromProcSelfFD`, fixed upstream by swiftlang/swift-corelibs-foundation#5472) and
// SIGSEGVs now and then, the more likely the more sockets the test process holds.
//
// Descriptors: the child gets 0, 1 and 2 by `dup2`, and every descriptor from 3 up is closed in it by
// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34+; see SpawnSymbols.swift), so nothing the test process holds leaks
// into it, whether close-on-exec or not. The parent's ends of the pipes are close-on-exec as well, so a
// child spawned concurrently by someone else's `fork`/`exec` does not keep them open either.
import Foundation
import Glibc

/// A child process: its pid, its pipes, and its exit status once it ends.
///
/// Thread-safety: all members may be used from any thread. A dedicated thread waits for the child
/// (`waitpid`), so awaiting `waitForExit()` never blocks the cooperative pool.
public final class ChildProcess: @unchecked Sendable {
    // SAFETY: every stored property is a constant; the file handles are only passed on to the caller.
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// /dev/null: the child reads end of file at once.
        case null
        /// A pipe the parent writes to through `standardInput`.
        case pipe
    }

    /// Where one of the child's output streams goes.
    public enum Output: Sendable {
        /// /dev/null.
        case null
        /// The test process's own stream of the same number.
        case inherit
        /// A file, created or truncated (standard error to the file standard output goes to shares it).
        case file(String)
        /// Read to its end on a thread of its own; see `capturedOutput()` / `capturedErrors()`.
        case capture
        /// A pipe the parent reads as it likes through `standardOutput` / `standardError`.
        case pipe
        /// Standard error only: the same place as standard output.
        case standardOutput
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id (for `kill`).
    public let pid: pid_t
    /// The parent's end of the child's standard input, with `Input.pipe`.
    public let standardInput: FileHandle?
    /// The parent's end of the child's standard output, with `Output.pipe`.
    public let standardOutput: FileHandle?
    /// The parent's end of the child's standard error, with `Output.pipe`.
    public let standardError: FileHandle?
    private let exitStatus = Waitable<Int32>()
    private let capturedOut: Waitable<[UInt8]>?
    private let capturedErr: Waitable<[UInt8]>?

    /// Starts `executable` (a path, not looked up in PATH) with `arguments`, in `directory`, with
    /// `environment` (the test process's own when nil).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, stdin: Input = .null, stdout: Output = .capture, stderr: Output = .capture
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Descriptors the child gets by dup2, closed in the parent once it is started.
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        var parentEnds: [Int32] = []
        var started = false
        defer { if !started { for fd in parentEnds { close(fd) } } }

        func makePipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard let pipe2 = SpawnSymbols.pipe2, pipe2(&fds, O_CLOEXEC) == 0 else {
                throw SpawnError(description: "pipe2: \(String(cString: strerror(errno)))")
            }
            return (fds[0], fds[1])
        }
        var inputWrite: Int32?
        switch stdin {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let pipe = try makePipe()
            childEnds.append(pipe.read)
            parentEnds.append(pipe.write)
            posix_spawn_file_actions_adddup2(&actions, pipe.read, 0)
            inputWrite = pipe.write
        }
        var stdoutPath: String?
        if case .file(let path) = stdout { stdoutPath = path }
        func route(_ output: Output, to target: Int32) throws -> Int32? {
            switch output {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            case .inherit:
                break
            case .file(let path):
                if target == 2, stdoutPath == path {
                    posix_spawn_file_actions_adddup2(&actions, 1, 2)
                } else {
                    posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                }
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, target)
            case .capture, .pipe:
                let pipe = try makePipe()
                childEnds.append(pipe.write)
                parentEnds.append(pipe.read)
                posix_spawn_file_actions_adddup2(&actions, pipe.write, target)
                return pipe.read
            }
            return nil
        }
        let outRead = try route(stdout, to: 1)
        let errRead = try route(stderr, to: 2)
        guard let addChdir = SpawnSymbols.addChdir, let addClosefrom = SpawnSymbols.addClosefrom else {
            throw SpawnError(description: "this libc lacks posix_spawn_file_actions_addchdir_np/addclosefrom_np")
        }
        if let directory { _ = addChdir(&actions, directory) }
        _ = addClosefrom(&actions, 3)

        // Default dispositions and no blocked signals, whatever the test process set (servers ignore SIGPIPE).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid: pid_t = 0
        let result: Int32
        if var given = envp {
            result = posix_spawn(&pid, executable, &actions, &attributes, &argv, &given)
        } else {
            result = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
        }
        guard result == 0 else {
            throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        started = true
        self.pid = pid
        standardInput = inputWrite.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        func parentHandle(_ output: Output, _ fd: Int32?) -> FileHandle? {
            guard case .pipe = output, let fd else { return nil }
            return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        }
        standardOutput = parentHandle(stdout, outRead)
        standardError = parentHandle(stderr, errRead)
        func capture(_ output: Output, _ fd: Int32?) -> Waitable<[UInt8]>? {
            guard case .capture = output, let fd else { return nil }
            let captured = Waitable<[UInt8]>()
            Thread.detachNewThread { captured.finish(ChildProcess.readToEnd(fd)) }
            return captured
        }
        capturedOut = capture(stdout, outRead)
        capturedErr = capture(stderr, errRead)
        let exitStatus = exitStatus
        let child = pid
        Thread.detachNewThread { exitStatus.finish(ChildProcess.waitForChild(child)) }
    }

    /// `executable` and `arguments` in one array, standard output and error to /dev/null (as nghttpd runs).
    public convenience init(_ command: [String]) throws {
        try self.init(command.first ?? "", Array(command.dropFirst()), stdout: .null, stderr: .null)
    }

    /// A child that was never waited for is killed: no server outlives the test that started it.
    deinit {
        if !exitStatus.isFinished { kill(pid, SIGKILL) }
    }

    /// Sends `signal` (SIGTERM, SIGKILL, SIGINT...) to the child, unless it has been reaped already
    /// (its pid may then belong to another process).
    public func send(_ signal: Int32) {
        if !exitStatus.isFinished { kill(pid, signal) }
    }

    /// Whether the child has not ended yet. Looks without reaping (`WNOWAIT`): the waiting thread
    /// reaps it.
    public var isRunning: Bool {
        guard !exitStatus.isFinished else { return false }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
        return info.si_signo != SIGCHLD
    }

    /// Kills the child (SIGKILL) and waits until it is gone.
    public func stop() {
        send(SIGKILL)
        _ = exitStatus.wait()
    }

    /// `waitUntilExit()`, by its older name.
    public func wait() -> Int32 {
        waitUntilExit()
    }

    /// The child's exit status, or 128 + the signal that ended it (as a shell reports it).
    public func waitForExit() async -> Int32 {
        await exitStatus.value()
    }

    /// `waitForExit()` for synchronous callers: blocks the calling thread.
    public func waitUntilExit() -> Int32 {
        exitStatus.wait()
    }

    /// Everything the child wrote to standard output (`Output.capture`), once it closed it.
    public func capturedOutput() async -> [UInt8] {
        await capturedOut?.value() ?? []
    }

    /// Everything the child wrote to standard error (`Output.capture`), once it closed it.
    public func capturedErrors() async -> [UInt8] {
        await capturedErr?.value() ?? []
    }

    /// `capturedOutput()` for synchronous callers: blocks the calling thread.
    public func waitForCapturedOutput() -> [UInt8] {
        capturedOut?.wait() ?? []
    }

    /// `capturedErrors()` for synchronous callers: blocks the calling thread.
    public func waitForCapturedErrors() -> [UInt8] {
        capturedErr?.wait() ?? []
    }

    private static func readToEnd(_ fd: Int32) -> [UInt8] {
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[..<count]
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }

    private static func waitForChild(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// A value another thread delivers once, waited for by blocking or by awaiting.
final class Waitable<Value: Sendable>: @unchecked Sendable {
    // SAFETY: `result` and `waiters` are only touched under `condition`.
    private let condition = NSCondition()
    private var result: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    func finish(_ value: Value) {
        condition.lock()
        result = value
        let resumed = waiters
        waiters = []
        condition.broadcast()
        condition.unlock()
        for waiter in resumed { waiter.resume(returning: value) }
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return result != nil
    }

    func wait() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result { return result }
            condition.wait()
        }
    }

    func value() async -> Value {
        await withCheckedContinuation { continuation in
            condition.lock()
            if let result {
                condition.unlock()
                continuation.resume(returning: result)
            } else {
                waiters.append(continuation)
                condition.unlock()
            }
        }
    }
}
