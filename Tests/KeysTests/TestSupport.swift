import Foundation
import HeraldTestSupport
import Keys

/// A temporary directory for one test, removed when the value goes away.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-keys-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    func readText(_ name: String) throws -> String {
        String(decoding: try read(name), as: UTF8.self)
    }
}

/// Runs `/usr/bin/openssl`, the reference the Keys module is checked against.
enum OpenSSLTool {
    struct Failure: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let stderr: String
        var description: String { "openssl \(arguments.joined(separator: " ")) exited \(status): \(stderr)" }
    }

    /// Runs openssl with `arguments`; returns its exit status (stdin is empty, so it can never prompt).
    @discardableResult
    static func run(_ arguments: [String], allowFailure: Bool = false) throws -> Int32 {
        let process = try ChildProcess("/usr/bin/openssl", arguments, stdout: .null)
        let status = process.waitUntilExit()
        if status != 0 && !allowFailure {
            throw Failure(
                arguments: arguments, status: status,
                stderr: String(decoding: process.waitForCapturedErrors(), as: UTF8.self))
        }
        return status
    }
}

/// The body lines of a PEM text (its base64), which no error message may contain.
func base64BodyLines(of pem: String) -> [String] {
    pem.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 16 }
}

/// The error `body` throws, or nil.
func keysError<T>(_ body: () throws(KeysError) -> T) -> KeysError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Lower-case hex, for comparing digests with published vectors.
func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
}

/// Bytes from hex, for writing signature vectors.
func bytes(hex text: String) -> [UInt8] {
    let characters = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: characters.count - 1, by: 2).compactMap {
        UInt8(String(characters[$0...$0 + 1]), radix: 16)
    }
}
