import APNs

// A liveactivity push reaching an app (DEVICE-SEMANTICS.md 9):
//   to a push-to-start token  -> event start, alert, attributes-type of the token, attributes, content-state
//                                -> a new activity, the app woken, its update token handed over
//   to an activity's token    -> ended or dismissed: ignored
//                                -> event and timestamp; a timestamp not newer than the last: dropped
//                                -> update (content-state) or end (dismissal-date)

extension InstalledApp {
    /// Whether a Live Activity push to `token` is for this app: a push-to-start token or an activity's token.
    func holdsActivityToken(_ token: String) -> Bool {
        pushToStartTokens.values.contains { hex($0) == token } || activities.contains { $0.pushTokenHex == token }
    }

    func receiveActivityPush(_ push: RemotePush, aps: APS) {
        let apnsID = push.apnsID.map { " apns-id \($0)" } ?? ""
        if let type = pushToStartTokens.first(where: { hex($0.value) == push.token.hex })?.key {
            startByPush(aps, attributesType: type, apnsID: apnsID)
            return
        }
        guard let activity = activities.first(where: { $0.pushTokenHex == push.token.hex }) else { return }
        apply(push, aps, to: activity, via: "push\(apnsID)")
    }

    /// An update or end reaching `activity` by its token or by a broadcast (`via` says which, for the timeline).
    func apply(_ push: RemotePush, _ aps: APS, to activity: Activity, via: String) {
        guard activity.activityState == .active || activity.activityState == .stale else {
            context.record(
                .dropped, .activityEnded,
                "liveactivity \(via) to an activity that is \(activity.activityState.rawValue): ignored",
                app: bundleID, notification: activity.id)
            return
        }
        guard let event = aps.event, event == .update || event == .end, let timestamp = aps.timestamp else {
            let problem =
                aps.event == nil
                ? "no aps.event" : aps.timestamp == nil ? "no aps.timestamp" : "event \(aps.event?.rawValue ?? "")"
            context.record(
                .dropped, .activityPayload, "liveactivity \(via): \(problem): not applied", app: bundleID,
                notification: activity.id)
            return
        }
        if let last = activity.lastTimestamp, Double(timestamp) <= last {
            context.record(
                .dropped, .activityOrder,
                "\(event.rawValue) \(via) with timestamp \(timestamp), not newer than the last applied "
                    + "(\(Int(last))): dropped", app: bundleID, notification: activity.id)
            return
        }
        if event == .update {
            guard withinActivityBudget(activity, priority: push.priority, via: via) else { return }
            update(activity, aps, timestamp: timestamp, via: via)
        } else {
            activity.lastTimestamp = Double(timestamp)
            if let state = aps.contentState { activity.contentState = state }
            showAlert(aps, activity)
            end(
                activity, dismissalDate: aps.dismissalDate.map { DeviceInstant(secondsSince1970: Double($0)) },
                how: "end \(via) (timestamp \(timestamp))")
        }
    }

    private func update(_ activity: Activity, _ aps: APS, timestamp: Int, via: String) {
        guard let state = aps.contentState else {
            context.record(
                .dropped, .activityPayload, "update \(via) without aps.content-state: not applied",
                app: bundleID, notification: activity.id)
            return
        }
        activity.lastTimestamp = Double(timestamp)
        activity.contentState = state
        activity.staleDate = aps.staleDate.map { DeviceInstant(secondsSince1970: Double($0)) }
        if let score = aps.relevanceScore { activity.relevanceScore = score }
        let wasStale = activity.activityState == .stale
        activity.activityState = .active
        armStaleDate(activity)
        context.record(
            .activity, .activityUpdate,
            "update \(via) (timestamp \(timestamp)) applied: content-state "
                + String(decoding: JSONValue.object(state).encoded(), as: UTF8.self)
                + (wasStale ? "; active again" : ""), app: bundleID, notification: activity.id)
        showAlert(aps, activity)
    }

    private func startByPush(_ aps: APS, attributesType: String, apnsID: String) {
        let problem: String? =
            if aps.event != .start {
                "event is \(aps.event.map { "'\($0.rawValue)'" } ?? "missing"), not 'start'"
            } else if aps.alert == nil {
                "no alert (a start push must have one)"
            } else if aps.attributesType != attributesType {
                "attributes-type \(aps.attributesType.map { "'\($0)'" } ?? "missing"), the token is for "
                    + "'\(attributesType)'"
            } else if aps.attributes == nil {
                "no attributes"
            } else if aps.contentState == nil {
                "no content-state"
            } else if let channel = aps.inputPushChannel, !validChannel(channel) {
                "input-push-channel '\(channel)' is not base64"
            } else {
                nil
            }
        if let problem {
            context.record(
                .dropped, .activityStartInvalid, "push-to-start push\(apnsID): \(problem): nothing started",
                app: bundleID)
            return
        }
        let activity = Activity(
            id: context.newIdentifier(), attributesType: attributesType, attributes: aps.attributes ?? JSONObject(),
            contentState: aps.contentState ?? JSONObject(),
            staleDate: aps.staleDate.map { DeviceInstant(secondsSince1970: Double($0)) },
            relevanceScore: aps.relevanceScore ?? 0, timestamp: aps.timestamp.map(Double.init),
            startedAt: context.now)
        activity.channelID = aps.inputPushChannel
        activities.append(activity)
        if state == .notRunning || state == .forceQuit { state = .background }
        context.record(
            .activity, .activityStartByPush,
            "push-to-start push\(apnsID): activity \(activity.id) (\(attributesType)) active; the app is woken "
                + "(\(state.rawValue))", app: bundleID, notification: activity.id)
        showAlert(aps, activity)
        started(activity)
    }

    private func showAlert(_ aps: APS, _ activity: Activity) {
        guard let alert = aps.alert else { return }
        let content = NotificationContent(aps: APS(alert: alert), userInfo: JSONObject())
        let text = [content.title, content.body].filter { !$0.isEmpty }.map { "\"\($0)\"" }.joined(separator: " / ")
        context.record(
            .presented, .activityUpdate, "the activity's alert lights the screen: \(text)", app: bundleID,
            notification: activity.id)
    }
}
