// Live Activity pushes (ActivityKit: "Starting and updating Live Activities with ActivityKit push
// notifications", and the iOS 18 broadcast additions).

extension LintContext {
    mutating func checkLiveActivity() {
        guard isLiveActivity, let aps else { return }
        let event = aps["event"]?.stringValue.map(LiveActivityEvent.init(rawValue:))
        if aps["event"] == nil {
            report(.liveActivityEvent, "aps.event", "is missing", fix: "set \"event\" to \"start\", \"update\" or \"end\"")
        } else if let event, !LiveActivityEvent.documented.contains(event) {
            report(.liveActivityEvent, "aps.event", "'\(event.rawValue)' is not an event; use start, update or end")
        }
        if aps["timestamp"] == nil {
            report(.liveActivityTimestamp, "aps.timestamp", "is missing; the device ignores updates it cannot order",
                   fix: "set \"timestamp\" to the current UNIX time in seconds")
        }
        for key in ["timestamp", "stale-date", "dismissal-date"] {
            if let seconds = aps[key]?.intValue, seconds >= 100_000_000_000 {
                report(.liveActivityMilliseconds, "aps.\(key)", "\(seconds) looks like milliseconds (year \(yearOf(seconds)) in seconds)",
                       fix: "divide by 1000")
            }
        }
        if event == .start || event == .update, aps["content-state"] == nil {
            report(.liveActivityContentState, "aps.content-state", "is missing; \(event?.rawValue ?? "") needs the activity's new state",
                   fix: "add \"content-state\" matching your ContentState's Codable keys")
        }
        if event == .start {
            let missing = ["attributes-type", "attributes"].filter { aps[$0] == nil }
            if !missing.isEmpty {
                report(.liveActivityStartAttributes, "aps.\(missing[0])", "start needs \(missing.joined(separator: " and "))",
                       fix: "set attributes-type to your ActivityAttributes type name and attributes to its values")
            }
            if aps["alert"] == nil {
                report(.liveActivityStartAlert, "aps.alert", "start needs an alert with a title and body", fix: "add \"alert\":{\"title\":…,\"body\":…}")
            }
            if aps["input-push-token"] != nil, aps["input-push-channel"] != nil {
                report(.liveActivityPushInputs, "aps.input-push-channel",
                       "input-push-token and input-push-channel are both given; an activity gets updates one way",
                       fix: "keep input-push-token for per-activity updates or input-push-channel for a broadcast channel")
            }
        } else if let event, LiveActivityEvent.documented.contains(event) {
            for key in APSSchema.startOnlyKeys where aps[key] != nil {
                report(.liveActivityStartOnly, "aps.\(key)", "'\(key)' is read only on start; this is \(event.rawValue)", fix: "remove it")
            }
        }
        if aps["dismissal-date"] != nil, let event, event != .end {
            report(.liveActivityDismissal, "aps.dismissal-date", "is read only on end; this is \(event.rawValue)", fix: "send it with event end")
        }
        if aps["sound"] != nil {
            report(.liveActivitySound, "aps.sound", "Live Activities read their sound from aps.alert.sound", fix: "move it into alert")
        }
        if request.destination == .broadcast, event == .start {
            report(.broadcastStart, "aps.event", "a broadcast cannot start a Live Activity",
                   fix: "start it with a push-to-start token, then update it over the channel")
        }
    }

    mutating func checkDestination() {
        if request.destination == .broadcast, request.pushType == nil {
            report(.broadcastMissingPushType, "apns-push-type", "is missing; APNs answers MissingPushType for broadcasts",
                   fix: "send apns-push-type: liveactivity")
        }
        if request.destination == .broadcast, let value = request.pushType, pushType != nil, pushType != .liveactivity {
            report(.broadcastPushType, "apns-push-type", "'\(value)' cannot be broadcast; channels carry liveactivity pushes only")
        }
        if request.destination == .simulatorFile, let root {
            if root["Simulator Target Bundle"]?.stringValue?.isEmpty != false {
                report(.simulatorBundle, "Simulator Target Bundle",
                       "is missing, so `xcrun simctl push` does not know which app gets it",
                       fix: "add \"Simulator Target Bundle\": \"<bundle id>\" beside aps")
            }
        }
        if pushType == .mdm, let root {
            if root["mdm"]?.stringValue?.isEmpty != false {
                report(.mdmPushMagic, "mdm", "an MDM push needs \"mdm\" set to the device's PushMagic string")
            }
            if root["aps"] != nil {
                report(.mdmAPS, "aps", "an MDM push carries no aps dictionary; the device ignores it", fix: "remove aps")
            }
        }
    }
}
