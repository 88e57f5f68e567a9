import APNs

/// An iPhone as far as notifications go: apps, their notification centers, the user's script, a clock and
/// the timeline of everything that happened.
///
/// The model is pure: it reads time from the injected clock and does no I/O. Pushes arrive through
/// `receive(_:)` (from a test, or from an adapter on the emulator's device stream); work due later runs in
/// `runDueEvents()`, which a test calls after advancing its `VirtualClock` (or use `advance(by:)`).
/// Lifecycle: everything a device makes lives as long as it does.
/// Thread-safety: not thread-safe; use a device and what it made from one task.
public final class Device {
    let context: DeviceContext
    public private(set) var apps: [InstalledApp] = []

    /// `seed` decides the tokens and identifiers the device hands out, so a run reproduces.
    public init(
        clock: any DeviceClock = VirtualClock(), user: ScriptedUser = ScriptedUser(),
        configuration: DeviceConfiguration = DeviceConfiguration(), seed: UInt64 = 1
    ) {
        context = DeviceContext(clock: clock, user: user, configuration: configuration, seed: seed)
    }

    public var clock: any DeviceClock { context.clock }
    public var timeline: Timeline { context.timeline }

    /// How the user answers prompts from now on.
    public var user: ScriptedUser {
        get { context.user }
        set { context.user = newValue }
    }

    public var configuration: DeviceConfiguration {
        get { context.configuration }
        set { context.configuration = newValue }
    }

    /// Offline, registration cannot reach APNs.
    public var isOnline: Bool {
        get { context.isOnline }
        set { context.isOnline = newValue }
    }

    /// Locked, banners follow the lock screen setting instead of the alert style.
    public var isLocked: Bool {
        get { context.isLocked }
        set { context.isLocked = newValue }
    }

    /// The device's time zone as seconds east of UTC (0, UTC, by default); a calendar trigger without a zone of
    /// its own matches in it, as of the moment the request is added or re-armed.
    public var timeZoneOffset: Int {
        get { context.timeZoneOffset }
        set { context.timeZoneOffset = newValue }
    }

    /// The device's named time zone (`Europe/Berlin`), with its daylight saving time; nil (the default): the
    /// fixed `timeZoneOffset`. A calendar trigger without a zone of its own matches in it.
    public var timeZoneIdentifier: String? { context.timeZoneIdentifier }

    /// Sets the device's named time zone (nil: back to `timeZoneOffset`); a name the system does not know is an
    /// error naming it.
    public func setTimeZone(identifier: String?) throws(FieldError) {
        if let identifier { try CalendarTrigger.checkTimeZone(identifier) }
        context.timeZoneIdentifier = identifier
    }

    /// Whether the user turned on Scheduled Summary (Settings > Notifications).
    public var isScheduledSummaryOn: Bool {
        get { context.scheduledSummaryOn }
        set { context.scheduledSummaryOn = newValue }
    }

    /// When the scheduled summary is delivered, as times of day in the device's zone (8:00 and 18:00 by default).
    public var scheduledSummaryTimes: [CalendarComponents] {
        get { context.scheduledSummaryTimes }
        set { context.scheduledSummaryTimes = newValue }
    }

    /// The device's simulated position; nil until the first `move(to:)`.
    public var location: Coordinate? { context.location }

    /// The device moves: location triggers whose region it enters or leaves fire (the first move only places it).
    public func move(to coordinate: Coordinate) {
        runDueEvents()
        let old = context.location
        context.location = coordinate
        for app in apps { app.notificationCenter.deviceMoved(from: old, to: coordinate) }
    }

    /// The Focus the user turned on (nil: none): it silences what it does not let through.
    public var focus: Focus? {
        get { context.focus }
        set { context.focus = newValue }
    }

    /// Gives the apps their tokens (the emulator adapter sets it); nil, the default: tokens come from the seed.
    public var tokenIssuer: (any TokenIssuer)? {
        get { context.tokenIssuer }
        set { context.tokenIssuer = newValue }
    }

    /// When the earliest piece of scheduled work is due (a deadline, a trigger, a dismissal); nil when
    /// nothing waits. A driver on a real clock sleeps until then and calls `runDueEvents()`.
    public var nextEventTime: DeviceInstant? { context.nextEventTime }

