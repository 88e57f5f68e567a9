import APNsClient
import HTTP2

#if canImport(Glibc)
    import Glibc
#endif

extension CommandContext {
    /// The real process: stdout, stderr, the file system and the system clock. Its system calls go
    /// through the transport's funnel (`System`: EINTR retried, errno as text).
    public static let system = CommandContext(
        standardOutput: { ProcessFiles.write($0, to: 1) },
        standardError: { ProcessFiles.write($0, to: 2) },
        readStandardInput: { () throws(InputError) in try ProcessFiles.readAll(fd: 0, name: "standard input") },
        readFile: { (path: String) throws(InputError) in try ProcessFiles.read(path) },
        writeFile: { (path: String, bytes: [UInt8]) throws(InputError) in try ProcessFiles.write(bytes, toFile: path) },
        now: {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return now.tv_sec
        },
        environment: ProcessFiles.environment(),
        openLines: { (path: String) throws(InputError) -> any LineReader in
            switch Result(catching: { () throws(LineReaderError) in try FileLineReader.open(path) }) {
            case .success(let reader): return reader
            case .failure(let error): throw InputError(error.message)
            }
        },
        standardErrorIsTerminal: System.isTerminal(2),
        makeTransport: { (configuration: TransportConfiguration) throws(APNsClientError) -> any APNsTransport in
            try HTTP2Transport(configuration: configuration)
        },
        waitForTermination: { await Termination.wait() },
        listenForTermination: { Termination.listen() },
        onInterrupt: { handler in Interrupts.onFirst(handler) },
        nowMilliseconds: {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
        })
}

/// The real process's files and streams as `CommandContext.system` sees them: whole files read with
/// a size cap, failures worded for the user. The system calls themselves are `System`'s.
enum ProcessFiles {
    /// Input files larger than this are refused: payloads are kilobytes.
    static let maximumInputBytes = 16 << 20

    /// Writes `text` to `fd`; an output stream that fails (a closed pipe) loses the text, as there is
    /// nowhere left to report it.
    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in _ = try? System.writeAll(fd, UnsafeRawBufferPointer(bytes)) }
    }

    static func read(_ path: String) throws(InputError) -> [UInt8] {
        let fd: Int32
        do {
            fd = try System.openForReading(path)
        } catch {
            throw InputError("cannot read '\(path)': \(error.message)")
        }
        defer { try? System.close(fd) }
        return try readAll(fd: fd, name: "'\(path)'")
    }

    static func readAll(fd: Int32, name: String) throws(InputError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let outcome = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try System.read(fd, into: buffer) }
            }
            let count: Int
            switch outcome {
            case .success(.completed(let read)): count = read
            case .success(.wouldBlock):
                // A non-blocking descriptor (a parent may hand one over): no data yet must not read as the end.
                throw InputError("cannot read \(name): \(SystemError(function: "read", errno: EAGAIN).message)")
            case .failure(let error): throw InputError("cannot read \(name): \(error.message)")
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            if result.count > maximumInputBytes {
                throw InputError("\(name) is larger than \(maximumInputBytes >> 20) MiB; payloads are a few kilobytes")
            }
        }
    }

    static func write(_ bytes: [UInt8], toFile path: String) throws(InputError) {
        let fd: Int32
        do {
            fd = try System.openForWriting(path)
        } catch {
            throw InputError("cannot write '\(path)': \(error.message)")
        }
        defer { try? System.close(fd) }
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try System.writeAll(fd, buffer) }
        }
        try outcome.mapError { InputError("cannot write '\(path)': \($0.message)") }.get()
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
}
