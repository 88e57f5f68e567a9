import Foundation
import Testing

@testable import APNsClient

/// `countLines`: the lines a file holds, counted ahead for progress without consuming any, the
/// same number the reader then hands out; none for standard input or for input in a pipe.
@Suite(.timeLimit(.minutes(1)))
struct FileLineReaderCountTests {
    @Test(arguments: FileLineReaderTests.cases)
    func countsTheLinesTheReaderHandsOut(_ testCase: FileLineReaderTests.Case) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-count-\(UUID().uuidString)")
            .path
        try Data(testCase.text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try FileLineReader.open(path)
        #expect(reader.countLines() == testCase.lines.count)
        var handedOut = 0
        while try reader.nextLine() != nil { handedOut += 1 }
        #expect(handedOut == testCase.lines.count, "counting consumed nothing")
        #expect(MemoryLineReader(testCase.text).countLines() == testCase.lines.count)
    }

    @Test func standardInputIsNotCounted() throws {
        #expect(try FileLineReader.open("-").countLines() == nil)
    }
}
