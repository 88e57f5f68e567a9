import Foundation
import HeraldCLI
import Testing

/// `CommandContext.system`'s files go through the transport's system layer (`System`): what it
/// writes reads back whole, and failures name the file and the system's reason.
@Suite(.timeLimit(.minutes(1)))
struct SystemContextTests {
    static func scratchDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-sys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }

    @Test func aWrittenFileReadsBackWholeAndAShorterOneReplacesIt() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/out.apns"
        // Larger than one read, so the reader's loop and the writer's both run more than once.
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        try CommandContext.system.writeFile(path, bytes)
        #expect(try CommandContext.system.readFile(path) == bytes)
        try CommandContext.system.writeFile(path, Array("{}".utf8))
        #expect(try CommandContext.system.readFile(path) == Array("{}".utf8), "the file is emptied first")
    }

    @Test func failuresNameTheFileAndTheReason() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: InputError("cannot read '\(directory)/nope.json': No such file or directory")) {
            try CommandContext.system.readFile(directory + "/nope.json")
        }
        #expect(throws: InputError("cannot write '\(directory)/no/such.apns': No such file or directory")) {
            try CommandContext.system.writeFile(directory + "/no/such.apns", [1])
        }
        #expect(throws: InputError("cannot read '\(directory)': Is a directory")) {
            try CommandContext.system.readFile(directory)
        }
    }

    @Test func anInputOverTheCapIsRefused() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/big.json"
        try CommandContext.system.writeFile(path, [UInt8](repeating: 0x20, count: (16 << 20) + 1))
        #expect(throws: InputError("'\(path)' is larger than 16 MiB; payloads are a few kilobytes")) {
            try CommandContext.system.readFile(path)
        }
    }
}
