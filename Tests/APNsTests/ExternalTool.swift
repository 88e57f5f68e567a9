import Foundation
import HeraldTestSupport

/// Runs a reference tool (python3 with PyJWT, openssl) and returns its standard output.
enum ExternalTool {
    struct Failure: Error, CustomStringConvertible {
        let command: String
        let status: Int32
        let stderr: String
        var description: String { "\(command) exited \(status): \(stderr)" }
    }

    static func run(_ executable: String, _ arguments: [String], stdin: String = "") throws -> String {
        let process = try ChildProcess("/usr/bin/env", [executable] + arguments, stdin: .pipe)
        process.standardInput?.write(Data(stdin.utf8))
        try process.standardInput?.close()
        let status = process.waitUntilExit()
        let out = process.waitForCapturedOutput()
        guard status == 0 else {
            throw Failure(
                command: executable, status: status,
                stderr: String(decoding: process.waitForCapturedErrors(), as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = "\(path)/\(name)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }
}
