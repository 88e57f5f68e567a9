import APNs
import APNsClient
import HTTP2

/// `herald send --requests`: streams NDJSON requests through the client with bounded concurrency,
/// in bounded memory whatever the number of lines. Every line is accounted for: sent and
/// succeeded, sent and failed, or refused before sending (`invalid`).
struct BulkSend {
    let options: SendOptions
    let context: CommandContext

    func run() async -> Int32 {
        guard case .requests(let path) = options.payload else { return ExitStatus.usage }
        let reader: any LineReader
        let client: APNsClient
        do {
            reader = try context.openLines(path)
        } catch {
            context.standardError("herald send: --requests: \(error)\n")
            return ExitStatus.failure
        }
        do {
            // One loop: sending and printing on one thread, with no hop between threads per
            // notification (measured faster than spreading over loops); decoding is on another.
            client = try Sender(options: options, context: context).makeClient(defaultConnections: 4, loopCount: 1)
        } catch {
            context.standardError("herald send: \(error)\n")
            return ExitStatus.failure
        }
        let totalBytes = reader.totalBytes  // read before the reader goes to the decoding thread
        let requests = BulkRequests(
            reader: reader, path: path, context: context,
            decoder: BulkRequestDecoder(
                topic: options.topic, pushType: options.pushType, priority: options.priority,
                expiration: options.expiration, collapseID: options.collapseID),
            assignIDs: !options.dryRun)
        // Result lines go out in blocks of up to 64 KiB (one write each), not one write per line.
        let output = BufferedOutput(context.standardOutput)
        var bufferedContext = context
        bufferedContext.standardOutput = { output.write($0) }
        let printer = ResultPrinter(options: options, context: bufferedContext)
        let progress =
            context.standardErrorIsTerminal && !options.json
            ? Progress(totalBytes: totalBytes, bytesConsumed: { requests.bytesConsumed }) : nil
        let started = ContinuousClock.now
        if options.dryRun {
            for notification in requests {
                printer.print(notification, .success(APNsResponse(apnsID: notification.apnsID?.value ?? "-", uniqueID: nil)))
            }
        } else {
            // The bulk path: lines are read and decoded on a thread of their own (BulkRequests),
            // sent and printed on the transport's loop, with no task per notification.
            await client.sendEach(concurrency: options.concurrency ?? 1000, next: requests.next) { notification, result in
                printer.print(notification, result)
                progress?.update(client.metrics, invalid: requests.invalid, started: started)
                requests.retire(consume notification)  // freed on the decoding thread
            }
        }
        requests.stop()
        progress?.finish()
        var metrics = client.metrics
        await client.shutdown()
        if requests.invalid > 0 {
            metrics.failed += requests.invalid
            metrics.failedByReason["invalid request line", default: 0] += requests.invalid
        }
        let elapsed = ContinuousClock.now - started
        printer.summary(metrics, elapsedSeconds: elapsed.secondsAsDouble)
        output.flush()  // the results and, with --json, the summary
        if let readError = requests.readError {
            context.standardError("herald send: --requests: \(readError); the lines before it were sent\n")
            return ExitStatus.failure
        }
        return metrics.failed == 0 ? ExitStatus.success : ExitStatus.failure
    }
}

/// A one-line progress display on standard error (a terminal): done, rate, failures, ETA.
final class Progress {
    private let totalBytes: Int?
    private let bytesConsumed: () -> Int
    private var lastDraw = ContinuousClock.now - .seconds(1)

    init(totalBytes: Int?, bytesConsumed: @escaping () -> Int) {
        self.totalBytes = totalBytes
        self.bytesConsumed = bytesConsumed
    }

    /// `metrics` and `invalid` are only taken when the line is redrawn (each takes locks).
    func update(
        _ metrics: @autoclosure () -> MetricsSnapshot, invalid: @autoclosure () -> Int, started: ContinuousClock.Instant
    ) {
        let now = ContinuousClock.now
        guard now - lastDraw >= .milliseconds(200) else { return }
        lastDraw = now
        let metrics = metrics()
        let elapsed = now - started
        let seconds = elapsed.secondsAsDouble
        let done = metrics.succeeded + metrics.failed
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = "\r\u{1B}[2K\(done) sent, \(decimal(rate, places: 0))/s, \(metrics.failed + invalid()) failed"
        let consumed = bytesConsumed()
        if let total = totalBytes, total > 0, consumed > 0 {
            let fraction = min(1, Double(consumed) / Double(total))
            line += ", \(decimal(fraction * 100, places: 0))%"
            if fraction > 0, fraction < 1 { line += ", ETA \(decimal(seconds / fraction - seconds, places: 0)) s" }
        }
        SystemIO.write(fd: 2, line)
    }

    func finish() {
        SystemIO.write(fd: 2, "\r\u{1B}[2K")
    }
}
