// The toolchain's Swift compiler, run for its parse tree: `swiftc -frontend -dump-parse
// -dump-ast-format json -primary-file A -primary-file B ...` prints one JSON document per primary
// file, back to back, without type checking (so no iOS SDK is needed).
//
// Output goes to temporary files rather than pipes: a batch's dump is megabytes, and reading two pipes
// without a thread each would deadlock once the compiler fills the one not being read.
import Glibc

/// Why the audit could not get a parse tree.
public struct SwiftCompilerError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// A `swiftc` executable and how to run it for parse trees.
public struct SwiftCompiler: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `swiftc` from `$HERALD_SWIFTC`, else the first on `$PATH`; an error saying what was looked at.
    public static func find(environment: [String: String]) throws(SwiftCompilerError) -> SwiftCompiler {
        if let given = environment["HERALD_SWIFTC"], !given.isEmpty {
            guard access(given, X_OK) == 0 else {
                throw SwiftCompilerError("HERALD_SWIFTC is \(given), which is not an executable file")
            }
            return SwiftCompiler(path: given)
        }
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in directories where !directory.isEmpty {
            let candidate = directory + "/swiftc"
            if access(candidate, X_OK) == 0 { return SwiftCompiler(path: candidate) }
        }
        throw SwiftCompilerError(
            "swiftc not found on PATH (\(directories.joined(separator: ":"))): 'herald audit' parses Swift with the "
                + "toolchain's compiler; install a Swift toolchain or set HERALD_SWIFTC to its swiftc")
    }

    /// The parse-tree JSON of each of `files`, in order; an error names the files when swiftc fails.
    public func parseTrees(of files: [String]) throws(SwiftCompilerError) -> [[UInt8]] {
        var arguments = ["-frontend", "-dump-parse", "-dump-ast-format", "json"]
        for file in files { arguments += ["-primary-file", file] }
        let (status, output, errors) = try run(arguments)
        let documents = JSONDocuments.split(output)
        guard documents.count == files.count else {
            let message = String(decoding: errors.prefix(2000), as: UTF8.self)
            let which = files.count == 1 ? files[0] : "\(files.count) files from \(files[0])"
            throw SwiftCompilerError(
                "\(path) could not parse \(which) (exit status \(status), \(documents.count) parse trees): \(message)")
        }
        return documents
    }

    private func run(_ arguments: [String]) throws(SwiftCompilerError) -> (Int32, [UInt8], [UInt8]) {
        let outputFile = try TemporaryFile()
        defer { outputFile.remove() }
        let errorFile = try TemporaryFile()
        defer { errorFile.remove() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outputFile.descriptor, 1)
        posix_spawn_file_actions_adddup2(&actions, errorFile.descriptor, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard result == 0 else {
            throw SwiftCompilerError("cannot run \(path): \(String(cString: strerror(result)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw SwiftCompilerError("waitpid for \(path): \(String(cString: strerror(errno)))")
            }
        }
        // WIFEXITED/WEXITSTATUS are macros Swift does not import.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitStatus, try outputFile.contents(), try errorFile.contents())
    }
}

/// A file in the temporary directory, open for the child to write and the parent to read back.
private struct TemporaryFile {
    let path: String
    let descriptor: Int32

    init() throws(SwiftCompilerError) {
        let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array((directory + "/herald-audit-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else {
            throw SwiftCompilerError(
                "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        // Only the child's standard output or error is this file; no other process inherits it.
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
        self.path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func contents() throws(SwiftCompilerError) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SwiftCompilerError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return result }
            result += buffer[0..<count]
            offset += off_t(count)
        }
    }

    func remove() {
        close(descriptor)
        unlink(path)
    }
}
