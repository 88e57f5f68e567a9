#if canImport(Glibc)
import Glibc
#endif

/// Reads a file or standard input one line at a time in bounded memory (bulk sends stream any
/// number of lines). Lines end at `\n`; a trailing `\r` is dropped; the last line may lack `\n`.
public protocol LineReader: AnyObject {
    /// The next line without its end, or nil at the end of input.
    func nextLine() throws(InputError) -> [UInt8]?
    /// Bytes handed out so far (lines and their ends), for progress.
    var bytesConsumed: Int { get }
    /// The input's size when known (a regular file), for an ETA.
    var totalBytes: Int? { get }
}

/// Lines from a file descriptor, read in 64 KiB chunks.
final class FileLineReader: LineReader {
    /// A line longer than this is an error: a request line is a few kilobytes.
    static let maximumLineBytes = 1 << 20
    private let fd: Int32
    private let name: String
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    /// What each `read` fills, allocated once.
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var start = 0
    private var atEnd = false
    private(set) var bytesConsumed = 0
    let totalBytes: Int?

    init(fd: Int32, name: String, ownsDescriptor: Bool) {
        self.fd = fd
        self.name = name
        self.ownsDescriptor = ownsDescriptor
        var status = stat()
        totalBytes = fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    static func open(_ path: String) throws(InputError) -> FileLineReader {
        if path == "-" { return FileLineReader(fd: 0, name: "standard input", ownsDescriptor: false) }
        var fd: Int32
        repeat {
            fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw InputError("cannot read '\(path)': \(SystemIO.errorText())") }
        return FileLineReader(fd: fd, name: "'\(path)'", ownsDescriptor: true)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    func nextLine() throws(InputError) -> [UInt8]? {
        while true {
            if let newline = newlineIndex() {
                let end = newline > start && buffer[newline - 1] == 0x0D ? newline - 1 : newline
                let line = buffer.withUnsafeBufferPointer { Array(UnsafeBufferPointer(rebasing: $0[start..<end])) }
                bytesConsumed += newline + 1 - start
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                var line = Array(buffer[start...])
                bytesConsumed += buffer.count - start
                start = buffer.count
                if line.last == 0x0D { line.removeLast() }
                return line
            }
            if buffer.count - start > Self.maximumLineBytes {
                throw InputError("\(name) has a line longer than \(Self.maximumLineBytes >> 20) MiB")
            }
            try fill()
        }
    }

    /// The index of the next `\n` from `start` (memchr: a bulk send scans every byte of its input).
    private func newlineIndex() -> Int? {
        buffer.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress, start < bytes.count else { return nil }
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    private func fill() throws(InputError) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read \(name): \(SystemIO.errorText())")
            }
            if count == 0 {
                atEnd = true
            } else {
                // From a buffer pointer: one block copy (appending a slice of `chunk` went byte by byte).
                chunk.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<count])) }
            }
            return
        }
    }
}

/// Lines from memory (tests).
public final class MemoryLineReader: LineReader {
    private var lines: [[UInt8]]
    public private(set) var bytesConsumed = 0
    public let totalBytes: Int?

    public init(_ text: String) {
        totalBytes = text.utf8.count
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        lines.reverse()
    }

    public func nextLine() throws(InputError) -> [UInt8]? {
        guard let line = lines.popLast() else { return nil }
        bytesConsumed += line.count + 1
        return line
    }
}
