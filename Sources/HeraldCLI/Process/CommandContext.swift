import APNsClient

#if canImport(Glibc)
import Glibc
#endif

/// What a command may touch outside itself: output streams, files, standard input and the clock.
/// `CommandContext.system` is the real process; tests pass an in-memory one, so every command runs
/// without a process and its output and exit status can be asserted.
public struct CommandContext: Sendable {
    public var standardOutput: @Sendable (String) -> Void
    public var standardError: @Sendable (String) -> Void
    public var readStandardInput: @Sendable () throws(InputError) -> [UInt8]
    public var readFile: @Sendable (String) throws(InputError) -> [UInt8]
    public var writeFile: @Sendable (String, [UInt8]) throws(InputError) -> Void
    /// The current UNIX time in seconds.
    public var now: @Sendable () -> Int
    /// Milliseconds since 1970: the clock of every millisecond field a command writes (the emulator's).
    public var nowMilliseconds: @Sendable () -> Int
    /// Environment variables (`HERALD_*` give option defaults and secrets).
    public var environment: [String: String]
    /// Opens a file (or `-`, standard input) for reading line by line.
    public var openLines: @Sendable (String) throws(InputError) -> any LineReader
    /// Whether standard error is a terminal (progress bars go there only then).
    public var standardErrorIsTerminal: Bool
    /// Returns when the process is asked to stop (SIGINT or SIGTERM; a test decides itself).
    public var waitForTermination: @Sendable () async -> Void
    /// Calls the handler at the first Ctrl-C (SIGINT or SIGTERM) from now on; a second one ends the
    /// process at once (a bulk send stops reading and prints where to resume; tests call it themselves).
    public var onInterrupt: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Told where a long-running command (the emulator) listens, once it does (tests connect there).
    public var onListening: @Sendable (Int) -> Void
    /// Opens the transport `herald send` sends over (HTTP/2 for real; a fake in tests).
    public var makeTransport: @Sendable (TransportConfiguration) throws(APNsClientError) -> any APNsTransport

    public init(
        standardOutput: @escaping @Sendable (String) -> Void, standardError: @escaping @Sendable (String) -> Void,
        readStandardInput: @escaping @Sendable () throws(InputError) -> [UInt8],
        readFile: @escaping @Sendable (String) throws(InputError) -> [UInt8],
        writeFile: @escaping @Sendable (String, [UInt8]) throws(InputError) -> Void, now: @escaping @Sendable () -> Int,
        environment: [String: String] = [:],
        openLines: @escaping @Sendable (String) throws(InputError) -> any LineReader = { (path: String) throws(InputError) in
            throw InputError("cannot read '\(path)'")
        },
        standardErrorIsTerminal: Bool = false,
        makeTransport: @escaping @Sendable (TransportConfiguration) throws(APNsClientError) -> any APNsTransport = {
            (_: TransportConfiguration) throws(APNsClientError) -> any APNsTransport in
            throw .invalidConfiguration("no transport")
        },
        waitForTermination: @escaping @Sendable () async -> Void = {},
        onListening: @escaping @Sendable (Int) -> Void = { _ in },
        onInterrupt: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { _ in },
        nowMilliseconds: (@Sendable () -> Int)? = nil
    ) {
        self.onInterrupt = onInterrupt
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.readStandardInput = readStandardInput
        self.readFile = readFile
        self.writeFile = writeFile
        self.now = now
        self.nowMilliseconds = nowMilliseconds ?? { now() * 1000 }
        self.environment = environment
        self.openLines = openLines
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.makeTransport = makeTransport
        self.waitForTermination = waitForTermination
        self.onListening = onListening
    }

    /// Reads `path`, or standard input for `-`.
    func read(_ path: String) throws(InputError) -> [UInt8] {
        path == "-" ? try readStandardInput() : try readFile(path)
    }

    /// The real process: stdout, stderr, the file system and the system clock.
    public static let system = CommandContext(
        standardOutput: { SystemIO.write(fd: 1, $0) },
        standardError: { SystemIO.write(fd: 2, $0) },
        readStandardInput: { () throws(InputError) in try SystemIO.readAll(fd: 0, name: "standard input") },
        readFile: { (path: String) throws(InputError) in try SystemIO.readFile(path) },
        writeFile: { (path: String, bytes: [UInt8]) throws(InputError) in try SystemIO.writeFile(path, bytes) },
        now: {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return now.tv_sec
        },
        environment: SystemIO.environment(),
        openLines: { (path: String) throws(InputError) -> any LineReader in
            switch Result(catching: { () throws(LineReaderError) in try FileLineReader.open(path) }) {
            case .success(let reader): return reader
            case .failure(let error): throw InputError(error.message)
            }
        },
        standardErrorIsTerminal: isatty(2) == 1,
        makeTransport: { (configuration: TransportConfiguration) throws(APNsClientError) -> any APNsTransport in
            try HTTP2Transport(configuration: configuration)
        },
        waitForTermination: { await Termination.wait() },
        onInterrupt: { handler in Interrupts.onFirst(handler) },
        nowMilliseconds: {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
        })
}

/// A file or stream that could not be read or written.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// The few system calls the CLI makes, each retrying EINTR and reporting errno as text.
enum SystemIO {
    /// Input files larger than this are refused: payloads are kilobytes.
    static let maximumInputBytes = 16 << 20

    static func write(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }

    static func readFile(_ path: String) throws(InputError) -> [UInt8] {
        var fd: Int32
        repeat {
            fd = open(path, O_RDONLY | O_CLOEXEC)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw InputError("cannot read '\(path)': \(errorText())") }
        defer { close(fd) }
        return try readAll(fd: fd, name: "'\(path)'")
    }

    static func readAll(fd: Int32, name: String) throws(InputError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read \(name): \(errorText())")
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            if result.count > maximumInputBytes {
                throw InputError("\(name) is larger than \(maximumInputBytes >> 20) MiB; payloads are a few kilobytes")
            }
        }
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(InputError) {
        var fd: Int32
        repeat {
            fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw InputError("cannot write '\(path)': \(errorText())") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot write '\(path)': \(errorText())")
            }
            offset += written
        }
    }

    /// The process's environment variables.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
