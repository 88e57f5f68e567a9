import APNsClient

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
    /// Takes SIGINT and SIGTERM over now, before `waitForTermination` is awaited: a stop that comes in
    /// between is kept, not left to the signal's default action (which kills the process).
    public var listenForTermination: @Sendable () -> Void
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
        listenForTermination: @escaping @Sendable () -> Void = {},
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
        self.listenForTermination = listenForTermination
        self.onListening = onListening
    }

    /// Reads `path`, or standard input for `-`.
    func read(_ path: String) throws(InputError) -> [UInt8] {
        path == "-" ? try readStandardInput() : try readFile(path)
    }
}

/// A file or stream that could not be read or written.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
