// The user acting on a delivered notification (DEVICE-SEMANTICS.md 4 and 5): a tap opens the app with
// the default action; a button runs the app in the background or, with .foreground, brings it forward; an
// explicit dismiss reaches the app only when the category asks for it. Each reaches the delegate's
// didReceive, if the app implements it.

extension InstalledApp {
    /// The user taps the notification itself: the device unlocks, the app opens.
    public func userOpens(notification identifier: String) {
        guard let notification = delivered(identifier, doing: "open") else { return }
        unlock(for: "opening the app", identifier)
        remove(notification)
        moveToForeground()
        context.record(
            .userAction, .actionDefault, "the user tapped the notification: the app opens in the foreground",
            app: bundleID, notification: identifier)
        respond(
            NotificationResponse(
                notification: notification, actionIdentifier: NotificationResponse.defaultActionIdentifier))
    }

    /// The user taps one of the notification's buttons; for a text input action, `text` is what they typed.
    public func userChooses(action actionID: String, onNotification identifier: String, text: String? = nil) {
        guard let notification = delivered(identifier, doing: "choose \(actionID)") else { return }
        let offered = notificationCenter.actions(for: notification, inBanner: false)
        guard let action = offered.first(where: { $0.identifier == actionID }) else {
            let buttons = offered.isEmpty ? "no buttons" : "buttons \(offered.map(\.identifier))"
            context.record(
                .userAction, offered.isEmpty ? .categoryButtons : .actionUnavailable,
                "the user cannot choose \(actionID): the notification offers \(buttons)", app: bundleID,
                notification: identifier)
            return
        }
        if !action.options.isDisjoint(with: [.authenticationRequired, .foreground]) {
            unlock(for: "the action \(actionID)", identifier)
        }
        remove(notification)
        if action.options.contains(.foreground) {
            moveToForeground()
        } else if state != .foreground {
            state = .background
        }
        var userText: String?
        if action is TextInputNotificationAction {
            userText = text ?? ""
            context.record(
                .userAction, .actionTextInput, "the user replied \"\(userText ?? "")\" with \(action)", app: bundleID,
                notification: identifier)
        }
        context.record(
            .userAction, .actionOptions, "the user chose \(action): the app runs in the \(state.rawValue)",
            app: bundleID, notification: identifier)
        respond(NotificationResponse(notification: notification, actionIdentifier: actionID, userText: userText))
    }

    /// The user explicitly clears the notification (the X in Notification Center, not ignoring a banner).
    public func userDismisses(notification identifier: String) {
        guard let notification = delivered(identifier, doing: "dismiss") else { return }
        remove(notification)
        guard notificationCenter.category(of: notification)?.options.contains(.customDismissAction) == true else {
            context.record(
                .userAction, .actionDismiss,
                "the user dismissed the notification: the app is not told (its category "
                    + "lacks customDismissAction)", app: bundleID, notification: identifier)
            return
        }
        if state != .foreground { state = .background }
        context.record(
            .userAction, .actionDismiss, "the user dismissed the notification: customDismissAction tells the app",
            app: bundleID, notification: identifier)
        respond(
            NotificationResponse(
                notification: notification, actionIdentifier: NotificationResponse.dismissActionIdentifier))
    }

    private func delivered(_ identifier: String, doing what: String) -> DeliveredNotification? {
        if let notification = notificationCenter.deliveredNotifications.first(where: {
            $0.request.identifier == identifier
        }) {
            return notification
        }
        context.record(
            .userAction, .actionUnavailable, "the user cannot \(what): the notification is not in Notification Center",
            app: bundleID, notification: identifier)
        return nil
    }

    private func unlock(for reason: String, _ identifier: String) {
        guard context.isLocked else { return }
        context.isLocked = false
        context.record(
            .userAction, .actionOptions, "the user unlocks the device for \(reason)", app: bundleID,
            notification: identifier)
    }

    private func remove(_ notification: DeliveredNotification) {
        notificationCenter.removeDeliveredNotifications(withIdentifiers: [notification.request.identifier])
    }

    private func respond(_ response: NotificationResponse) {
        let id = response.notification.request.identifier
        guard let didReceive = notificationCenter.delegate?.didReceive else {
            context.record(
                .dropped, .actionNotHandled,
                "the app does not implement didReceive: \(response.actionIdentifier) "
                    + "is never handled", app: bundleID, notification: id)
            return
        }
        context.record(
            .appWoken, ruleForResponse(response),
            "didReceive: \(response.actionIdentifier)" + (response.userText.map { ", userText \"\($0)\"" } ?? ""),
            app: bundleID, notification: id)
        didReceive(response)
    }

    private func ruleForResponse(_ response: NotificationResponse) -> DeviceRule {
        switch response.actionIdentifier {
        case NotificationResponse.defaultActionIdentifier: .actionDefault
        case NotificationResponse.dismissActionIdentifier: .actionDismiss
        default: response.userText == nil ? .actionOptions : .actionTextInput
        }
    }
}
