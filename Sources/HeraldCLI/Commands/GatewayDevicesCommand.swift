import APNs
import APNsClient
import Gateway
import Glibc
import HTTP2

/// `herald gateway devices import FILE`: `GatewayDeviceImport` over the data directory's store or
/// the `--database` one, which take turns with running gateways.
struct GatewayDevicesCommand {
    let dataDirectory: String?
    let database: GatewayDatabase?
    let request: GatewayOptions.ImportDevices
    let context: CommandContext

    /// Refused lines shown at most; the summary counts them all.
    static let shownRefusals = 100

    func run() async -> Int32 {
        guard
            let store = GatewayKeyCommand.openStore(
                dataDirectory: dataDirectory, database: database, context: context)
        else { return ExitStatus.failure }
        let reader: any LineReader
        do {
            reader = try context.openLines(request.path)
        } catch {
            context.standardError("herald gateway: \(error)\n")
            return ExitStatus.failure
        }
        let importer = GatewayDeviceImport(bundleID: request.bundleID, environment: request.environment)
        var shown = 0
        let report = { (refusal: GatewayDeviceImport.Refusal) in
            shown += 1
            if shown <= Self.shownRefusals {
                context.standardError("herald gateway: \(refusal)\n")
            } else if shown == Self.shownRefusals + 1 {
                context.standardError("herald gateway: more lines refused; the summary counts them\n")
            }
        }
        var input = reader
        var spool: UnsafeMutablePointer<FILE>?
        defer { if let spool { fclose(spool) } }
        if request.strict {
            // Every line is checked before any is written. Standard input cannot be read twice: the
            // check copies it to an unnamed temporary file, read again for the import.
            if request.path == "-" {
                guard let file = tmpfile() else {
                    context.standardError("herald gateway: cannot make a temporary file for --strict: \(errnoText())\n")
                    return ExitStatus.failure
                }
                spool = file
            }
            let checked: GatewayDeviceImport.Summary
            do {
                checked = try importer.check(
                    spool.map { SpoolingLineReader(reader, to: $0) } ?? reader, onRefusal: report)
            } catch {
                context.standardError("herald gateway: \(error)\n")
                return ExitStatus.failure
            }
            guard checked.refused == 0 else {
                context.standardError(
                    "herald gateway: nothing imported (--strict): \(checked.refused) of \(checked.lines) lines refused\n"
                )
                return ExitStatus.failure
            }
            do {
                if let spool {
                    guard fflush(spool) == 0 else { throw InputError("cannot copy standard input: \(errnoText())") }
                    rewind(spool)
                    input = FileLineReader(fd: fileno(spool), name: "standard input (copied)", ownsDescriptor: false)
                } else {
                    input = try context.openLines(request.path)
                }
            } catch {
                context.standardError("herald gateway: \(error)\n")
                return ExitStatus.failure
            }
        }
        let summary: GatewayDeviceImport.Summary
        do {
            summary = try await importer.run(input, into: store, now: context.nowMilliseconds(), onRefusal: report)
        } catch {
            context.standardError("herald gateway: \(error)\n")
            return ExitStatus.failure
        }
        context.standardOutput(Self.describe(summary))
        return summary.refused == 0 ? ExitStatus.success : ExitStatus.failure
    }

    /// `imported 999998 registrations in 100 transactions; 2 of 1000000 lines refused`, then each app.
    static func describe(_ summary: GatewayDeviceImport.Summary) -> String {
        var text =
            "herald gateway: imported \(summary.imported) registrations in \(summary.batches) transactions; "
            + "\(summary.refused) of \(summary.lines) lines refused\n"
        for (bundleID, after) in summary.devicesAfter.sorted(by: { $0.key < $1.key }) {
            let before = summary.devicesBefore[bundleID] ?? 0
            text += "  \(bundleID): \(after) devices in the store, \(after - before) more than before\n"
        }
        return text
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Lends the lines of another reader and writes each (with its newline) to a file as it goes.
private final class SpoolingLineReader: LineReader {
    private let inner: any LineReader
    private let file: UnsafeMutablePointer<FILE>

    init(_ inner: any LineReader, to file: UnsafeMutablePointer<FILE>) {
        self.inner = inner
        self.file = file
    }

    var bytesConsumed: Int { inner.bytesConsumed }
    var totalBytes: Int? { inner.totalBytes }
    var maximumLineBytes: Int { inner.maximumLineBytes }

    func withNextLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(LineReaderError) -> LineRead {
        var failed = false
        let read = try inner.withNextLine { line in
            if !line.isEmpty, fwrite(line.baseAddress, 1, line.count, file) != line.count { failed = true }
            if fputc(0x0A, file) == EOF { failed = true }
            body(line)
        }
        if failed { throw LineReaderError("cannot copy standard input to a temporary file") }
        return read
    }
}
