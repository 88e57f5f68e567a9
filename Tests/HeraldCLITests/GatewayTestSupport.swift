import Foundation
import HeraldTestSupport
import Keys
import Testing

/// `herald gateway` as a child process on an ephemeral loopback port, stopped with SIGTERM.
final class GatewayProcess {
    let process: ChildProcess
    let port: Int
    /// The first line it printed on standard output.
    let firstLine: String
    private let output: FileHandle

    /// Starts `herald gateway --listen 127.0.0.1:0` plus `arguments` and returns once it printed where
    /// it listens.
    init(_ arguments: [String], directory: String? = nil) throws {
        process = try ChildProcess(
            try #require(HeraldBinary.path, "herald binary next to the test bundle"),
            ["gateway", "--listen", "127.0.0.1:0"] + arguments, directory: directory, stdout: .pipe)
        output = try #require(process.standardOutput)
        var text = ""
        while !text.contains("\n") {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
        guard let range = firstLine.range(of: "://127.0.0.1:"),
            let port = Int(firstLine[range.upperBound...].prefix { $0.isNumber })
        else {
            process.send(SIGTERM)
            _ = process.waitUntilExit()
            throw GatewayProcessError(
                firstLine: firstLine, errors: String(decoding: process.waitForCapturedErrors(), as: UTF8.self))
        }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// Sends SIGTERM (or SIGINT, as Ctrl-C does) and returns its exit status, the rest of standard
    /// output and all of standard error.
    func stop(interrupt: Bool = false) -> (status: Int32, stdout: String, stderr: String) {
        process.send(interrupt ? SIGINT : SIGTERM)
        let rest = output.readDataToEndOfFile()
        let status = process.waitUntilExit()
        return (
            status, String(decoding: rest, as: UTF8.self),
            String(decoding: process.waitForCapturedErrors(), as: UTF8.self)
        )
    }
}

struct GatewayProcessError: Error, CustomStringConvertible {
    let firstLine: String
    let errors: String
    var description: String { "herald gateway did not say where it listens: '\(firstLine)'; stderr: \(errors)" }
}

/// curl as a child process: the body, then the status and HTTP version curl saw.
enum Curl {
    static func run(_ arguments: [String]) throws -> (exit: Int32, body: String, status: Int, version: String) {
        let process = try ChildProcess(
            "/usr/bin/curl", ["-sS", "--max-time", "20", "-w", "\n%{http_code} %{http_version}"] + arguments)
        let status = process.waitUntilExit()
        let text = String(decoding: process.waitForCapturedOutput(), as: UTF8.self)
        let lastNewline = text.lastIndex(of: "\n") ?? text.startIndex
        let trailer = text[lastNewline...].dropFirst().split(separator: " ")
        return (
            status, String(text[..<lastNewline]), trailer.first.flatMap { Int($0) } ?? 0,
            trailer.count > 1 ? String(trailer[1]) : ""
        )
    }
}

/// A scratch directory with a .p8 key, removed at the end of the test.
final class GatewayScratch {
    let path: String
    let keyPath: String
    /// `--topic com.example.app` with token credentials.
    let appFlags: [String]

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("herald-gw-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        keyPath = path + "/AuthKey.p8"
        appFlags = [
            "--topic", "com.example.app", "--auth-key", keyPath, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
        ]
        try write("AuthKey.p8", try P256PrivateKey.generate().pkcs8PEM())
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    var dataDirectory: String { path + "/data" }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        return path + "/" + name
    }

    /// `herald gateway key ... --data-dir` this scratch's data directory.
    func key(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try HeraldBinary.run(["gateway", "key"] + arguments + ["--data-dir", dataDirectory])
    }
}
