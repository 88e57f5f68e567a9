import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 4 and 5: categories, actions, and the user's responses, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct CategoryTests {
    static let reply = TextInputNotificationAction(
        identifier: "reply", title: "Reply", textInputButtonTitle: "Send", textInputPlaceholder: "Message")
    static let like = NotificationAction(identifier: "like", title: "Like")
    static let open = NotificationAction(identifier: "open", title: "Open", options: [.foreground])
    static let delete = NotificationAction(
        identifier: "delete", title: "Delete", options: [.destructive, .authenticationRequired])
    static let message = #"{"aps":{"alert":{"title":"Alice","body":"Lunch?"},"category":"MESSAGE"}}"#

    /// A ready app with the MESSAGE category and a delegate that records responses.
    private func fixture(
        options: NotificationCategoryOptions = [], handlesResponses: Bool = true
    ) -> (DeviceFixture, Box) {
        let fixture = DeviceFixture.ready()
        let responses = Box()
        fixture.app.notificationCenter.setNotificationCategories([
            NotificationCategory(
                identifier: "MESSAGE", actions: [Self.reply, Self.like, Self.open, Self.delete], options: options)
        ])
        fixture.app.notificationCenter.delegate = NotificationCenterDelegate(
            willPresent: { _ in [.banner, .list] },
            didReceive: handlesResponses ? { responses.items.append($0) } : nil)
        return (fixture, responses)
    }

    final class Box {
        var items: [NotificationResponse] = []
    }

    @Test("ACTION-TEXT-INPUT (4, D): a reply reaches didReceive with userText; the app runs in the background")
    func textInputReply() throws {
        let (fixture, responses) = fixture()
        try fixture.push(Self.message, collapseID: "m1")
        fixture.app.userChooses(action: "reply", onNotification: "m1", text: "Yes, 12:30")
        let response = try #require(responses.items.first)
        #expect(response.actionIdentifier == "reply" && response.userText == "Yes, 12:30")
        #expect(response.notification.request.content.body == "Lunch?")
        #expect(fixture.app.state == .background)
        #expect(fixture.app.notificationCenter.deliveredNotifications.isEmpty, "acting on it clears it")
        #expect(fixture.entries(.actionTextInput).map(\.kind) == [.userAction, .appWoken])
    }

    @Test("ACTION-DEFAULT (4, D): tapping opens the app in the foreground with the default action identifier")
    func tapOpensTheApp() throws {
        let (fixture, responses) = fixture()
        fixture.device.isLocked = true
        try fixture.push(Self.message, collapseID: "m1")
        fixture.app.userOpens(notification: "m1")
        #expect(responses.items.map(\.actionIdentifier) == [NotificationResponse.defaultActionIdentifier])
        #expect(fixture.app.state == .foreground && !fixture.device.isLocked)
    }

    @Test(
        "ACTION-OPTIONS (4, D): .foreground brings the app forward; .authenticationRequired unlocks; plain stays back")
    func actionOptions() throws {
        let (fixture, responses) = fixture()
        fixture.device.isLocked = true
        try fixture.push(Self.message, collapseID: "a")
        fixture.app.userChooses(action: "like", onNotification: "a")
        #expect(fixture.app.state == .background && fixture.device.isLocked)
        try fixture.push(Self.message, collapseID: "b")
        fixture.app.userChooses(action: "delete", onNotification: "b")
        #expect(fixture.app.state == .background && !fixture.device.isLocked)
        fixture.device.isLocked = true
        try fixture.push(Self.message, collapseID: "c")
        fixture.app.userChooses(action: "open", onNotification: "c")
        #expect(fixture.app.state == .foreground && !fixture.device.isLocked)
        #expect(responses.items.map(\.actionIdentifier) == ["like", "delete", "open"])
    }

    @Test("ACTION-DISMISS (4, D): an explicit dismiss reaches the app only with customDismissAction")
    func customDismiss() throws {
        let (plain, plainResponses) = fixture()
        try plain.push(Self.message, collapseID: "m1")
        plain.app.userDismisses(notification: "m1")
        #expect(plainResponses.items.isEmpty)
        #expect(plain.app.notificationCenter.deliveredNotifications.isEmpty)

        let (custom, customResponses) = fixture(options: [.customDismissAction])
        try custom.push(Self.message, collapseID: "m1")
        custom.app.userDismisses(notification: "m1")
        #expect(customResponses.items.map(\.actionIdentifier) == [NotificationResponse.dismissActionIdentifier])
    }

    @Test("ACTION-NOT-HANDLED (4, D): without didReceive the user's action never reaches the app")
    func withoutDidReceive() throws {
        let (fixture, _) = fixture(handlesResponses: false)
        try fixture.push(Self.message, collapseID: "m1")
        fixture.app.userChooses(action: "like", onNotification: "m1")
        #expect(fixture.entries(.actionNotHandled).first?.kind == .dropped)
    }

    @Test("CAT-BUTTONS (5, D): buttons only for a registered category; a banner offers the first two")
    func buttonsForRegisteredCategories() throws {
        let (fixture, responses) = fixture()
        try fixture.push(Self.message, collapseID: "m1")
        let notification = try #require(fixture.app.notificationCenter.deliveredNotifications.first)
        #expect(
            fixture.app.notificationCenter.actions(for: notification, inBanner: true).map(\.identifier) == [
                "reply", "like",
            ])
        #expect(fixture.app.notificationCenter.actions(for: notification, inBanner: false).count == 4)

        try fixture.push(#"{"aps":{"alert":"x","category":"UNKNOWN"}}"#, collapseID: "m2")
        fixture.app.userChooses(action: "like", onNotification: "m2")
        #expect(responses.items.isEmpty)
        #expect(fixture.entries(.categoryButtons).first?.message.contains("no buttons") == true)
    }

    @Test("ACTION-UNAVAILABLE (5, U: recorded, ignored): only a listed notification, only its category's buttons")
    func unavailableActions() throws {
        let (fixture, responses) = fixture()
        try fixture.push(Self.message, collapseID: "m1")
        fixture.app.userChooses(action: "archive", onNotification: "m1")
        fixture.app.userOpens(notification: "never-delivered")
        #expect(responses.items.isEmpty)
        let messages = fixture.entries(.actionUnavailable).map(\.message)
        #expect(messages.count == 2)
        #expect(messages.first?.contains("archive") == true)
        #expect(messages.last?.contains("not in Notification Center") == true)
        #expect(fixture.app.notificationCenter.deliveredNotifications.count == 1, "m1 is still there")
    }

    @Test("CAT-REPLACE (5, D): setting categories replaces the earlier set")
    func categoriesReplace() throws {
        let (fixture, responses) = fixture()
        fixture.app.notificationCenter.setNotificationCategories([
            NotificationCategory(identifier: "OTHER", actions: [Self.like])
        ])
        #expect(fixture.app.notificationCenter.categories.map(\.identifier) == ["OTHER"])
        try fixture.push(Self.message, collapseID: "m1")
        fixture.app.userChooses(action: "reply", onNotification: "m1", text: "hi")
        #expect(responses.items.isEmpty, "MESSAGE is gone, and its buttons with it")
    }

    @Test("CAT-IDENTIFIERS (5, U: left out): empty or repeated category ids and repeated action ids are left out")
    func identifiersAreUnique() {
        let fixture = DeviceFixture()
        fixture.app.notificationCenter.setNotificationCategories([
            NotificationCategory(identifier: "A", actions: [Self.like]),
            NotificationCategory(identifier: "A", actions: []),
            NotificationCategory(identifier: "", actions: []),
            NotificationCategory(identifier: "B", actions: [Self.like, Self.open]),
        ])
        let categories = fixture.app.notificationCenter.categories
        #expect(categories.map(\.identifier) == ["A", "B"])
        #expect(categories.last?.actions.map(\.identifier) == ["open"])
        #expect(fixture.entries(.categoryIdentifiers).count == 3)
    }
}
