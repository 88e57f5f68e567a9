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
    /// Lends the next line without its end to `body` (valid only during the call); false at the
    /// end of input. A reader with a buffer lends its bytes instead of copying them out. (Not
    /// generic: through `any LineReader`, a generic result was copied through value witnesses.)
    func withNextLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(InputError) -> Bool
}

extension LineReader {
    public func withNextLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(InputError) -> Bool {
        guard let line = try nextLine() else { return false }
        line.withUnsafeBufferPointer(body)
        return true
    }
}

/// Lines from a file descriptor, read in 64 KiB chunks.
final class FileLineReader: LineReader {
    /// A line longer than this is an error: a request line is a few kilobytes.
    static let maximumLineBytes = 1 << 20
    private let fd: Int32
    private let name: String
    private let ownsDescriptor: Bool
    /// The least free space a `read` is given.
    private static let readSize = 64 * 1024
    /// Bytes read are `buffer[..<end]`, of which `start..<end` are not handed out yet. Reads go
    /// straight into the buffer's free space (no chunk copied in, no memory cleared per read).
    private var buffer: [UInt8] = []
    private var end = 0
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
        var line: [UInt8]?
        _ = try withNextLine { line = Array($0) }
        return line
    }

    func withNextLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(InputError) -> Bool {
        // The line ends at the next `\n`, else (at the end of input) with the bytes left.
        var lineEnd: Int
        let next: Int  // where the line after it starts
        while true {
            if let newline = newlineIndex() {
                lineEnd = newline
                next = newline + 1
                break
            }
            if atEnd {
                guard start < end else { return false }
                lineEnd = end
                next = end
                break
            }
            if end - start > Self.maximumLineBytes {
                throw InputError("\(name) has a line longer than \(Self.maximumLineBytes >> 20) MiB")
            }
            try fill()
        }
        let lineStart = start
        bytesConsumed += next - lineStart
        start = next
        if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[lineStart..<lineEnd])) }
        return true
    }

    /// The index of the next `\n` in `start..<end` (memchr: a bulk send scans every byte of its input).
    private func newlineIndex() -> Int? {
        buffer.withUnsafeBytes { bytes -> Int? in
            guard let base = bytes.baseAddress, start < end else { return nil }
            guard let found = memchr(base + start, 0x0A, end - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    /// Moves the unread bytes to the front, then reads once into the space after them (the buffer
    /// doubles when less than `readSize` is free: a long line).
    private func fill() throws(InputError) {
        if start > 0 {
            buffer.withUnsafeMutableBytes { bytes in
                if let base = bytes.baseAddress, end > start { memmove(base, base + start, end - start) }
            }
            end -= start
            start = 0
        }
        if buffer.count - end < Self.readSize {
            buffer.append(contentsOf: repeatElement(0, count: max(buffer.count, Self.readSize)))
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                read(fd, bytes.baseAddress.map { $0 + end }, bytes.count - end)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read \(name): \(SystemIO.errorText())")
            }
            if count == 0 { atEnd = true } else { end += count }
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
