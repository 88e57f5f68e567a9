import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 8: Scheduled Summary, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct ScheduledSummaryTests {
    /// A ready app with the time-sensitive entitlement, put in the summary by the user, the summary on.
    private func fixture() -> DeviceFixture {
        let fixture = DeviceFixture.ready(
            AppConfiguration(bundleID: DeviceFixture.bundleID, entitlements: Entitlements(timeSensitive: true)))
        fixture.device.isScheduledSummaryOn = true
        fixture.app.notificationCenter.userChangesSettings { $0.scheduledDeliverySetting = .enabled }
        return fixture
    }

    private func alert(_ title: String, relevance: Double, level: String = "active") -> String {
        #"{"aps":{"alert":{"title":"\#(title)","body":"b"},"sound":"default","relevance-score":\#(relevance),"interruption-level":"\#(level)"}}"#
    }

    @Test("SUMMARY-DELIVERY (8, D): passive and active wait for the summary time; time-sensitive breaks through")
    func heldUntilTheSummary() throws {
        let fixture = fixture()
        try fixture.push(alert("One", relevance: 0.2), collapseID: "n1")
        try fixture.push(alert("Door", relevance: 0, level: "time-sensitive"), collapseID: "door")
        #expect(fixture.app.presentations.map(\.notification.request.identifier) == ["door"])
        #expect(fixture.lastPresentation?.banner == true)
        let held = fixture.entries(.summaryDelivery)
        #expect(held.first?.message == "in the scheduled summary: held until 2026-01-01T18:00:00Z")
        #expect(held.last?.message.contains("time-sensitive breaks through") == true)
        fixture.device.advance(by: 9 * 3600 - 1)
        #expect(fixture.app.presentations.count == 1)
        fixture.device.advance(by: 1)
        let listed = try #require(fixture.app.presentations.last)
        #expect(listed.notification.request.identifier == "n1" && listed.listed && !listed.banner)
        #expect(listed.sound == nil && listed.notification.date.description == "2026-01-01T18:00:00Z")
    }

    @Test("SUMMARY-ORDER (8, U: relevance score, then arrival): the highest relevance is featured, on top")
    func orderedByRelevance() throws {
        let fixture = fixture()
        try fixture.push(alert("Low", relevance: 0.2), collapseID: "n1")
        try fixture.push(alert("High", relevance: 0.9), collapseID: "n2")
        try fixture.push(alert("Middle", relevance: 0.5), collapseID: "n3")
        try fixture.push(alert("Also middle", relevance: 0.5), collapseID: "n4")
        fixture.device.advance(by: 9 * 3600)
        let order = fixture.app.notificationCenter.deliveredNotifications.map(\.request.identifier)
        #expect(order == ["n2", "n3", "n4", "n1"])
        let summary = try #require(fixture.entries(.summaryOrder).first)
        #expect(summary.message.contains("n2 (0.9), n3 (0.5), n4 (0.5), n1 (0.2); featured: n2"))
        #expect(summary.time.description == "2026-01-01T18:00:00Z")
    }

    @Test("SUMMARY-DELIVERY (8, D): without the user's choice for the app, or in the foreground, nothing is held")
    func notHeld() throws {
        let fixture = DeviceFixture.ready()
        fixture.device.isScheduledSummaryOn = true
        try fixture.push(alert("Now", relevance: 0.5))
        #expect(fixture.lastPresentation?.banner == true)
        #expect(fixture.entries(.summaryDelivery).isEmpty)
    }
}
