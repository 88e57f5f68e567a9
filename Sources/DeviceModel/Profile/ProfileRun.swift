import APNs

/// Plays a `DeviceProfile` on a model device: installs the app as the profile describes, then runs the
/// script a step at a time. Steps that wait (`wait`, `wait-for-push`) pause the run and say what they wait
/// for: `runOffline()` answers them on a virtual clock; the emulator adapter answers them with real time and
/// the pushes it receives.
///
/// Lifecycle: owns its device. Thread-safety: not thread-safe; one task plays it.
public final class ProfileRun {
    public let profile: DeviceProfile
    public let device: Device
    public let app: InstalledApp
    /// The index of the next step to run.
    public private(set) var nextStep = 0

    /// What a paused run waits for.
    public enum Pause: Sendable, Hashable {
        /// `count` pushes (from the emulator), for at most `timeout` seconds.
        case pushes(count: Int, timeout: Double)
        /// The clock to move on by this many seconds.
        case time(Double)
        /// Nothing: the script is over.
        case finished
    }

    /// Builds the device and installs the app (delegate, categories, service extension); nothing of the script
    /// runs yet, so a driver can set `device.tokenIssuer` first.
    public init(_ profile: DeviceProfile, clock: any DeviceClock = VirtualClock()) {
        self.profile = profile
        device = Device(
            clock: clock, user: profile.user, configuration: profile.deviceConfiguration, seed: profile.seed)
        device.isLocked = profile.locked
        app = device.install(profile.app)
        configureApp()
    }

    /// What the app sets up when it first runs: its delegate, categories and service extension (again after a
    /// reinstall, which leaves a fresh notification center).
    private func configureApp() {
        if let choice = profile.delegate {
            let willPresent = choice.willPresent
            app.notificationCenter.delegate = NotificationCenterDelegate(
                willPresent: willPresent.map { options in { _ in options } },
                didReceive: choice.didReceive ? { _ in } : nil)
        }
        if let choice = profile.serviceExtension {
            app.serviceExtension = ProfileServiceExtension(choice, device: device)
        }
        if !profile.categories.isEmpty { app.notificationCenter.setNotificationCategories(profile.categories) }
    }

    /// Runs steps until one that waits, or the end. A step that cannot run (a tap with no notification to
    /// tap, a push before the app has a token) throws, naming the step.
    public func runUntilPause() throws(FieldError) -> Pause {
        while nextStep < profile.script.count {
            let index = nextStep
            nextStep += 1
            if let pause = try run(profile.script[index], field: "script[\(index)]") { return pause }
        }
        return .finished
    }

    /// Plays the whole script on the device's virtual clock: a `wait` advances it; pushes come only from
    /// `push` steps, so a `wait-for-push` step is an error.
    public func runOffline() throws(FieldError) {
        while true {
            switch try runUntilPause() {
            case .finished:
                device.runDueEvents()
                return
            case .time(let seconds):
                device.advance(by: seconds)
            case .pushes:
                throw FieldError(
                    field: "script[\(nextStep - 1)].wait-for-push",
                    message: "needs an emulator (herald device run --endpoint URL); without one, use push steps")
            }
        }
    }

    private func run(_ step: ProfileStep, field: String) throws(FieldError) -> Pause? {
        device.runDueEvents()
        switch step {
        case .launch:
            app.launch()
            for type in profile.pushToStartTypes { app.pushToStartToken(forAttributesType: type) }
        case .moveToBackground: app.moveToBackground()
        case .moveToForeground: app.moveToForeground()
        case .forceQuit: app.forceQuit()
        case .lock: device.isLocked = true
        case .unlock: device.isLocked = false
        case .requestAuthorization(let options): app.notificationCenter.requestAuthorization(options: options)
        case .register: app.registerForRemoteNotifications()
        case .rotateTokens(let reason): device.rotateTokens(reason)
        case .reinstall:
            app.reinstall()
            configureApp()
        case .focus(let focus): device.focus = focus
        case .addLocationRequest(let identifier, let content, let trigger):
            try? app.notificationCenter.add(
                NotificationRequest(identifier: identifier, content: content, trigger: .location(trigger)))
        case .move(let coordinate): device.move(to: coordinate)
        case .locationAuthorization(let authorization): app.locationAuthorization = authorization
        case .scheduledSummary(let times):
            device.isScheduledSummaryOn = true
            device.scheduledSummaryTimes = times
            app.notificationCenter.userChangesSettings { $0.scheduledDeliverySetting = .enabled }
        case .waitForPush(let count, let timeout): return .pushes(count: count, timeout: timeout)
        case .wait(let seconds): return .time(seconds)
        case .push(let push): device.receive(try remotePush(push, field: field + ".push"))
        case .open(let notification):
            app.userOpens(notification: try notificationID(notification, field: field + ".open"))
        case .dismiss(let notification):
            app.userDismisses(notification: try notificationID(notification, field: field + ".dismiss"))
        case .chooseAction(let action, let text, let notification):
            app.userChooses(
                action: action, onNotification: try notificationID(notification, field: field + ".tap-action"),
                text: text)
        case .addLocal(let identifier, let content, let after, let repeats):
            var trigger: NotificationTrigger?
            if let after {
                do {
                    trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: after, repeats: repeats))
                } catch {
                    throw FieldError(field: field + ".add-local.after", message: error.message)
                }
            }
            try? app.notificationCenter.add(
                NotificationRequest(identifier: identifier, content: content, trigger: trigger))
        case .startActivity(let type, let attributes, let contentState):
            _ = try? app.requestActivity(attributesType: type, attributes: attributes, contentState: contentState)
        case .startChannelActivity(let type, let attributes, let contentState, let channel):
            _ = try? app.requestActivity(
                attributesType: type, attributes: attributes, contentState: contentState, pushType: .channel(channel))
        case .endActivity(let immediately):
            guard let activity = app.activities.last else {
                throw FieldError(field: field + ".end-activity", message: "the app has no activity to end")
            }
            app.endActivity(activity, dismissalPolicy: immediately ? .immediate : .default)
        }
        return nil
    }

    /// The notification a user step acts on: the one named, or the newest in Notification Center.
    private func notificationID(_ given: String?, field: String) throws(FieldError) -> String {
        if let given { return given }
        guard let newest = app.notificationCenter.deliveredNotifications.first else {
            throw FieldError(field: field, message: "there is no notification in Notification Center to act on")
        }
        return newest.request.identifier
    }

    private func remotePush(_ push: ProfilePush, field: String) throws(FieldError) -> RemotePush {
        let token: [UInt8]
        var channelID: String?
        switch push.target {
        case .device:
            guard let deviceToken = app.deviceToken else {
                throw FieldError(field: field + ".to", message: "the app has no device token yet (register first)")
            }
            token = deviceToken
        case .pushToStart(let type):
            token = app.pushToStartToken(forAttributesType: type)
        case .latestActivity:
            guard let activityToken = app.activities.last?.pushToken else {
                throw FieldError(field: field + ".to", message: "the app has no activity with an update token")
            }
            token = activityToken
        case .channel(let channel):
            // A broadcast comes to the device, not to a token of the app; any well-formed token will do.
            channelID = channel
            token = app.deviceToken ?? Array(repeating: 0, count: 32)
        }
        return RemotePush(
            token: try DeviceToken(bytes: token), pushType: push.pushType, collapseID: push.collapseID,
            payload: push.payload.encoded(), priority: push.priority, channelID: channelID)
    }
}
