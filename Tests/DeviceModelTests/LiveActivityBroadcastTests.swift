import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 9: the priority-10 update budget and broadcast channels, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct LiveActivityBroadcastTests {
    static let type = "ScoreAttributes"
    static let channel = "dHN0LXNyY2gtY2hubA=="

    private func update(_ timestamp: Int, score: String) -> [UInt8] {
        Array(#"{"aps":{"event":"update","timestamp":\#(timestamp),"content-state":{"score":"\#(score)"}}}"#.utf8)
    }

    /// An app in the foreground with one activity, on its token or on `channel`.
    private func started(
        _ configuration: AppConfiguration = AppConfiguration(bundleID: DeviceFixture.bundleID),
        pushType: ActivityPushType = .token
    ) throws -> (DeviceFixture, Activity) {
        let fixture = DeviceFixture.ready(configuration)
        fixture.app.moveToForeground()
        let activity = try fixture.app.requestActivity(
            attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject(), pushType: pushType)
        return (fixture, activity)
    }

    private func pushUpdates(
        _ count: Int, to activity: Activity, _ fixture: DeviceFixture, priority: Int = 10, from first: Int = 1
    ) throws {
        let token = try DeviceToken(bytes: try #require(activity.pushToken))
        for index in first..<(first + count) {
            fixture.device.receive(
                RemotePush(
                    token: token, pushType: .liveactivity, payload: update(1_767_258_000 + index, score: "\(index)"),
                    priority: priority))
        }
    }

    @Test("LA-BUDGET (9, U: 10 priority-10 updates an hour per activity): the 11th is throttled, the next hour fits")
    func priorityTenBudget() throws {
        let (fixture, activity) = try started()
        try pushUpdates(11, to: activity, fixture)
        #expect(activity.contentState["score"] == "10")
        let throttled = fixture.entries(.activityBudget)
        #expect(throttled.count == 1 && throttled.first?.kind == .dropped)
        #expect(throttled.first?.message.contains("10 an hour") == true)
        fixture.device.advance(by: 3600)
        try pushUpdates(1, to: activity, fixture, from: 12)
        #expect(activity.contentState["score"] == "12")
    }

    @Test("LA-BUDGET (9, U): priority 5 is not counted")
    func priorityFiveNotCounted() throws {
        let (fixture, activity) = try started()
        try pushUpdates(30, to: activity, fixture, priority: 5)
        #expect(activity.contentState["score"] == "30")
        #expect(fixture.entries(.activityBudget).isEmpty)
    }

    @Test("LA-BUDGET (9, U: 230 with frequent updates): frequent updates raise it; the user's switch takes it back")
    func frequentUpdates() throws {
        let configuration = AppConfiguration(
            bundleID: DeviceFixture.bundleID, supportsLiveActivitiesFrequentUpdates: true)
        let (fixture, activity) = try started(configuration)
        try pushUpdates(20, to: activity, fixture)
        #expect(activity.contentState["score"] == "20" && fixture.entries(.activityBudget).isEmpty)
        fixture.app.frequentPushesEnabled = false
        try pushUpdates(1, to: activity, fixture, from: 21)
        #expect(activity.contentState["score"] == "20")
        #expect(fixture.entries(.activityBudget).count == 1)
    }

    @Test("LA-BUDGET (9, U): an end over the budget still ends the activity")
    func endNotThrottled() throws {
        let (fixture, activity) = try started()
        try pushUpdates(10, to: activity, fixture)
        fixture.device.receive(
            RemotePush(
                token: try DeviceToken(bytes: try #require(activity.pushToken)), pushType: .liveactivity,
                payload: Array(#"{"aps":{"event":"end","timestamp":1767259000}}"#.utf8)))
        #expect(activity.activityState == .ended)
    }

    @Test("LA-CHANNEL (9, D): an activity on a channel gets no update token; a channel id not base64 fails the start")
    func channelActivity() throws {
        let (fixture, activity) = try started(pushType: .channel(Self.channel))
        #expect(activity.channelID == Self.channel && activity.pushToken == nil)
        #expect(fixture.app.subscribedChannels == [Self.channel])
        #expect(fixture.entries(.activityUpdateToken).isEmpty)
        #expect(throws: ActivityAuthorizationError.invalidChannelID("not base64!")) {
            try fixture.app.requestActivity(
                attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject(),
                pushType: .channel("not base64!"))
        }
        #expect(fixture.app.activities.count == 1)
        fixture.app.endActivity(activity, dismissalPolicy: .immediate)
        #expect(fixture.app.subscribedChannels == [])
    }

    @Test("LA-CHANNEL (9, D): a start push with input-push-channel starts an activity on the channel")
    func startPushWithChannel() throws {
        let fixture = DeviceFixture.ready()
        let token = fixture.app.pushToStartToken(forAttributesType: Self.type)
        let start = #"""
            {"aps":{"event":"start","timestamp":1767258000,"attributes-type":"ScoreAttributes","attributes":{},
            "content-state":{"score":"0-0"},"alert":{"title":"Kick-off"},"input-push-channel":"dHN0LXNyY2gtY2hubA=="}}
            """#
        fixture.device.receive(
            RemotePush(token: try DeviceToken(bytes: token), pushType: .liveactivity, payload: Array(start.utf8)))
        let activity = try #require(fixture.app.activities.first)
        #expect(activity.channelID == Self.channel && activity.pushToken == nil)
    }

    @Test("LA-BROADCAST (9, D): a broadcast reaches every activity on its channel, in timestamp order, within budget")
    func broadcastReachesActivities() throws {
        let (fixture, first) = try started(pushType: .channel(Self.channel))
        let second = try fixture.app.requestActivity(
            attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject(),
            pushType: .channel(Self.channel))
        let other = try fixture.app.requestActivity(
            attributesType: Self.type, attributes: JSONObject(), contentState: JSONObject())
        func broadcast(_ timestamp: Int, _ score: String, channel: String = Self.channel) throws {
            fixture.device.receive(
                RemotePush(
                    token: try fixture.token, pushType: .liveactivity, payload: update(timestamp, score: score),
                    channelID: channel))
        }
        try broadcast(1_767_258_100, "1-0")
        try broadcast(1_767_258_050, "0-0")
        #expect(first.contentState["score"] == "1-0" && second.contentState["score"] == "1-0")
        #expect(other.contentState["score"] == nil)
        #expect(fixture.entries(.activityOrder).count == 2)
        try broadcast(1_767_258_200, "2-0", channel: "b3RoZXItY2hhbm5lbA==")
        #expect(fixture.entries(.activityBroadcast).last?.message.contains("no activity") == true)
        for index in 0..<10 { try broadcast(1_767_258_300 + index, "\(index)") }
        #expect(first.contentState["score"] == "8" && fixture.entries(.activityBudget).count == 2)
    }

    @Test("LA-BROADCAST (9, D): a broadcast cannot start an activity")
    func broadcastCannotStart() throws {
        let (fixture, _) = try started(pushType: .channel(Self.channel))
        let start =
            #"{"aps":{"event":"start","timestamp":1767258100,"attributes-type":"ScoreAttributes","attributes":{},"content-state":{},"alert":{"title":"x"}}}"#
        fixture.device.receive(
            RemotePush(
                token: try fixture.token, pushType: .liveactivity, payload: Array(start.utf8), channelID: Self.channel))
        #expect(fixture.app.activities.count == 1)
        #expect(fixture.entries(.activityBroadcast).first?.message.contains("cannot start") == true)
    }
}
