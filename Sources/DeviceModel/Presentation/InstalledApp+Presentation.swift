import APNs

// Presenting a delivered request (DEVICE-SEMANTICS.md 3.9, 4, 1c, 8):
//   foreground -> the delegate's willPresent (no delegate: the configured default) -> settings
//   otherwise  -> settings
//   then the scheduled summary (passive and active held for it), the interruption level (passive: no banner
//   or sound), the Focus, and the critical sound's conditions.

extension InstalledApp {
    func present(_ request: NotificationRequest, at time: DeviceInstant) {
        let notification = DeliveredNotification(date: time, request: request)
        let settings = notificationCenter.notificationSettings()
        let content = request.content
        let id = request.identifier
        let allowed = Self.optionsAllowed(by: settings, for: content, locked: context.isLocked && state != .foreground)
        var options: PresentationOptions
        var rule = DeviceRule.presentSettings
        if state == .foreground {
            switch notificationCenter.delegate {
            case nil where context.configuration.foregroundWithoutDelegate == .notShown:
                context.record(
                    .notShown, .foregroundNoDelegate, "app in foreground and no delegate is set: not shown",
                    app: bundleID, notification: id, at: time)
                return
            case nil:
                options = allowed
                rule = .foregroundNoDelegate
            case let delegate?:
                guard let willPresent = delegate.willPresent else {
                    context.record(
                        .notShown, .foregroundNotImplemented,
                        "app in foreground and its delegate does not implement willPresent: not shown", app: bundleID,
                        notification: id, at: time)
                    return
                }
                let chosen = willPresent(notification)
                guard !chosen.isEmpty else {
                    context.record(
                        .notShown, .foregroundWillPresent, "app in foreground and willPresent returned []: not shown",
                        app: bundleID, notification: id, at: time)
                    return
                }
                options = chosen.expanded.intersection(allowed)
                rule = .foregroundWillPresent
            }
        } else {
            options = allowed
        }

        let level = effectiveLevel(content.interruptionLevel, settings, id, time)
        if holdForSummary(notification, level: level, settings, time) { return }
        if level == .passive, !options.isDisjoint(with: [.banner, .sound]) {
            options.subtract([.banner, .sound])
            context.record(
                .presented, .presentPassive, "passive: no banner, no sound", app: bundleID, notification: id, at: time)
        }
        applyFocus(&options, level: level, settings, id, time)
        let defaultCriticalSound = level == .critical && content.sound == nil && !options.isEmpty
        if defaultCriticalSound {
            options.insert(.sound)
            context.record(
                .presented, .levelCritical, "critical without a sound: the default critical sound plays",
                app: bundleID, notification: id, at: time)
        }
        guard !options.isEmpty else {
            context.record(
                .notShown, rule,
                "nothing allowed: alertSetting \(settings.alertSetting), alertStyle \(settings.alertStyle), "
                    + "notificationCenterSetting \(settings.notificationCenterSetting), soundSetting "
                    + "\(settings.soundSetting), badgeSetting \(settings.badgeSetting)", app: bundleID,
                notification: id,
                at: time)
            return
        }
        let presentation = Presentation(
            notification: notification, banner: options.contains(.banner), listed: options.contains(.list),
            sound: defaultCriticalSound
                ? .critical(name: nil, volume: nil)
                : options.contains(.sound) ? sound(content, level, settings, id, time) : nil,
            badge: options.contains(.badge) ? content.badge : nil, interruptionLevel: level,
            inForeground: state == .foreground)
        apply(presentation)
        let origin = rule == .foregroundWillPresent ? "willPresent returned \(options): " : ""
        context.record(
            .presented, rule, origin + presentation.summary + render(presentation).quoted, app: bundleID,
            notification: id, at: time)
        if !presentation.listed, content.hasAlertText {
            context.record(
                .presented, .presentNotListed, "not added to the delivered list", app: bundleID, notification: id,
                at: time)
        }
    }

    func apply(_ presentation: Presentation) {
        presentations.append(presentation)
        if let badge = presentation.badge { badgeCount = max(0, badge) }
        if presentation.listed {
            let id = presentation.notification.request.identifier
            notificationCenter.deliveredNotifications.removeAll { $0.request.identifier == id }
            notificationCenter.deliveredNotifications.insert(presentation.notification, at: 0)
        }
    }

    /// What the settings let a notification with this content do, outside `willPresent`.
    static func optionsAllowed(
        by settings: NotificationSettings, for content: NotificationContent, locked: Bool
    ) -> PresentationOptions {
        var options: PresentationOptions = []
        if content.hasAlertText {
            let visible = locked ? settings.lockScreenSetting.isEnabled : settings.alertStyle != .none
            if settings.alertSetting.isEnabled, visible { options.insert(.banner) }
            if settings.notificationCenterSetting.isEnabled { options.insert(.list) }
        }
        if content.sound != nil, settings.soundSetting.isEnabled { options.insert(.sound) }
        if content.badge != nil, settings.badgeSetting.isEnabled { options.insert(.badge) }
        return options
    }

    /// The level after entitlements: time-sensitive and critical need theirs, or count as active.
    private func effectiveLevel(
        _ level: InterruptionLevel, _ settings: NotificationSettings, _ id: String, _ time: DeviceInstant
    ) -> InterruptionLevel {
        let entitlements = configuration.entitlements
        let missing: String? =
            switch level {
            case .timeSensitive where !entitlements.timeSensitive: "the time-sensitive entitlement"
            case .critical where !entitlements.criticalAlerts: "the critical-alerts entitlement"
            case .critical where !settings.criticalAlertSetting.isEnabled:
                "criticalAlertSetting enabled (it is \(settings.criticalAlertSetting))"
            default: nil
            }
        guard let missing else { return level }
        context.record(
            .presented, .levelWithoutEntitlement, "interruption level \(level.rawValue) without \(missing): active",
            app: bundleID, notification: id, at: time)
        return .active
    }

    /// The sound played: a critical sound only with the entitlement and the setting.
    private func sound(
        _ content: NotificationContent, _ level: InterruptionLevel, _ settings: NotificationSettings, _ id: String,
        _ time: DeviceInstant
    ) -> NotificationSound? {
        guard case .critical(let name, _) = content.sound else { return content.sound }
        if configuration.entitlements.criticalAlerts, settings.criticalAlertSetting.isEnabled { return content.sound }
        context.record(
            .presented, .soundCriticalNotAllowed,
            "critical sound without the entitlement and criticalAlertSetting enabled: played as a regular sound",
            app: bundleID, notification: id, at: time)
        return name.map(NotificationSound.named) ?? .default
    }
}
