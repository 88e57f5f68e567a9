// Contracts the device enforces: APNs accepts these payloads, and the device then drops the
// notification, shows nothing, or skips the app's code (Apple: "Generating a remote notification",
// "Pushing background updates to your App", "Modifying content in newly delivered notifications").

extension LintContext {
    mutating func checkContracts() {
        guard let aps, let pushType else { return }
        let alert = aps["alert"]
        let visible = alert.map(isVisibleAlert) ?? false
        let attention = ["alert", "sound", "badge"].filter { aps[$0] != nil }
        let contentAvailable = aps["content-available"]

        if let value = contentAvailable, value.intValue != 1, value.numberValue != nil {
            report(.contentAvailableValue, "aps.content-available", "is \(brief(value)); the system looks for 1",
                   fix: "send 1 for a background update, or leave the key out")
        }
        if let value = aps["mutable-content"], value.numberValue != nil {
            if value.intValue != 1 {
                report(.mutableContentValue, "aps.mutable-content", "is \(brief(value)); the system looks for 1",
                       fix: "send 1 to run the service extension, or leave the key out")
            } else if !visible {
                report(.mutableWithoutAlert, "aps.mutable-content",
                       "mutable-content is 1 but there is no visible alert, so the service extension never runs",
                       fix: "add an alert with a title or body")
            }
        }

        switch pushType {
        case .alert:
            if alert != nil, !visible {
                report(.emptyAlert, "aps.alert", "the alert has no title, subtitle or body, so nothing is shown",
                       fix: "add a title or body")
            } else if attention.isEmpty {
                if contentAvailable?.intValue == 1 {
                    report(.silentAsAlert, "apns-push-type",
                           "the payload is silent (content-available only) but is sent as an alert push",
                           fix: "send it with apns-push-type: background and apns-priority: 5")
                } else {
                    report(.nothingToShow, "aps", "an alert push with no alert, sound or badge shows nothing",
                           fix: "add an alert, or send a background push with content-available: 1")
                }
            }
        case .background:
            for key in attention {
                report(.backgroundAlert, "aps.\(key)", "a background push carries '\(key)'; the system may not deliver it as a background update",
                       fix: "send the \(key) in a separate alert push")
            }
            if contentAvailable?.intValue != 1 {
                report(.backgroundContentAvailable, "aps.content-available",
                       contentAvailable == nil ? "is missing, so the app is never woken" : "is \(brief(contentAvailable ?? .null)), not 1",
                       fix: "set \"content-available\": 1")
            }
        case .widgets, .controls:
            if aps["content-changed"]?.boolValue != true {
                report(.contentChanged, "aps.content-changed", "\(pushType) pushes need \"content-changed\": true",
                       fix: "send {\"aps\":{\"content-changed\":true}}")
            }
        default:
            break
        }
        if aps["content-changed"] != nil, pushType != .widgets, pushType != .controls {
            report(.contentChangedElsewhere, "aps.content-changed", "only widgets and controls pushes read content-changed")
        }
        if pushType != .liveactivity, request.pushType != nil {
            for key in APSSchema.liveActivityKeys where aps[key] != nil {
                report(.liveActivityKeysElsewhere, "aps.\(key)", "'\(key)' is a Live Activity key, but the push type is \(pushType)",
                       fix: "send it with apns-push-type: liveactivity to the .push-type.liveactivity topic")
            }
        }
        checkBadge(aps)
        checkSoundAndLevel(aps)
        checkRelevance(aps)
        if let alert = alert?.objectValue { checkLocalization(alert) }
    }

    private mutating func checkBadge(_ aps: JSONObject) {
        if let badge = aps["badge"]?.intValue, badge < 0 {
            report(.badgeNegative, "aps.badge", "is \(badge); the badge is 0 (clear) or a positive count", fix: "send 0 to clear it")
        }
    }

    private mutating func checkSoundAndLevel(_ aps: JSONObject) {
        let sound = aps["sound"]
        let level = aps["interruption-level"]?.stringValue
        var criticalSound = false
        if let dictionary = sound?.objectValue {
            criticalSound = dictionary["critical"]?.intValue == 1
            if let volume = dictionary["volume"]?.doubleValue, !(0...1).contains(volume) {
                report(.soundVolume, "aps.sound.volume", "is \(brief(dictionary["volume"] ?? .null)); volume is from 0 (silent) to 1 (full)")
            }
            if criticalSound, level != InterruptionLevel.critical.rawValue {
                report(.criticalSoundLevel, "aps.interruption-level",
                       level.map { "is '\($0)' with a critical sound" } ?? "is missing with a critical sound",
                       fix: "set \"interruption-level\": \"critical\" (needs the critical alerts entitlement)")
            }
        }
        if let level {
            if !InterruptionLevel.documented.contains(InterruptionLevel(rawValue: level)) {
                report(.interruptionLevel, "aps.interruption-level", "'\(level)' is not a level; the device treats it as active",
                       fix: "use passive, active, time-sensitive or critical")
            }
            if level == InterruptionLevel.timeSensitive.rawValue {
                report(.timeSensitiveCapability, "aps.interruption-level",
                       "time-sensitive needs the app's Time Sensitive Notifications capability and the user's permission")
            }
            if level == InterruptionLevel.passive.rawValue, sound != nil {
                report(.passiveSound, "aps.sound", "a passive notification plays no sound", fix: "remove the sound, or use interruption-level active")
            }
        }
        if level == InterruptionLevel.critical.rawValue || criticalSound {
            report(.criticalEntitlement, criticalSound ? "aps.sound" : "aps.interruption-level",
                   "critical alerts need Apple's com.apple.developer.usernotifications.critical-alerts entitlement and the user's permission")
        }
    }

    private mutating func checkRelevance(_ aps: JSONObject) {
        guard !isLiveActivity, let value = aps["relevance-score"], let score = value.doubleValue, !(0...1).contains(score) else { return }
        report(.relevanceRange, "aps.relevance-score", "is \(brief(value)); notifications use 0 to 1",
               fix: "scale it into 0...1 (only Live Activities take any number)")
    }

    private mutating func checkLocalization(_ alert: JSONObject) {
        for (args, key) in [("loc-args", "loc-key"), ("title-loc-args", "title-loc-key"), ("subtitle-loc-args", "subtitle-loc-key")]
        where alert[args] != nil && alert[args]?.isNull == false && alert[key]?.stringValue == nil {
            report(.locArgsWithoutKey, "aps.alert.\(args)", "'\(args)' without '\(key)' fills no string", fix: "add '\(key)'")
        }
    }

    /// Whether an alert value shows the user anything.
    func isVisibleAlert(_ alert: JSONValue) -> Bool {
        if let text = alert.stringValue { return !text.isEmpty }
        guard let content = alert.objectValue else { return false }
        return ["title", "subtitle", "body", "title-loc-key", "subtitle-loc-key", "loc-key"].contains { key in
            switch content[key] {
            case .string(let text): !text.isEmpty
            case .object(let localized): localized["loc-key"]?.stringValue?.isEmpty == false
            default: false
            }
        }
    }
}