    /// Installs an app (not launched yet). Installing a bundle id again returns the app already there.
    @discardableResult
    public func install(_ configuration: AppConfiguration) -> InstalledApp {
        if let app = app(configuration.bundleID) { return app }
        let app = InstalledApp(context: context, configuration: configuration)
        apps.append(app)
        return app
    }

    public func app(_ bundleID: String) -> InstalledApp? {
        apps.first { $0.bundleID == bundleID }
    }

    /// Every app's token changes (restore, new device, OS reinstall, erase).
    public func rotateTokens(_ reason: TokenRotation) {
        for app in apps { app.rotateToken(reason) }
    }

    /// Carries out everything due by the clock's current time, in time order.
    public func runDueEvents() {
        context.runDueEvents()
    }

    /// Moves a virtual clock forward and carries out what became due, each at its own time. On another clock
    /// this only runs what is due.
    public func advance(by seconds: Double) {
        (clock as? VirtualClock)?.advance(by: seconds)
        runDueEvents()
    }

    /// Runs `action` `seconds` from now on the device's clock (at the `runDueEvents` that reaches that time):
    /// for scripts that act later, such as a service extension that answers after a delay.
    public func schedule(after seconds: Double, _ action: @escaping () -> Void) {
        let delay = seconds.isFinite ? max(0, seconds) : 0
        context.schedule(at: context.now + delay, action)
    }

    /// A push from APNs reaches the device.
    public func receive(_ push: RemotePush) {
        runDueEvents()
        if push.pushType == .liveactivity, let channel = push.channelID {
            receiveBroadcast(push, channel: channel)
            return
        }
        let app: InstalledApp? =
            switch push.pushType {
            case .liveactivity: apps.first { $0.holdsActivityToken(push.token.hex) }
            case .voip: apps.first { $0.pushRegistry?.voipTokenHex == push.token.hex }
            default: apps.first { $0.deviceToken.map(hex) == push.token.hex }
            }
        guard let app else {
            context.record(
                .dropped, .tokenNotCurrent,
                "\(push.pushType) push to token \(push.token.hex): no app on this device "
                    + "holds it", app: "")
            return
        }
        guard [.alert, .background, .liveactivity, .voip].contains(push.pushType) else {
            context.record(
                .dropped, .pushTypeNotModelled, "\(push.pushType) push: not modelled yet", app: app.bundleID)
            return
        }
        guard let (userInfo, aps) = decode(push, app: app.bundleID) else { return }
        if push.pushType == .liveactivity {
            app.receiveActivityPush(push, aps: aps)
        } else if push.pushType == .voip {
            app.receiveVoIPPush(push, userInfo: userInfo)
        } else {
            app.receive(push, aps: aps, userInfo: userInfo)
        }
    }

    /// A broadcast reaches the apps with an activity on its channel.
    private func receiveBroadcast(_ push: RemotePush, channel: String) {
        let listeners = apps.filter { $0.listens(toChannel: channel) }
        guard !listeners.isEmpty else {
            context.record(
                .dropped, .activityBroadcast,
                "broadcast on channel \(channel): no activity on this device listens to it",
                app: "")
            return
        }
        for app in listeners {
            guard let (_, aps) = decode(push, app: app.bundleID) else { return }
            app.receiveBroadcast(push, aps: aps, channelID: channel)
        }
    }

    /// The payload's JSON object and its `aps`; nil (recorded) when it has neither.
    private func decode(_ push: RemotePush, app bundleID: String) -> (JSONObject, APS)? {
        do {
            let json = try JSONValue(parsing: push.payload)
            guard let object = json.objectValue else {
                throw FieldError(field: "payload", message: "must be an object")
            }
            // A VoIP payload is the app's own JSON; it need not have aps.
            guard let decoded = push.pushType == .voip ? APS() : try Payload(json: json).aps else {
                throw FieldError(field: "payload.aps", message: "is missing")
            }
            return (object, decoded)
        } catch {
            context.record(.dropped, .pushPayload, "payload not delivered: \(error)", app: bundleID)
            return nil
        }
    }
}
