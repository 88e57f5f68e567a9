import Foundation
import Testing

@testable import APNsClient

/// `FileLineReader`: lines end at `\n`, a `\r` before it is dropped, the last line may lack its
/// `\n`, and lines that straddle the 64 KiB reads come out whole.
@Suite(.timeLimit(.minutes(1)))
struct FileLineReaderTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let text: String
        let lines: [String]
        var description: String { name }
    }

    static let long = String(repeating: "x", count: 70_000)

    static let cases: [Case] = [
        Case(name: "empty", text: "", lines: []),
        Case(name: "one line", text: "a\n", lines: ["a"]),
        Case(name: "no final newline", text: "a\nb", lines: ["a", "b"]),
        Case(name: "CRLF", text: "a\r\nb\r\n", lines: ["a", "b"]),
        Case(name: "blank lines", text: "\n\r\n\na\n", lines: ["", "", "", "a"]),
        Case(name: "a carriage return inside a line stays", text: "a\rb\n", lines: ["a\rb"]),
        Case(name: "a line across reads", text: "a\n" + long + "\r\nb", lines: ["a", long, "b"]),
        Case(name: "a line longer than two reads", text: "a\n" + veryLong + "\nb\n", lines: ["a", veryLong, "b"]),
        Case(name: "many lines over many reads", text: many.map { $0 + "\n" }.joined(), lines: many),
    ]
    static let veryLong = String(repeating: "y", count: 200_000)
    static let many = (0..<5_000).map { "line \($0) " + String(repeating: "z", count: $0 % 97) }

    @Test(arguments: cases)
    func readsEveryLine(_ testCase: Case) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-lines-\(UUID().uuidString)")
            .path
        try Data(testCase.text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try FileLineReader.open(path)
        var lines: [String] = []
        while let line = try reader.nextLine() {
            guard case .line(let bytes) = line else { throw LineReaderError("a line under the limit was skipped") }
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        #expect(lines == testCase.lines)
        #expect(reader.bytesConsumed == testCase.text.utf8.count)
        #expect(reader.totalBytes == testCase.text.utf8.count)
    }

    /// A line over the limit is skipped to its newline (reported as `.tooLong`, in bounded memory),
    /// and reading goes on with the next line: in the middle, at the end without a newline, and a
    /// line just over the limit whose newline arrived in the same read.
    @Test(
        arguments: [
            (2 << 20, "\n"), (FileLineReader.defaultMaximumLineBytes + 1, "\n"), (3 << 20, ""),
        ] as [(Int, String)])
    func aLineOverTheLimitIsSkippedAndReadingGoesOn(length: Int, end: String) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-lines-\(UUID().uuidString)")
            .path
        let text = "a\n" + String(repeating: "x", count: length) + end + (end.isEmpty ? "" : "b\r\nc\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try FileLineReader.open(path)
        var lines: [NextLine] = []
        while let line = try reader.nextLine() { lines.append(line) }
        let expected: [NextLine] =
            end.isEmpty
            ? [.line(Array("a".utf8)), .tooLong]
            : [.line(Array("a".utf8)), .tooLong, .line(Array("b".utf8)), .line(Array("c".utf8))]
        #expect(lines == expected)
        #expect(reader.bytesConsumed == text.utf8.count)
        #expect(reader.bufferCapacity <= 2 * FileLineReader.defaultMaximumLineBytes + 128 * 1024, "bounded memory")
    }
}
