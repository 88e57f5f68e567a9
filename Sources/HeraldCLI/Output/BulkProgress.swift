import APNsClient
import Synchronization

/// A one-line progress display on standard error (a terminal): done, rate, failures, how far, ETA.
///
/// How far is a share of the input's lines: counted ahead when the reader can (`countLines`),
/// else estimated from the bytes read so far and marked `~`; with neither, the share of bytes
/// read, labelled so. Other output goes through `above` (or a context from `context(around:)`)
/// while the line is shown: the line is cleared first and drawn again after, so result lines and
/// reports never run into it.
///
/// Thread-safety: any thread (results print on the transport's loop, an interruption's message
/// on a signal queue); one lock orders the writes.
final class Progress: Sendable {
    /// What the input's size is known as.
    struct Total: Sendable, Equatable {
        /// Lines in the whole input, counted ahead.
        var lines: Int?
        /// Bytes in the whole input (a regular file).
        var bytes: Int?
    }

    /// How much of the input is read: lines and the bytes they took.
    struct Read: Sendable, Equatable {
        var lines: Int
        var bytes: Int
    }

    /// Clears the line the cursor is on: back to its start, erase to its end.
    static let clear = "\r\u{1B}[K"

    private struct State {
        /// The line on screen now, nil when none is.
        var shown: String?
        var lastDraw: ContinuousClock.Instant
        /// `finish` was called: nothing is drawn any more.
        var finished = false
    }

    private let total: Total
    /// Lines skipped ahead of the send (`--skip-lines`): not part of what is left to do.
    private let skipped: Int
    private let write: @Sendable (String) -> Void
    private let state: Mutex<State>

    /// Draws through `write` (standard error as it is, not wrapped by `context(around:)`).
    init(total: Total, skipped: Int, write: @escaping @Sendable (String) -> Void) {
        self.total = total
        self.skipped = skipped
        self.write = write
        state = Mutex(State(shown: nil, lastDraw: ContinuousClock.now - .seconds(1)))
    }

    /// Redraws the line at most every 200 ms. `metrics`, `refused` and `read` are only taken when
    /// it is (each takes a lock).
    func update(
        _ metrics: @autoclosure () -> MetricsSnapshot, refused: @autoclosure () -> Int,
        read: @autoclosure () -> (lines: Int, bytes: Int), started: ContinuousClock.Instant
    ) {
        let now = ContinuousClock.now
        guard state.withLock({ !$0.finished && now - $0.lastDraw >= .milliseconds(200) }) else { return }
        let metrics = metrics()
        let refused = refused()
        let seconds = (now - started).secondsAsDouble
        let done = metrics.succeeded + metrics.failed
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var line = "\(done) sent, \(decimal(rate, places: 0))/s, \(metrics.failed + refused) failed"
        let read = read()
        if let share = Self.share(
            done: done + refused, of: total, skipped: skipped, read: Read(lines: read.lines, bytes: read.bytes))
        {
            line += ", " + share.label
            if share.fraction > 0, share.fraction < 1 {
                line += ", ETA \(decimal(seconds / share.fraction - seconds, places: 0)) s"
            }
        }
        state.withLock { state in
            guard !state.finished else { return }
            state.lastDraw = now
            state.shown = line
            write(Self.clear + line)
        }
    }

    /// How far a send is: `done` lines (sent and answered, or refused) of the input's, less the
    /// skipped ones. Of counted lines when `total.lines` is known; else of lines estimated from the
    /// bytes per line read so far (marked `~`); else of bytes read, labelled. Nil without a total.
    static func share(done: Int, of total: Total, skipped: Int, read: Read) -> (fraction: Double, label: String)? {
        if let lines = total.lines {
            let left = lines - skipped
            guard left > 0 else { return nil }
            let fraction = min(1, Double(done) / Double(left))
            return (fraction, "\(decimal(fraction * 100, places: 0))% of \(left) lines")
        }
        guard let bytes = total.bytes, bytes > 0, read.bytes > 0 else { return nil }
        guard read.lines > 0 else {
            let fraction = min(1, Double(read.bytes) / Double(bytes))
            return (fraction, "\(decimal(fraction * 100, places: 0))% of bytes read")
        }
        // Lines in the input if the lines still to read are as long as those read.
        let estimated = max(read.lines, Int((Double(read.lines) * Double(bytes) / Double(read.bytes)).rounded()))
        let left = estimated - skipped
        guard left > 0 else { return nil }
        let fraction = min(1, Double(done) / Double(left))
        return (fraction, "~\(decimal(fraction * 100, places: 0))% of ~\(left) lines")
    }

    /// Writes other output with the progress line out of its way: cleared before, drawn again after.
    func above(_ output: () -> Void) {
        state.withLock { state in
            guard let shown = state.shown else {
                output()
                return
            }
            write(Self.clear)
            output()
            write(Self.clear + shown)
        }
    }

    /// `context` with its output streams written above the progress line.
    func context(around context: CommandContext) -> CommandContext {
        var wrapped = context
        let standardOutput = context.standardOutput
        let standardError = context.standardError
        wrapped.standardOutput = { [self] text in above { standardOutput(text) } }
        wrapped.standardError = { [self] text in above { standardError(text) } }
        return wrapped
    }

    /// Clears the line for good (before the summary).
    func finish() {
        state.withLock { state in
            if state.shown != nil { write(Self.clear) }
            state.shown = nil
            state.finished = true
        }
    }
}
