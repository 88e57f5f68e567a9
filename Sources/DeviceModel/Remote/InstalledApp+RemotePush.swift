import APNs

// The system's handling of one remote push for one app (DEVICE-SEMANTICS.md 3):
//   classify -> wake the app (content-available) -> authorization -> service extension -> present

extension InstalledApp {
    func receive(_ push: RemotePush, aps: APS, userInfo: JSONObject) {
        let classification = PushClassification(aps)
        let identifier = push.collapseID ?? context.newIdentifier()
        let origin = push.collapseID == nil ? "a system-assigned identifier" : "the identifier from apns-collapse-id"
        context.record(
            .received, classification.rule,
            "\(push.pushType) push" + (push.apnsID.map { " apns-id \($0)" } ?? "")
                + " classified \(classification.rawValue), \(origin)", app: bundleID, notification: identifier)
        let request = NotificationRequest(
            identifier: identifier, content: NotificationContent(aps: aps, userInfo: userInfo), trigger: .push)
        if classification.wakesApp { wakeForBackgroundPush(request) }
        guard classification.showsAlert else { return }

        let settings = notificationCenter.notificationSettings()
        guard settings.authorizationStatus.allowsDelivery else {
            context.record(
                .notShown, .unauthorizedSilent,
                "authorization \(settings.authorizationStatus): delivered silently, nothing shown", app: bundleID,
                notification: identifier)
            return
        }
        if aps.mutableContent == 1 {
            if let reason = reasonServiceExtensionDoesNotRun(request.content, settings) {
                context.record(
                    .serviceExtension, .serviceExtensionRuns,
                    "mutable-content:1 but the extension does not run: \(reason)",
                    app: bundleID, notification: identifier)
            } else if let serviceExtension {
                runServiceExtension(serviceExtension, request, pushType: push.pushType)
                return
            }
        }
        present(request, at: context.now)
    }

    private func reasonServiceExtensionDoesNotRun(
        _ content: NotificationContent, _ settings: NotificationSettings
    ) -> String? {
        if serviceExtension == nil { return "the app has no notification service extension" }
        if !content.hasAlertText { return "the alert has no title, subtitle or body" }
        if !settings.alertSetting.isEnabled { return "alertSetting is \(settings.alertSetting)" }
        return nil
    }

    private func runServiceExtension(
        _ serviceExtension: any NotificationServiceExtension, _ request: NotificationRequest, pushType: PushType
    ) {
        let session = ServiceExtensionSession(
            app: self, request: request, pushType: pushType.rawValue, startedAt: context.now)
        context.record(
            .serviceExtension, .serviceExtensionRuns,
            "the service extension runs; its 30 seconds end at \(session.deadline)", app: bundleID,
            notification: request.identifier)
        context.schedule(at: session.deadline) { session.expire() }
        serviceExtension.didReceive(request, withContentHandler: session.handler)
    }

    private func wakeForBackgroundPush(_ request: NotificationRequest) {
        let id = request.identifier
        let reason: String? =
            if !configuration.backgroundModes.contains(.remoteNotification) {
                "the app lacks the remote-notification background mode"
            } else if state == .forceQuit {
                "the user force-quit the app"
            } else if !hasLaunched {
                "the app was never launched"
            } else {
                nil
            }
        if let reason {
            context.record(.dropped, .backgroundWake, "app not woken: \(reason)", app: bundleID, notification: id)
            return
        }
        guard withinBackgroundBudget(request) else { return }
        wakeInBackground(request)
    }

    /// Runs the app's didReceiveRemoteNotification (launching it in the background if needed).
    func wakeInBackground(_ request: NotificationRequest) {
        let id = request.identifier
        backgroundWakes.append(context.now)
        if state == .notRunning { state = .background }
        if let handler = delegate.didReceiveRemoteNotificationWithFetchHandler {
            let session = FetchCompletionSession(app: self, notificationID: id, startedAt: context.now)
            context.record(
                .appWoken, .backgroundWake,
                "app woken (\(state.rawValue)): didReceiveRemoteNotification, its fetch completion handler due by "
                    + "\(session.deadline)", app: bundleID, notification: id)
            context.schedule(at: session.deadline) { session.expire() }
            handler(request.content.userInfo, session.handler)
            return
        }
        guard let handler = delegate.didReceiveRemoteNotification else {
            context.record(
                .appWoken, .backgroundWake,
                "app woken (\(state.rawValue)), but it does not implement "
                    + "didReceiveRemoteNotification", app: bundleID, notification: id)
            return
        }
        context.record(
            .appWoken, .backgroundWake, "app woken (\(state.rawValue)): didReceiveRemoteNotification", app: bundleID,
            notification: id)
        handler(request.content.userInfo)
    }
}
