import APNsClient

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
