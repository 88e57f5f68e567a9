import APNs

/// What every part of one device shares: the clock, the timeline, the user's script, the device's own
/// settings, and the events scheduled for later.
///
/// Thread-safety: not thread-safe; the device and everything it made run on one task.
final class DeviceContext {
    let clock: any DeviceClock
    let timeline = Timeline()
    var user: ScriptedUser
    var configuration: DeviceConfiguration
    var isOnline = true
    var isLocked = false
    var scheduledSummaryOn = false
    /// When the scheduled summary is delivered, in the device's zone (iOS offers 8:00 and 18:00 first).
    var scheduledSummaryTimes = [CalendarComponents(hour: 8), CalendarComponents(hour: 18)]
    /// The simulated position; nil until the device is first moved.
    var location: Coordinate?
    /// The Focus the user turned on; nil: none.
    var focus: Focus?
    /// The device's time zone, seconds east of UTC (calendar triggers without a zone of their own use it).
    var timeZoneOffset = 0
    /// The device's named time zone; set, it wins over `timeZoneOffset` for triggers without a zone.
    var timeZoneIdentifier: String?
    /// Gives tokens instead of the seed (the emulator adapter's); nil: the seed makes them all.
    var tokenIssuer: (any TokenIssuer)?
    /// Seeds the tokens this device hands out, so a run reproduces.
    let seed: UInt64
    var identifiers: SplitMix64
    private var events: [(time: DeviceInstant, sequence: Int, action: () -> Void)] = []
    private var nextSequence = 0

    init(clock: any DeviceClock, user: ScriptedUser, configuration: DeviceConfiguration, seed: UInt64) {
        self.clock = clock
        self.user = user
        self.configuration = configuration
        self.seed = seed
        self.identifiers = SplitMix64(seed: seed ^ 0x1D)
    }

    /// The model's present: the clock's time, or while a scheduled event runs, that event's time, so that
    /// what it does (and what it causes) happens when it was due, however far the clock jumped.
    var now: DeviceInstant { eventTime ?? clock.now }
    private var eventTime: DeviceInstant?

    func record(
        _ kind: TimelineEntry.Kind, _ rule: DeviceRule, _ message: String, app: String, notification: String? = nil,
        at time: DeviceInstant? = nil
    ) {
        timeline.record(kind, rule, message, at: time ?? now, app: app, notification: notification)
    }

    /// Runs `action` when the clock reaches `time` (at the next `runDueEvents`).
    func schedule(at time: DeviceInstant, _ action: @escaping () -> Void) {
        events.append((time, nextSequence, action))
        nextSequence += 1
    }

    /// Runs every event due by now, earliest first (ties in the order scheduled). An event may schedule
    /// more; those run too when due.
    func runDueEvents() {
        while let index = nextDueIndex() {
            let event = events.remove(at: index)
            let outer = eventTime
            eventTime = event.time
            event.action()
            eventTime = outer
        }
    }

    /// When the earliest scheduled event is due; nil when none is waiting.
    var nextEventTime: DeviceInstant? {
        events.map(\.time).min()
    }

    private func nextDueIndex() -> Int? {
        let now = now
        var best: Int?
        for (index, event) in events.enumerated() where event.time <= now {
            if let current = best, (events[current].time, events[current].sequence) <= (event.time, event.sequence) {
                continue
            }
            best = index
        }
        return best
    }

    /// A system-assigned notification identifier (an uppercase UUID, as iOS makes them).
    func newIdentifier() -> String {
        let high = identifiers.next()
        let low = identifiers.next()
        let hex = Hex.encode(
            withUnsafeBytes(of: high.bigEndian, Array.init) + withUnsafeBytes(of: low.bigEndian, Array.init)
        )
        .uppercased()
        let digits = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }
}

/// Device-wide choices for behaviour Apple leaves open.
public struct DeviceConfiguration: Sendable, Hashable {
    /// What happens to a notification arriving while the app is in the foreground and no delegate is set.
    public var foregroundWithoutDelegate: ForegroundWithoutDelegate
    /// How many background (content-available) wakes an app gets (DEVICE-SEMANTICS.md 7; the numbers are U).
    public var backgroundPushBudget: BackgroundPushBudget
    /// How many VoIP pushes in a row an app may leave unreported before the system stops waking it for them
    /// (DEVICE-SEMANTICS.md 10; the number is U).
    public var voipFailuresBeforeCutOff: Int
    /// How many priority-10 updates a Live Activity takes in an hour (DEVICE-SEMANTICS.md 9; the numbers are U).
    public var liveActivityBudget: LiveActivityBudget

    public init(
        foregroundWithoutDelegate: ForegroundWithoutDelegate = .notShown,
        backgroundPushBudget: BackgroundPushBudget = BackgroundPushBudget(), voipFailuresBeforeCutOff: Int = 3,
        liveActivityBudget: LiveActivityBudget = LiveActivityBudget()
    ) {
        self.foregroundWithoutDelegate = foregroundWithoutDelegate
        self.backgroundPushBudget = backgroundPushBudget
        self.voipFailuresBeforeCutOff = voipFailuresBeforeCutOff
        self.liveActivityBudget = liveActivityBudget
    }
}

/// The system's allowance of background wakes per app. Apple says only "don't try to send more than two or
/// three per hour" and that a daily power budget exists; the model takes 3 in any hour and 30 in any 24 hours.
public struct BackgroundPushBudget: Sendable, Hashable {
    public var perHour: Int
    public var perDay: Int

    public init(perHour: Int = 3, perDay: Int = 30) {
        self.perHour = perHour
        self.perDay = perDay
    }

    /// No limit, as when the app runs under Xcode's debugger.
    public static let unlimited = BackgroundPushBudget(perHour: .max, perDay: .max)
}

/// Apple says the notification's own options are used; many developers report that nothing shows.
public enum ForegroundWithoutDelegate: String, Sendable, Hashable {
    /// The observed behaviour, and the default.
    case notShown = "not-shown"
    /// What Apple's page says: presented as outside the foreground.
    case presentAsInBackground = "present"
}
