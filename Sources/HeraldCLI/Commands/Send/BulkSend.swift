import APNs
import APNsClient

/// `herald send --requests`: wires a requests file (or standard input) and the terminal to the
/// library's bulk pipeline (`DecodedRequestStream` into `APNsClient.sendEach`). Every line is
/// accounted for: sent and succeeded, sent and failed, or refused before sending (malformed, over
/// the line limit, or a lint error without --force), each refusal with its line number.
struct BulkSend {
    let options: SendOptions
    let context: CommandContext

    func run() async -> Int32 {
        guard case .requests(let path) = options.payload else { return ExitStatus.usage }
        let reader: any LineReader
        do {
            reader = try context.openLines(path)
        } catch {
            context.standardError("herald send: --requests: \(error)\n")
            return ExitStatus.failure
        }
        var client: APNsClient?
        if !options.dryRun {
            do {
                // One loop: sending and printing on one thread, with no hop between threads per
                // notification; decoding is on another.
                client = try Sender(options: options, context: context).makeClient(defaultConnections: 4, loopCount: 1)
            } catch {
                context.standardError("herald send: \(error)\n")
                return ExitStatus.failure
            }
        }
        // On a terminal, a progress line, with everything else printed above it (`display`). Its
        // total is taken before the reader goes to the decoding thread.
        let progress =
            !options.dryRun && context.standardErrorIsTerminal && !options.json
            ? Progress(
                total: Progress.Total(lines: reader.countLines(), bytes: reader.totalBytes),
                skipped: options.skipLines ?? 0, write: context.standardError) : nil
        let display = progress?.context(around: context) ?? context
        var decoder = NDJSONRequestDecoder(
            topic: options.topic, pushType: options.pushType, priority: options.priority,
            expiration: options.expiration, collapseID: options.collapseID, refuseLintErrors: !options.force,
            now: context.now())
        decoder.assignIDs = !options.dryRun
        if case .token = options.credentials { decoder.requiresTopic = true }
        let reports = LineReportPrinter(command: "herald send", path: path, context: display)
        let requests = DecodedRequestStream(
            reader: reader, decoder: decoder, skipLines: options.skipLines ?? 0, report: reports.print)
        display.onInterrupt { [interruption = requests.interruption, display] in
            interruption.interrupt()
            display.standardError(
                "herald send: interrupted: no more lines are read; waiting for the notifications in flight "
                    + "(Ctrl-C again to exit at once)\n")
        }
        // Result lines go out in blocks of up to 64 KiB (one write each), not one write per line.
        let output = BufferedOutput(display.standardOutput)
        var bufferedContext = display
        bufferedContext.standardOutput = { output.write($0) }
        var status: Int32
        if let client {
            status = await send(requests, client: client, context: bufferedContext, output: output, progress: progress)
        } else {
            status = BulkDryRun(options: options, context: bufferedContext).run(requests)
        }
        // Interrupted, the input may never end (a pipe): the decoding thread is not waited for.
        requests.stop(waitForDecoding: !requests.interruption.isSet)
        output.flush()
        if requests.warned > 0 {
            let verb = options.dryRun ? "would be sent" : "sent"
            display.standardError("lint: \(requests.warned) \(verb) with findings (each reported once, above)\n")
        }
        if let readError = requests.readError {
            display.standardError(
                "herald send: --requests: \(readError); every line before line \(requests.linesAccountedFor + 1) is accounted for\n"
            )
            status = ExitStatus.failure
        }
        if requests.interruption.isSet {
            let resume = requests.linesAccountedFor
            display.standardError(
                "herald send: interrupted; lines 1-\(resume) are accounted for: resume with --skip-lines \(resume)\n")
            status = ExitStatus.failure
        }
        return status
    }

    private func send(
        _ requests: DecodedRequestStream, client: APNsClient, context: CommandContext, output: BufferedOutput,
        progress: Progress?
    ) async -> Int32 {
        let printer = ResultPrinter(options: options, context: context)
        let started = ContinuousClock.now
        // Lines are read, decoded and linted on a thread of their own (DecodedRequestStream), sent
        // and printed on the transport's loop, with no task per notification.
        await client.sendEach(concurrency: options.concurrency ?? 1000, next: requests.next) { notification, result in
            printer.print(notification, result)
            progress?.update(client.metrics, refused: requests.refused, read: requests.readSoFar, started: started)
            requests.retire(consume notification)  // freed on the decoding thread
        }
        // Results still buffered go out above the line, which then goes for good.
        output.flush()
        progress?.finish()
        var metrics = client.metrics
        await client.shutdown()
        let malformed = requests.refused - requests.refusedByLint
        if malformed > 0 {
            metrics.failed += malformed
            metrics.failedByReason["invalid request line", default: 0] += malformed
        }
        if requests.refusedByLint > 0 {
            metrics.failed += requests.refusedByLint
            metrics.failedByReason["refused by lint", default: 0] += requests.refusedByLint
        }
        let elapsed = ContinuousClock.now - started
        printer.summary(metrics, elapsedSeconds: elapsed.secondsAsDouble)
        return metrics.failed == 0 ? ExitStatus.success : ExitStatus.failure
    }
}

/// Prints a bulk stream's line reports on standard error: a refused line, or the lint findings of
/// the first line with a payload and headers (not repeated for later lines with the same ones).
struct LineReportPrinter: Sendable {
    let command: String
    let path: String
    let context: CommandContext

    func print(_ report: LineReport) {
        let prefix = "\(command): --requests \(path), line \(report.line): "
        switch report.kind {
        case .refused(let message, _):
            context.standardError(prefix + message + "\n")
        case .lint(let findings):
            var text = ""
            for finding in findings { text += prefix + finding.description.escapingInvisibleCharacters() + "\n" }
            text += "\(command): --requests \(path): not repeated for later lines with the same payload and headers\n"
            context.standardError(text)
        }
    }
}
