// One run of a notification service extension for one request (DEVICE-SEMANTICS.md 3.4):
//
//   running --handler(content)--------------------------> finished (content or original shown)
//      \--30 s: serviceExtensionTimeWillExpire()--+--handler inside it--> finished
//                                                 \--no call------------> finished (original shown)
//   finished --handler(...)--> ignored and reported

/// The state of one extension run; the content handler and the deadline both end it, once.
final class ServiceExtensionSession {
    /// Weak: the device's scheduled events hold the session until its deadline, and the app holds the
    /// device's context that holds those events (and the extension that holds the handler); a strong
    /// app here made a cycle, so a device with a pending deadline was never freed. An app gone before
    /// the deadline (reinstalled, or its device dropped) ends the session with nothing to do.
    private weak var owner: InstalledApp?
    let request: NotificationRequest
    let pushType: String
    let start: DeviceInstant
    let deadline: DeviceInstant
    private(set) var isFinished = false
    private var timedOut = false
    private var isExpiring = false
    private var handlerCalls = 0

    /// Apple: "no more than 30 seconds".
    static let timeBudget: Double = 30

    init(app: InstalledApp, request: NotificationRequest, pushType: String, startedAt start: DeviceInstant) {
        self.owner = app
        self.request = request
        self.pushType = pushType
        self.start = start
        self.deadline = start + Self.timeBudget
    }

    /// The handler the extension receives.
    func handler(_ content: NotificationContent) {
        guard let app = owner else { return }
        let context = app.context
        // A call made after the deadline comes after the expiry the device already carried out.
        if !isExpiring { context.runDueEvents() }
        handlerCalls += 1
        guard !isFinished else {
            let why = timedOut && handlerCalls == 1 ? "after the 30 seconds ran out" : "again (call \(handlerCalls))"
            context.record(
                .serviceExtension, .serviceExtensionHandlerOnce, "content handler called \(why): ignored",
                app: app.bundleID,
                notification: request.identifier)
            return
        }
        isFinished = true
        finish(with: content)
    }

    /// Runs at the deadline.
    func expire() {
        guard !isFinished else { return }
        guard let app = owner else { return }
        let context = app.context
        context.record(
            .serviceExtension, .serviceExtensionTimeLimit,
            "30 seconds passed without the content handler: serviceExtensionTimeWillExpire called",
            app: app.bundleID, notification: request.identifier, at: deadline)
        isExpiring = true
        app.serviceExtension?.serviceExtensionTimeWillExpire()
        isExpiring = false
        guard !isFinished else { return }
        isFinished = true
        timedOut = true
        context.record(
            .serviceExtension, .serviceExtensionTimeLimit,
            "the content handler was never called: the original content is shown", app: app.bundleID,
            notification: request.identifier, at: deadline)
        app.present(request, at: deadline)
    }

    private func finish(with content: NotificationContent) {
        guard let app = owner else { return }
        let context = app.context
        let id = request.identifier
        if content.isEmpty, app.configuration.entitlements.filtering, pushType == "alert" {
            context.record(
                .notShown, .serviceExtensionFiltered,
                "the extension handed back empty content with the filtering entitlement: suppressed",
                app: app.bundleID, notification: id)
            return
        }
        guard content.hasAlertText else {
            context.record(
                .serviceExtension, .serviceExtensionNoAlertText,
                "the extension handed back content without title, subtitle or body: the original is shown",
                app: app.bundleID, notification: id)
            app.present(request, at: context.now)
            return
        }
        context.record(
            .serviceExtension, .serviceExtensionModified,
            "the extension handed back new content after \(seconds(context.now - start))",
            app: app.bundleID, notification: id)
        var modified = request
        modified.content = content
        app.present(modified, at: context.now)
    }
}

/// `12 s`, `0.5 s`.
func seconds(_ value: Double) -> String {
    value == value.rounded() && value.magnitude < 1e15 ? "\(Int(value)) s" : "\(value) s"
}
