import APNs

/// The decoding thread's work: lines into batches of notifications, with the reports of refused
/// lines and new lint findings placed among them.
final class LineDecoding: @unchecked Sendable {
    // SAFETY: handed to the decoding thread at creation and used only there from then on (the
    // reader included: its creator no longer touches it).
    private let reader: any LineReader
    private let decoder: NDJSONRequestDecoder
    private let skipLines: Int
    private let handover: BatchHandover
    private let graveyard: NotificationGraveyard

    init(
        reader: any LineReader, decoder: NDJSONRequestDecoder, skipLines: Int, handover: BatchHandover,
        graveyard: NotificationGraveyard
    ) {
        self.reader = reader
        self.decoder = decoder
        self.skipLines = skipLines
        self.handover = handover
        self.graveyard = graveyard
    }

    func run() {
        defer {
            graveyard.close()
            handover.decodingFinished()
        }
        var number = 0
        var batch = BatchHandover.Batch(reservingCapacity: DecodedRequestStream.batchSize)
        var sweeper = NotificationGraveyard.Sweeper()
        var readError: LineReaderError?
        do throws(LineReaderError) {
            while number < skipLines, try reader.withNextLine({ _ in }) != .end { number += 1 }
        } catch {
            readError = error
        }
        while readError == nil {
            sweeper.freeOne(into: graveyard)
            var outcome = LineOutcome.blank
            do throws(LineReaderError) {
                // Decoded where the line lies in the reader's buffer (no copy of it per line).
                let read = try reader.withNextLine { line in outcome = decode(line, number: number + 1) }
                if read == .end { break }
                if read == .tooLong {
                    outcome = .refused(
                        "longer than \(reader.maximumLineBytes) bytes, skipped (a request line is a few kilobytes)",
                        byLint: false)
                }
            } catch {
                readError = error
                break
            }
            number += 1
            batch.throughLine = number
            switch consume outcome {
            case .blank:
                continue
            case .refused(let message, let byLint):
                batch.reports.append(
                    .init(
                        before: batch.notifications.count,
                        report: .init(line: number, kind: .refused(message, byLint: byLint))))
                continue
            case .notification(let notification, let lint, let lintIsNew):
                // The notification is bound from the consumed outcome: moved into the batch, not copied.
                if lintIsNew, !lint.findings.isEmpty {
                    batch.reports.append(
                        .init(
                            before: batch.notifications.count, report: .init(line: number, kind: .lint(lint.findings))))
                }
                batch.tags.append(.init(line: number, warned: !lint.findings.isEmpty))
                batch.notifications.append(notification)
            }
            if batch.notifications.count == DecodedRequestStream.batchSize {
                publish(readError: nil, linesRead: number)
                batch.nextReportAt = batch.reports.first?.before ?? -1
                guard handover.put(batch) else { return }
                sweeper.collect(from: graveyard)
                batch = handover.spareBatch() ?? BatchHandover.Batch(reservingCapacity: DecodedRequestStream.batchSize)
            }
        }
        publish(readError: readError, linesRead: number)
        batch.last = true
        batch.nextReportAt = batch.reports.first?.before ?? -1
        _ = handover.put(batch)
    }

    /// What a line gave.
    private enum LineOutcome {
        /// Only spaces and tabs: skipped.
        case blank
        /// Not sent: why.
        case refused(String, byLint: Bool)
        /// With an apns-id when the decoder assigns them; the lint verdict, and whether it is new.
        case notification(Notification, RequestLint, lintIsNew: Bool)
    }

    private func decode(_ line: UnsafeBufferPointer<UInt8>, number: Int) -> LineOutcome {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .blank }
        do throws(NDJSONRequestDecoder.LineError) {
            let (notification, lint, lintIsNew) = try decoder.decodeParts(line, number: number)
            return .notification(notification, lint, lintIsNew: lintIsNew)
        } catch {
            return .refused(error.message, byLint: error.isLintError)
        }
    }

    private func publish(readError: LineReaderError?, linesRead: Int) {
        let consumed = reader.bytesConsumed
        handover.progress.withLock { progress in
            progress.readError = readError
            progress.bytesConsumed = consumed
            progress.linesRead = linesRead
        }
    }
}
