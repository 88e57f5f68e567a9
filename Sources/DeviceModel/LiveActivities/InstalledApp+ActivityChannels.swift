import APNs

// Broadcast updates (DEVICE-SEMANTICS.md 9, iOS 18): an activity started with `pushType: .channel(id)` (or by a
// push-to-start push with `input-push-channel`) gets no update token; every broadcast on its channel reaches it
// and is applied as a push to its token would be (order, budget, end). A broadcast cannot start an activity.

extension InstalledApp {
    /// The channels the app's live activities listen to (active or stale ones), oldest activity first: what a
    /// device subscribes to with APNs.
    public var subscribedChannels: [String] {
        var seen: Set<String> = []
        return activities.compactMap { activity in
            guard let id = activity.channelID, activity.activityState == .active || activity.activityState == .stale,
                seen.insert(id).inserted
            else { return nil }
            return id
        }
    }

    /// Whether a broadcast on `channelID` has an activity of this app to reach.
    func listens(toChannel channelID: String) -> Bool {
        activities.contains { $0.channelID == channelID }
    }

    /// A broadcast reaches every activity of the app on its channel.
    func receiveBroadcast(_ push: RemotePush, aps: APS, channelID: String) {
        let via = "broadcast on channel \(channelID)" + (push.apnsID.map { " apns-id \($0)" } ?? "")
        if aps.event == .start {
            context.record(
                .dropped, .activityBroadcast, "\(via) with event start: a broadcast cannot start an activity",
                app: bundleID)
            return
        }
        for activity in activities where activity.channelID == channelID {
            apply(push, aps, to: activity, via: via)
        }
    }

    /// Checks a channel id an activity is started with: base64, as APNs hands them out.
    func validChannel(_ id: String) -> Bool {
        (try? ChannelID(id)) != nil
    }
}
