// What swiftc is given for one file. `swiftc -dump-parse` evaluates `#if` as it parses and prints
// nothing of any clause (not even the active one), so code under `#if DEBUG` or `#if os(iOS)` would be
// invisible. A file with conditional compilation is given as a copy whose directive lines are blanked
// with spaces: every clause's code is then parsed, as if all were active, and every byte and line
// keeps its place, so positions in the copy are positions in the file.
import Glibc

struct CompilerInput {
    /// The file the user named.
    let path: String
    /// The file swiftc reads: `path`, or the blanked copy.
    let compilerPath: String
    /// The text positions are counted in; nil when the file could not be read.
    let source: [UInt8]?
    private let copyDirectory: String?

    init(_ path: String) {
        self.path = path
        guard let bytes = readFile(path) else {
            self.compilerPath = path
            self.source = nil
            self.copyDirectory = nil
            return
        }
        let blanked = CompilerInput.blankingDirectives(bytes)
        guard blanked != bytes, let directory = CompilerInput.makeDirectory() else {
            self.compilerPath = path
            self.source = bytes
            self.copyDirectory = nil
            return
        }
        let name = path.split(separator: "/").last.map(String.init) ?? "File.swift"
        let copy = directory + "/" + name
        guard CompilerInput.write(blanked, to: copy) else {
            rmdir(directory)
            self.compilerPath = path
            self.source = bytes
            self.copyDirectory = nil
            return
        }
        self.compilerPath = copy
        self.source = blanked
        self.copyDirectory = directory
    }

    func removeCopy() {
        guard let copyDirectory else { return }
        unlink(compilerPath)
        rmdir(copyDirectory)
    }

    /// `bytes` with each `#if`, `#elseif`, `#else` and `#endif` line turned into spaces.
    static func blankingDirectives(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var first = lineStart
            while first < lineEnd, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") {
                first += 1
            }
            let line = bytes[first..<lineEnd]
            if ["#if", "#elseif", "#else", "#endif"].contains(where: { isDirective(line, $0) }) {
                for index in lineStart..<lineEnd where bytes[index] != UInt8(ascii: "\r") {
                    result[index] = UInt8(ascii: " ")
                }
            }
            lineStart = lineEnd + 1
        }
        return result
    }

    private static func isDirective(_ line: ArraySlice<UInt8>, _ keyword: String) -> Bool {
        let keywordBytes = Array(keyword.utf8)
        guard line.starts(with: keywordBytes) else { return false }
        let next = line.dropFirst(keywordBytes.count).first
        return next == nil || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t") || next == UInt8(ascii: "(")
            || next == UInt8(ascii: "!") || next == UInt8(ascii: "/") || next == UInt8(ascii: "\r")
    }

    private static func makeDirectory() -> String? {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((base + "/herald-audit-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
        }
        guard made else { return nil }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
