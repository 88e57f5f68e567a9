// One background wake with a fetch completion handler (DEVICE-SEMANTICS.md 7):
//
//   woken --handler(result) within 30 s--> finished
//     \--30 s without a call--> the app is terminated; the missed call counts against its budget
//   finished --handler(...)--> ignored and reported
//
// Apple: the handler must be called "or your app will be terminated", within 30 seconds; apps that use much
// power are woken less. How much less is not documented: a missed handler counts as one more wake.

/// `UIBackgroundFetchResult`: what the app tells the fetch completion handler.
public enum BackgroundFetchResult: String, Sendable, Hashable {
    case newData
    case noData
    case failed
}

/// The state of one wake; the handler and the deadline both end it, once.
final class FetchCompletionSession {
    /// Weak: the device's scheduled events hold the session until its deadline, and the app holds the
    /// device's context that holds those events (and the extension that holds the handler); a strong
    /// app here made a cycle, so a device with a pending deadline was never freed. An app gone before
    /// the deadline (reinstalled, or its device dropped) ends the session with nothing to do.
    private weak var owner: InstalledApp?
    let notificationID: String
    let deadline: DeviceInstant
    private var isFinished = false
    private var timedOut = false
    private var calls = 0

    /// Apple: "up to 30 seconds of wall-clock time".
    static let timeBudget: Double = 30

    init(app: InstalledApp, notificationID: String, startedAt start: DeviceInstant) {
        self.owner = app
        self.notificationID = notificationID
        self.deadline = start + Self.timeBudget
    }

    /// The handler the app receives.
    func handler(_ result: BackgroundFetchResult) {
        guard let app = owner else { return }
        let context = app.context
        // A call made after the deadline comes after the termination the device already carried out.
        context.runDueEvents()
        calls += 1
        guard !isFinished else {
            let why = timedOut && calls == 1 ? "after the 30 seconds ran out" : "again (call \(calls))"
            context.record(
                .dropped, .backgroundFetchHandler, "fetch completion handler called \(why) with .\(result): ignored",
                app: app.bundleID, notification: notificationID)
            return
        }
        isFinished = true
        context.record(
            .appWoken, .backgroundFetchHandler,
            "fetch completion handler called with .\(result) in time", app: app.bundleID,
            notification: notificationID)
    }

    /// Runs at the deadline.
    func expire() {
        guard !isFinished else { return }
        guard let app = owner else { return }
        let context = app.context
        isFinished = true
        timedOut = true
        app.terminatedForMissedFetchHandler()
        context.record(
            .dropped, .backgroundFetchHandler,
            "the fetch completion handler was not called within 30 seconds: the app is terminated "
                + "(\(app.state.rawValue))", app: app.bundleID, notification: notificationID, at: deadline)
        context.record(
            .dropped, .backgroundFetchPenalty, "the missed call counts as one more wake against the background budget",
            app: app.bundleID, notification: notificationID, at: deadline)
    }
}
