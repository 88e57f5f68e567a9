import HTTP2

#if canImport(Glibc)
    import Glibc
#endif

/// Lines from a file descriptor (a file, a pipe, standard input), read in 64 KiB chunks into one
/// buffer that lines are lent from. Memory stays bounded by the line limit: a longer line is
/// dropped as it is read, up to its newline (`.tooLong`), and the next line is read as usual.
///
/// Thread-safety: one thread at a time. Lifecycle: closes the descriptor at deinit when it owns it.
public final class FileLineReader: LineReader {
    /// The default limit: a request line is a few kilobytes.
    public static let defaultMaximumLineBytes = 1 << 20
    public let maximumLineBytes: Int
    private let fd: Int32
    private let name: String
    /// The file's path when opened by path (standard input has none): `countLines` reads it again.
    private var path: String?
    private let ownsDescriptor: Bool
    /// The least free space a `read` is given.
    private static let readSize = 64 * 1024
    /// Bytes read are `buffer[..<end]`, of which `start..<end` are not handed out yet. Reads go
    /// straight into the buffer's free space (no chunk copied in, no memory cleared per read).
    /// Unchecked exclusivity: the reader is used by one thread, and no access spans a call that
    /// could reach the reader again (the line's body gets a pointer, not the reader); the dynamic
    /// checks were taken for every line.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var atEnd = false
    /// Inside a line over the limit: its bytes are dropped up to its newline.
    @exclusivity(unchecked) private var skipping = false
    @exclusivity(unchecked) public private(set) var bytesConsumed = 0
    public let totalBytes: Int?

    /// Reads `fd`, named `name` in errors (e.g. "'requests.ndjson'" or "standard input").
    public init(fd: Int32, name: String, ownsDescriptor: Bool, maximumLineBytes: Int = defaultMaximumLineBytes) {
        self.fd = fd
        self.name = name
        self.ownsDescriptor = ownsDescriptor
        self.maximumLineBytes = maximumLineBytes
        totalBytes = System.regularFileSize(fd)
    }

    /// Opens `path` (`-`: standard input).
    public static func open(_ path: String, maximumLineBytes: Int = defaultMaximumLineBytes) throws(LineReaderError)
        -> FileLineReader
    {
        if path == "-" {
            return FileLineReader(
                fd: 0, name: "standard input", ownsDescriptor: false, maximumLineBytes: maximumLineBytes)
        }
        do {
            let fd = try System.openForReading(path)
            let reader = FileLineReader(
                fd: fd, name: "'\(path)'", ownsDescriptor: true, maximumLineBytes: maximumLineBytes)
            reader.path = path
            return reader
        } catch {
            throw LineReaderError("cannot read '\(path)': \(error.message)")
        }
    }

    /// The largest file `countLines` reads through: a larger one would hold up the caller (the
    /// first send) while it is read once more, and its count can be estimated from the bytes read.
    public static let maximumCountedBytes = 1 << 30

    /// Counts the newlines of a regular file opened by path (a last line without one counts too),
    /// through a descriptor of its own; nil for standard input, a pipe, a file over
    /// `maximumCountedBytes`, or a read error (the reading proper reports those).
    public func countLines() -> Int? {
        guard let path, let totalBytes, totalBytes <= Self.maximumCountedBytes else { return nil }
        guard let counting = try? System.openForReading(path) else { return nil }
        defer { try? System.close(counting) }
        var chunk = [UInt8](repeating: 0, count: Self.readSize * 4)
        var newlines = 0
        var last = UInt8(ascii: "\n")
        while true {
            let read = chunk.withUnsafeMutableBytes { bytes in
                Result { () throws(SystemError) in try System.read(counting, into: bytes) }
            }
            guard case .success(.completed(let count)) = read else { return nil }
            if count == 0 { break }
            chunk.withUnsafeBytes { bytes in
                guard var next = bytes.baseAddress else { return }
                let end = next + count
                while next < end, let found = memchr(next, 0x0A, next.distance(to: end)) {
                    newlines += 1
                    next = UnsafeRawPointer(found) + 1
                }
            }
            last = chunk[count - 1]
        }
        return newlines + (last == UInt8(ascii: "\n") ? 0 : 1)
    }

    /// The buffer's size (tests: memory stays bounded by the line limit).
    var bufferCapacity: Int { buffer.count }

    deinit {
        if ownsDescriptor { try? System.close(fd) }
    }

    public func withNextLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(LineReaderError) -> LineRead {
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
                guard start < end || skipping else { return .end }
                lineEnd = end
                next = end
                break
            }
            if skipping || end - start > maximumLineBytes {
                // Over the limit: what is buffered of it goes, and reading goes on to its end.
                bytesConsumed += end - start
                start = end
                skipping = true
            }
            try fill()
        }
        let lineStart = start
        bytesConsumed += next - lineStart
        start = next
        if skipping || lineEnd - lineStart > maximumLineBytes {
            skipping = false
            return .tooLong
        }
        if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[lineStart..<lineEnd])) }
        return .line
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
    /// doubles when less than `readSize` is free: a long line, up to the limit).
    private func fill() throws(LineReaderError) {
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
        // rethrows loses the error's type: the read's outcome comes out as a Result.
        let outcome = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(SystemError) in
                try System.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes[end...]))
            }
        }
        let result: SyscallResult<Int>
        switch outcome {
        case .success(let value): result = value
        case .failure(let error): throw LineReaderError("cannot read \(name): \(error.message)")
        }
        switch result {
        case .completed(0): atEnd = true
        case .completed(let count): end += count
        case .wouldBlock: throw LineReaderError("cannot read \(name): it is non-blocking and has no data yet")
        }
    }
}
