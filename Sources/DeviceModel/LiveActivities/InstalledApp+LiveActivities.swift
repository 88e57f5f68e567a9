import APNs

// An app's Live Activities (DEVICE-SEMANTICS.md 9): tokens, starting in the app, and the timers every
// activity runs on (stale date, the 8-hour and 12-hour lifetimes, the dismissal after the end).

extension InstalledApp {
    /// `Activity<Attributes>.pushToStartToken`: the push-to-start token for `attributesType`, made on first
    /// use and the same after.
    @discardableResult
    public func pushToStartToken(forAttributesType attributesType: String) -> [UInt8] {
        if let token = pushToStartTokens[attributesType] { return token }
        let token =
            context.tokenIssuer?.pushToStartToken(bundleID: bundleID, attributesType: attributesType)
            ?? seededActivityToken("push-to-start " + attributesType)
        pushToStartTokens[attributesType] = token
        context.record(
            .activity, .activityPushToStartToken,
            "pushToStartTokenUpdates: push-to-start token \(hex(token)) for \(attributesType)", app: bundleID)
        return token
    }

    /// `Activity.request(attributes:content:pushType:)`: only in the foreground. `.token` (the default) hands the
    /// app an update token; `.channel(id)` listens to broadcasts on the channel instead.
    @discardableResult
    public func requestActivity(
        attributesType: String, attributes: JSONObject, contentState: JSONObject, staleDate: DeviceInstant? = nil,
        relevanceScore: Double = 0, pushType: ActivityPushType = .token
    ) throws(ActivityAuthorizationError) -> Activity {
        guard state == .foreground else {
            context.record(
                .activity, .activityStartForeground,
                "Activity.request for \(attributesType) while the app is \(state.rawValue): throws visibility",
                app: bundleID)
            throw .visibility
        }
        if case .channel(let id) = pushType, !validChannel(id) {
            context.record(
                .activity, .activityChannel,
                "Activity.request for \(attributesType) with pushType .channel('\(id)'): not base64, throws",
                app: bundleID)
            throw .invalidChannelID(id)
        }
        let activity = Activity(
            id: context.newIdentifier(), attributesType: attributesType, attributes: attributes,
            contentState: contentState, staleDate: staleDate, relevanceScore: relevanceScore, timestamp: nil,
            startedAt: context.now)
        if case .channel(let id) = pushType { activity.channelID = id }
        activities.append(activity)
        context.record(
            .activity, .activityStartForeground,
            "Activity.request in the foreground: activity \(activity.id) (\(attributesType)) active", app: bundleID,
            notification: activity.id)
        started(activity)
        return activity
    }

    /// `activity.end(content:dismissalPolicy:)` from the app.
    public func endActivity(_ activity: Activity, dismissalPolicy: ActivityDismissalPolicy = .default) {
        guard activity.activityState == .active || activity.activityState == .stale else {
            context.record(
                .dropped, .activityEnded, "end() on an activity that is \(activity.activityState.rawValue): ignored",
                app: bundleID, notification: activity.id)
            return
        }
        let dismissal: DeviceInstant? =
            switch dismissalPolicy {
            case .default: nil
            case .immediate: context.now
            case .after(let date): date
            }
        end(activity, dismissalDate: dismissal, how: "end() from the app")
    }

    /// The user swipes the activity off the Lock Screen.
    public func userDismisses(activity: Activity) {
        guard activity.activityState != .dismissed else { return }
        activity.activityState = .dismissed
        context.record(
            .userAction, .activityDismissed, "the user removed the activity from the Lock Screen: dismissed",
            app: bundleID, notification: activity.id)
    }

    /// Arms the timers of a new activity and hands its update token to the app.
    func started(_ activity: Activity) {
        context.schedule(at: activity.startedAt + Activity.activeLifetime) { [weak self, weak activity] in
            guard let self, let activity, activity.activityState == .active || activity.activityState == .stale
            else { return }
            self.end(activity, dismissalDate: nil, how: "8 hours active: the system ends it")
        }
        context.schedule(at: activity.startedAt + Activity.maximumLifetime) { [weak self, weak activity] in
            guard let self, let activity else { return }
            self.dismiss(activity, rule: .activityLifetime, why: "12 hours since the start: removed")
        }
        armStaleDate(activity)
        activityObserver.activityStarted?(activity)
        if let channel = activity.channelID {
            context.record(
                .activity, .activityChannel,
                "listens to broadcasts on channel \(channel) (no update token: one push type per activity)",
                app: bundleID, notification: activity.id)
            return
        }
        let token =
            context.tokenIssuer?.liveActivityToken(bundleID: bundleID, activityID: activity.id)
            ?? seededActivityToken("activity " + activity.id)
        activity.pushToken = token
        context.record(
            .activity, .activityUpdateToken,
            "pushTokenUpdates: update token \(hex(token)) handed to the app for its backend", app: bundleID,
            notification: activity.id)
        activityObserver.pushTokenUpdate?(activity, token)
    }

    func armStaleDate(_ activity: Activity) {
        guard let staleDate = activity.staleDate else { return }
        context.schedule(at: staleDate) { [weak self, weak activity] in
            guard let self, let activity, activity.activityState == .active, activity.staleDate == staleDate
            else { return }
            activity.activityState = .stale
            self.context.record(
                .activity, .activityStale, "stale date \(staleDate) reached: stale", app: self.bundleID,
                notification: activity.id)
        }
    }

    /// Ends an activity; `dismissalDate` nil is the default policy (4 hours), one at or before now is at once,
    /// a later one is capped at 4 hours after the end.
    func end(_ activity: Activity, dismissalDate: DeviceInstant?, how: String) {
        let now = context.now
        activity.activityState = .ended
        activity.endedAt = now
        let latest = now + Activity.defaultDismissalDelay
        let dismissal = dismissalDate.map { min(max($0, now), latest) } ?? latest
        activity.dismissalDate = dismissal
        let when =
            if dismissal <= now {
                "dismissed at once (dismissal date \(dismissalDate.map { "\($0)" } ?? "") not in the future)"
            } else if dismissalDate == nil {
                "visible until \(dismissal) (default policy: 4 hours)"
            } else {
                "visible until \(dismissal)" + (dismissal == latest ? " (capped at 4 hours after the end)" : "")
            }
        context.record(
            .activity, activity.startedAt + Activity.activeLifetime <= now ? .activityLifetime : .activityEnd,
            "\(how): ended; \(when)", app: bundleID, notification: activity.id)
        if dismissal <= now {
            dismiss(activity, rule: .activityDismissed, why: "dismissal date reached: removed from the Lock Screen")
        } else {
            context.schedule(at: dismissal) { [weak self, weak activity] in
                guard let self, let activity, activity.dismissalDate == dismissal else { return }
                self.dismiss(
                    activity, rule: .activityDismissed, why: "dismissal date reached: removed from the Lock Screen")
            }
        }
    }

    func dismiss(_ activity: Activity, rule: DeviceRule, why: String) {
        guard activity.activityState != .dismissed else { return }
        activity.activityState = .dismissed
        context.record(.activity, rule, "\(why): dismissed", app: bundleID, notification: activity.id)
    }

    /// 80 bytes, as long as the Live Activity tokens APNs hands out, reproducible from the device's seed.
    private func seededActivityToken(_ purpose: String) -> [UInt8] {
        var generator = SplitMix64(
            seed: SplitMix64.mix(context.seed) ^ fnv1a(bundleID + " " + purpose) ^ SplitMix64.mix(tokenGeneration))
        return (0..<10).flatMap { _ in withUnsafeBytes(of: generator.next().bigEndian, Array.init) }
    }
}
