// Parses many Swift files at once: the files go to swiftc in a few batches run side by side (one
// process per batch, since starting swiftc costs more than parsing a file), and each batch's JSON is
// decoded into the syntax model on the thread that waited for it.
import APNs
import Glibc
import Synchronization

/// A file that could not be turned into a syntax model, and why.
public struct ParseFailure: Error, Sendable, Equatable {
    public let path: String
    public let message: String
}

/// Parses Swift files into `SourceFile`s with the toolchain's compiler.
public struct SourceParser: Sendable {
    public let compiler: SwiftCompiler
    /// How many swiftc processes run at once.
    public let concurrency: Int

    public init(compiler: SwiftCompiler, concurrency: Int = SourceParser.defaultConcurrency) {
        self.compiler = compiler
        self.concurrency = max(1, concurrency)
    }

    /// The number of processors online.
    public static var defaultConcurrency: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Each file's model, or why it has none, in the order of `paths`.
    public func parse(_ paths: [String]) -> [Result<SourceFile, ParseFailure>] {
        guard !paths.isEmpty else { return [] }
        let batchCount = min(paths.count, concurrency * 2)
        let batches = (0..<batchCount).map { batch in Array(stride(from: batch, to: paths.count, by: batchCount)) }
        let results = Mutex([Result<SourceFile, ParseFailure>?](repeating: nil, count: paths.count))
        let next = Atomic(0)
        let workers = (0..<min(concurrency, batchCount)).map { _ in
            WorkerThread {
                while true {
                    let batch = next.add(1, ordering: .relaxed).oldValue
                    guard batch < batches.count else { return }
                    let indices = batches[batch]
                    let parsed = parseBatch(indices.map { paths[$0] })
                    results.withLock { results in
                        for (index, result) in zip(indices, parsed) { results[index] = result }
                    }
                }
            }
        }
        for worker in workers { worker.join() }
        return results.withLock { $0.map { $0 ?? .failure(ParseFailure(path: "", message: "not parsed")) } }
    }

    private func parseBatch(_ paths: [String]) -> [Result<SourceFile, ParseFailure>] {
        let inputs = paths.map(CompilerInput.init)
        defer { for input in inputs { input.removeCopy() } }
        do {
            let trees = try compiler.parseTrees(of: inputs.map(\.compilerPath))
            return zip(inputs, trees).map { input, tree in Self.model(input, tree: tree) }
        } catch {
            // One bad file should not hide the others: parse the batch's files one by one.
            guard inputs.count > 1 else { return [.failure(ParseFailure(path: paths[0], message: error.message))] }
            return inputs.map { input in parseOne(input) }
        }
    }

    private func parseOne(_ input: CompilerInput) -> Result<SourceFile, ParseFailure> {
        do {
            let trees = try compiler.parseTrees(of: [input.compilerPath])
            return Self.model(input, tree: trees[0])
        } catch {
            return .failure(ParseFailure(path: input.path, message: error.message))
        }
    }

    /// The model of one file from its parse-tree JSON and its text.
    static func model(_ input: CompilerInput, tree: [UInt8]) -> Result<SourceFile, ParseFailure> {
        let path = input.path
        let root: JSONValue
        do {
            root = try JSONValue(parsing: tree)
        } catch {
            return .failure(ParseFailure(path: path, message: "swiftc's parse tree could not be read: \(error)"))
        }
        guard let source = input.source else {
            return .failure(ParseFailure(path: path, message: "cannot read the file"))
        }
        var builder = SyntaxBuilder(text: SourceText(source), path: path)
        return .success(builder.sourceFile(root))
    }
}

/// Reads a whole file; nil when it cannot be opened or read.
func readFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            return nil
        }
        if count == 0 { return result }
        result += buffer[0..<count]
    }
}
