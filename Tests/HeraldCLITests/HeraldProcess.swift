import Foundation
import HeraldTestSupport
import Testing

/// The real `herald` binary (built next to the test bundle), run as a child process.
enum HeraldBinary {
    static let path: String? = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("herald").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    /// Runs `herald arguments` to its end and returns its exit status and both streams.
    static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String]? = nil, directory: String? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(
            try #require(path, "herald binary next to the test bundle"), arguments, environment: environment,
            directory: directory, stdin: .pipe)
        // Both streams are read on threads of their own meanwhile: a large input cannot deadlock.
        child.standardInput?.write(Data(stdin.utf8))
        try child.standardInput?.close()
        let status = child.waitUntilExit()
        let out = child.waitForCapturedOutput()
        let err = child.waitForCapturedErrors()
        return (status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

/// `herald emulator` as a child process: started on an ephemeral loopback port, stopped with SIGTERM.
final class EmulatorProcess {
    let process: ChildProcess
    let port: Int
    private let output: FileHandle

    /// Starts `herald emulator --plaintext --listen 127.0.0.1:0 --in-memory` plus `arguments` (over
    /// TLS with its generated CA in `directory`/herald-data when `tlsIn` is given), and returns once
    /// it printed where it listens.
    init(_ arguments: [String], tlsIn directory: String? = nil) throws {
        let transport = directory.map { ["--data-dir", $0 + "/herald-data"] } ?? ["--plaintext", "--in-memory"]
        process = try ChildProcess(
            try #require(HeraldBinary.path, "herald binary next to the test bundle"),
            ["emulator", "--listen", "127.0.0.1:0"] + transport + arguments, stdout: .pipe, stderr: .inherit)
        output = try #require(process.standardOutput)
        var text = ""
        while !text.contains("\n") {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
        guard let range = firstLine.range(of: "://127.0.0.1:"),
            let port = Int(firstLine[range.upperBound...].prefix { $0.isNumber })
        else {
            process.send(SIGTERM)
            throw EmulatorProcessError(firstLine: firstLine)
        }
        self.port = port
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }
    /// The TLS endpoint, by the name the generated certificate carries.
    var tlsEndpoint: String { "https://localhost:\(port)" }

    /// Stops it as Ctrl-C would and returns its exit status.
    func stop() -> Int32 {
        process.send(SIGTERM)
        return process.waitUntilExit()
    }
}

struct EmulatorProcessError: Error, CustomStringConvertible {
    let firstLine: String
    var description: String { "herald emulator did not say where it listens: '\(firstLine)'" }
}

extension Thread {
    /// Reads `handle` to its end on a thread of its own (two pipes read in turn can deadlock).
    static func detachNewThreadReading(_ handle: FileHandle) -> PipeReading {
        let reading = PipeReading()
        Thread.detachNewThread { reading.finish(handle.readDataToEndOfFile()) }
        return reading
    }
}

/// Data read on another thread, waited for with a condition (no sleeping).
final class PipeReading: @unchecked Sendable {
    // SAFETY: `data` is only touched under `condition`.
    private let condition = NSCondition()
    private var data: Data?

    func finish(_ data: Data) {
        condition.lock()
        self.data = data
        condition.signal()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}
