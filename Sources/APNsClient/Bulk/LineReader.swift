/// Reads lines one at a time in bounded memory (a bulk send streams any number of them). Lines
/// end at `\n`; a trailing `\r` is dropped; the last line may lack `\n`. A line longer than the
/// reader's limit is skipped to its end without being held and reported as `.tooLong`.
///
/// Thread-safety: one thread at a time (a bulk send hands the reader to its decoding thread).
public protocol LineReader: AnyObject {
    /// Bytes handed out or skipped so far (lines and their ends), for progress.
    var bytesConsumed: Int { get }
    /// The input's size when known (a regular file), for an ETA.
    var totalBytes: Int? { get }
    /// Lines longer than this many bytes (without their end) are skipped as `.tooLong`.
    var maximumLineBytes: Int { get }
    /// Lends the next line without its end to `body` (valid only during the call) and returns
    /// `.line`; `.tooLong` (body not called) for a line over the limit, skipped; `.end` at the
    /// end of input. A reader with a buffer lends its bytes instead of copying them out. (Not
    /// generic: through `any LineReader`, a generic result was copied through value witnesses.)
    func withNextLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(LineReaderError) -> LineRead
    /// The number of lines in the whole input, counted without consuming any, when that is cheap
    /// (input in memory, a regular file of moderate size); nil otherwise. For progress.
    func countLines() -> Int?
}

extension LineReader {
    /// Not counted: a reader that cannot count its lines without consuming them.
    public func countLines() -> Int? { nil }
}

/// What `LineReader.withNextLine` found.
public enum LineRead: Sendable, Equatable {
    /// A line, lent to the body.
    case line
    /// A line over the reader's limit: skipped to its end (it still counts as a line).
    case tooLong
    /// No more input.
    case end
}

/// A line as `LineReader.nextLine` copies it out (tests, small inputs).
public enum NextLine: Sendable, Equatable {
    case line([UInt8])
    case tooLong
}

extension LineReader {
    /// The next line copied out; nil at the end of input.
    public func nextLine() throws(LineReaderError) -> NextLine? {
        var copy: [UInt8] = []
        switch try withNextLine({ copy = Array($0) }) {
        case .line: return .line(copy)
        case .tooLong: return .tooLong
        case .end: return nil
        }
    }
}

/// Input that could not be read (the file named, and the system's reason).
public struct LineReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Lines from memory (tests, and callers that hold their input already).
public final class MemoryLineReader: LineReader {
    private var lines: [[UInt8]]
    private let lineCount: Int
    public let maximumLineBytes: Int
    public private(set) var bytesConsumed = 0
    public let totalBytes: Int?

    public init(_ text: String, maximumLineBytes: Int = FileLineReader.defaultMaximumLineBytes) {
        self.maximumLineBytes = maximumLineBytes
        totalBytes = text.utf8.count
        lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        lines.reverse()
        lineCount = lines.count
    }

    public func countLines() -> Int? { lineCount }

    public func withNextLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(LineReaderError) -> LineRead {
        guard var line = lines.popLast() else { return .end }
        bytesConsumed += line.count + 1
        if line.last == 0x0D { line.removeLast() }
        if line.count > maximumLineBytes { return .tooLong }
        line.withUnsafeBufferPointer(body)
        return .line
    }
}
