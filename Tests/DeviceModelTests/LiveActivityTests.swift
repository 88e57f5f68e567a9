import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 9: Live Activities, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct LiveActivityTests {
    static let type = "DeliveryAttributes"
    static let start = #"""
        {"aps":{"event":"start","timestamp":1767258000,"attributes-type":"DeliveryAttributes",
        "attributes":{"order":"42"},"content-state":{"eta":"12:30"},"alert":{"title":"Order 42","body":"On its way"}}}
        """#

    /// A launched, backgrounded app holding a push-to-start token.
    private func fixture() -> (DeviceFixture, [UInt8]) {
        let fixture = DeviceFixture.ready()
        let token = fixture.app.pushToStartToken(forAttributesType: Self.type)
        return (fixture, token)
    }

    private func push(_ fixture: DeviceFixture, to token: [UInt8], _ json: String) throws {
        fixture.device.receive(
            RemotePush(token: try DeviceToken(bytes: token), pushType: .liveactivity, payload: Array(json.utf8)))
    }

    /// Started by push; returns the activity.
    private func started() throws -> (DeviceFixture, Activity) {
        let (fixture, token) = fixture()
        try push(fixture, to: token, Self.start)
        return (fixture, try #require(fixture.app.activities.first))
    }

    private func update(_ timestamp: Int, eta: String, extra: String = "") -> String {
        #"{"aps":{"event":"update","timestamp":\#(timestamp),"content-state":{"eta":"\#(eta)"}\#(extra)}}"#
    }

    @Test("LA-PUSH-TO-START-TOKEN (9, D): one push-to-start token per attributes type, the same when asked again")
    func pushToStartTokenPerType() {
        let (fixture, token) = fixture()
        #expect(fixture.app.pushToStartToken(forAttributesType: Self.type) == token)
        #expect(fixture.app.pushToStartToken(forAttributesType: "ScoreAttributes") != token)
        #expect(fixture.entries(.activityPushToStartToken).count == 2)
    }

    @Test("LA-START-PUSH, LA-UPDATE-TOKEN (9, D): a start push starts the activity, wakes the app, hands it the token")
    func startByPush() throws {
        let (fixture, token) = fixture()
        fixture.app.forceQuit()
        var reported: [[UInt8]] = []
        fixture.app.activityObserver.pushTokenUpdate = { reported.append($1) }
        try push(fixture, to: token, Self.start)
        let activity = try #require(fixture.app.activities.first)
        #expect(activity.activityState == .active && activity.attributesType == Self.type)
        #expect(activity.contentState["eta"] == "12:30" && activity.attributes["order"] == "42")
        #expect(fixture.app.state == .background)
        #expect(reported == [try #require(activity.pushToken)])
        #expect(fixture.entries(.activityStartByPush).count == 1)
        #expect(fixture.entries(.activityUpdateToken).first?.message.contains(activity.pushTokenHex ?? "-") == true)
        #expect(fixture.device.timeline.entries.contains { $0.kind == .presented && $0.message.contains("Order 42") })
    }

    @Test("LA-START-INVALID (9, D): a start push without an alert, or for another type, starts nothing")
    func startWithoutAlert() throws {
        let (fixture, token) = fixture()
        try push(
            fixture, to: token,
            Self.start.replacingOccurrences(of: #","alert":{"title":"Order 42","body":"On its way"}"#, with: ""))
        try push(fixture, to: token, Self.start.replacingOccurrences(of: "\"DeliveryAttributes\"", with: "\"Other\""))
        #expect(fixture.app.activities.isEmpty)
        let messages = fixture.entries(.activityStartInvalid).map(\.message)
        #expect(messages.count == 2)
        #expect(messages.first?.contains("no alert") == true && messages.last?.contains("'Other'") == true)
    }

    @Test("LA-START-FOREGROUND (9, D): Activity.request throws visibility outside the foreground")
    func requestOnlyInForeground() throws {
        let fixture = DeviceFixture.ready()
        #expect(throws: ActivityAuthorizationError.visibility) {
            try fixture.app.requestActivity(
                attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject())
        }
        fixture.app.moveToForeground()
        let activity = try fixture.app.requestActivity(
            attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject())
        #expect(activity.activityState == .active && activity.pushToken != nil)
    }

    @Test("LA-UPDATE (9, D): an update replaces the content state; an alert in it is shown")
    func updateReplacesContent() throws {
        let (fixture, activity) = try started()
        try push(
            fixture, to: try #require(activity.pushToken),
            update(
                1_767_258_060, eta: "12:45",
                extra: #","alert":{"title":"Late","body":"15 minutes"}"#))
        #expect(activity.contentState["eta"] == "12:45")
        #expect(fixture.entries(.activityUpdate).contains { $0.kind == .presented && $0.message.contains("Late") })
    }

    @Test("LA-ORDER (9, U: older or equal timestamps dropped): the older of two updates is dropped")
    func olderUpdateDropped() throws {
        let (fixture, activity) = try started()
        let token = try #require(activity.pushToken)
        try push(fixture, to: token, update(1_767_258_120, eta: "12:50"))
        try push(fixture, to: token, update(1_767_258_060, eta: "12:40"))
        try push(fixture, to: token, update(1_767_258_120, eta: "12:55"))
        #expect(activity.contentState["eta"] == "12:50")
        #expect(fixture.entries(.activityOrder).count == 2)
    }

    @Test("LA-PAYLOAD (9, D): an update without content-state, or without timestamp, is not applied")
    func updateNeedsContentState() throws {
        let (fixture, activity) = try started()
        let token = try #require(activity.pushToken)
        try push(fixture, to: token, #"{"aps":{"event":"update","timestamp":1767258100}}"#)
        try push(fixture, to: token, #"{"aps":{"event":"update","content-state":{"eta":"1"}}}"#)
        #expect(activity.contentState["eta"] == "12:30")
        #expect(fixture.entries(.activityPayload).count == 2)
    }

    @Test("LA-END, LA-DISMISSED (9, D): an end with a dismissal date: ended until then, then dismissed")
    func endWithDismissalDate() throws {
        let (fixture, activity) = try started()
        let dismissal = fixture.clock.now + 600
        try push(
            fixture, to: try #require(activity.pushToken),
            #"{"aps":{"event":"end","timestamp":1767258100,"dismissal-date":\#(Int(dismissal.secondsSince1970))}}"#)
        #expect(activity.activityState == .ended && activity.dismissalDate == dismissal)
        fixture.device.advance(by: 599)
        #expect(activity.activityState == .ended)
        fixture.device.advance(by: 1)
        #expect(activity.activityState == .dismissed)
        #expect(fixture.entries(.activityDismissed).first?.time == dismissal)
    }

    @Test("LA-END (9, D): a past dismissal date dismisses at once; none keeps it 4 hours; a later one is capped")
    func dismissalPolicies() throws {
        let (fixture, first) = try started()
        try push(
            fixture, to: try #require(first.pushToken),
            #"{"aps":{"event":"end","timestamp":1767258100,"dismissal-date":1}}"#)
        #expect(first.activityState == .dismissed)

        fixture.app.moveToForeground()
        let second = try fixture.app.requestActivity(
            attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject())
        try push(fixture, to: try #require(second.pushToken), #"{"aps":{"event":"end","timestamp":1767258100}}"#)
        #expect(second.dismissalDate == fixture.clock.now + 4 * 3600)

        let third = try fixture.app.requestActivity(
            attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject())
        let late = Int(fixture.clock.now.secondsSince1970) + 24 * 3600
        try push(
            fixture, to: try #require(third.pushToken),
            #"{"aps":{"event":"end","timestamp":1767258100,"dismissal-date":\#(late)}}"#)
        #expect(third.dismissalDate == fixture.clock.now + 4 * 3600)
    }

    @Test("LA-ENDED (9, D): a push to an ended activity is ignored")
    func pushAfterEndIgnored() throws {
        let (fixture, activity) = try started()
        let token = try #require(activity.pushToken)
        try push(fixture, to: token, #"{"aps":{"event":"end","timestamp":1767258100}}"#)
        try push(fixture, to: token, update(1_767_258_200, eta: "13:00"))
        #expect(activity.contentState["eta"] == "12:30" && activity.activityState == .ended)
        #expect(fixture.entries(.activityEnded).count == 1)
    }

    @Test("LA-STALE (9, D): at the stale date the activity is stale; an update makes it active again")
    func staleDate() throws {
        let (fixture, activity) = try started()
        let token = try #require(activity.pushToken)
        let stale = Int(fixture.clock.now.secondsSince1970) + 300
        try push(fixture, to: token, update(1_767_258_010, eta: "12:35", extra: #","stale-date":\#(stale)"#))
        fixture.device.advance(by: 300)
        #expect(activity.activityState == .stale)
        try push(fixture, to: token, update(1_767_258_400, eta: "12:40"))
        #expect(activity.activityState == .active)
        #expect(fixture.entries(.activityStale).count == 1)
    }

    @Test("LA-LIFETIME (9, D): 8 hours active, then ended by the system; gone after 12 hours")
    func lifetime() throws {
        let (fixture, activity) = try started()
        fixture.device.advance(by: 8 * 3600)
        #expect(activity.activityState == .ended)
        fixture.device.advance(by: 4 * 3600)
        #expect(activity.activityState == .dismissed)
        #expect(fixture.entries(.activityLifetime).count >= 1)
    }
}
