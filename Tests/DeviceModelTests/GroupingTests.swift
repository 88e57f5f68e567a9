import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 5: grouping by thread and the group summary, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct GroupingTests {
    private func push(_ fixture: DeviceFixture, _ id: String, thread: String?, extra: String = "") throws {
        let threadKey = thread.map { #","thread-id":"\#($0)""# } ?? ""
        try fixture.push(#"{"aps":{"alert":{"title":"\#(id)","body":"b"\#(extra)}\#(threadKey)}}"#, collapseID: id)
        fixture.device.advance(by: 1)
    }

    @Test("GROUP-THREAD (5, O): one group per thread, one for notifications without a thread; the newest leads")
    func groupsByThread() throws {
        let fixture = DeviceFixture.ready()
        try push(fixture, "a1", thread: "ana")
        try push(fixture, "n1", thread: nil)
        try push(fixture, "b1", thread: "bo")
        try push(fixture, "a2", thread: "ana")
        let groups = fixture.app.notificationCenter.notificationGroups()
        #expect(groups.map(\.threadIdentifier) == ["ana", "bo", ""])
        #expect(groups.first?.notifications.map(\.request.identifier) == ["a2", "a1"])
        #expect(groups.first?.summaryText == "1 more notification")
        #expect(groups.last?.summaryText == "")
        // What the stack shows: the newest's banner, its thread, the line under it.
        let stack = try render(#require(groups.first))
        #expect(stack.lead.title == "a2" && stack.threadIdentifier == "ana" && stack.count == 2)
        #expect(stack.summaryText == "1 more notification")
    }

    @Test("GROUP-SUMMARY (5, O: 'N more notifications'; D: the category's format with %u and summary-arg)")
    func summaryText() throws {
        let fixture = DeviceFixture.ready()
        fixture.app.notificationCenter.setNotificationCategories([
            NotificationCategory(identifier: "MSG", actions: [], categorySummaryFormat: "%u more messages from %@")
        ])
        let message = { (from: String, count: Int) in
            #","summary-arg":"\#(from)","summary-arg-count":\#(count)},"category":"MSG""#
        }
        // The alert object closes inside `extra`, so the category lands in aps.
        try fixture.push(
            #"{"aps":{"alert":{"title":"1","body":"b"\#(message("Ana", 2)),"thread-id":"chat"}}"#, collapseID: "m1")
        fixture.device.advance(by: 1)
        try fixture.push(
            #"{"aps":{"alert":{"title":"2","body":"b"\#(message("Bo", 1)),"thread-id":"chat"}}"#, collapseID: "m2")
        fixture.device.advance(by: 1)
        try fixture.push(
            #"{"aps":{"alert":{"title":"3","body":"b"\#(message("Ana", 1)),"thread-id":"chat"}}"#, collapseID: "m3")
        let group = try #require(fixture.app.notificationCenter.notificationGroups().first)
        #expect(group.notifications.map(\.request.identifier) == ["m3", "m2", "m1"])
        #expect(group.summaryText == "3 more messages from Bo and Ana")

        let plain = DeviceFixture.ready()
        for index in 0..<4 { try push(plain, "p\(index)", thread: nil) }
        #expect(plain.app.notificationCenter.notificationGroups().first?.summaryText == "3 more notifications")
    }
}
