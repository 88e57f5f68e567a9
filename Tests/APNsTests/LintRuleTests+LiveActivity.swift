import APNs
import Testing

// The cases for Live Activities, broadcasts, MDM and simulator files.

extension LintRuleCase {
    /// A Live Activity push to com.example.sports's Live Activity topic with priority 10.
    static func liveActivity(_ json: String, topic: String = "com.example.sports.push-type.liveactivity", token: String? = nil) -> LintRequest {
        request(json, type: "liveactivity", topic: topic, priority: "10", token: token)
    }

    /// A Live Activity push to a broadcast channel of com.example.sports.
    static func broadcast(_ json: String) -> LintRequest {
        request(json, type: "liveactivity", topic: "com.example.sports", priority: "10", destination: .broadcast)
    }

    /// The members of a valid update, without the closing braces.
    static let update = #"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"homeScore":1,"awayScore":0}"#
    /// The members of a valid start, without the closing braces.
    static let start =
        #"{"aps":{"timestamp":1767225600,"event":"start","content-state":{"homeScore":0,"awayScore":0},"#
        + #""attributes-type":"MatchAttributes","attributes":{"homeTeam":"Lions","awayTeam":"Bears"},"#
        + #""alert":{"title":"Kick-off","body":"Lions vs Bears has started"}"#

    static var liveActivityCases: [LintRuleCase] {
        [
            LintRuleCase(
                "LA-EVENT", .error, at: "aps.event", mentions: "'begin'", "begin for start",
                broken: liveActivity(#"{"aps":{"timestamp":1767226500,"event":"begin","content-state":{"homeScore":1}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"homeScore":1}}}"#) }),
            LintRuleCase(
                "LA-EVENT", .error, at: "aps.event", mentions: "missing", "no event",
                broken: liveActivity(#"{"aps":{"timestamp":1767226500,"content-state":{"homeScore":1}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"homeScore":1}}}"#) }),
            LintRuleCase(
                "LA-TIMESTAMP", .error, at: "aps.timestamp", mentions: "missing", "no timestamp",
                broken: liveActivity(#"{"aps":{"event":"update","content-state":{"homeScore":1}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"homeScore":1}}}"#) }),
            LintRuleCase(
                "LA-MILLISECONDS", .error, at: "aps.timestamp", mentions: "1767226500000", "timestamp in milliseconds",
                broken: liveActivity(#"{"aps":{"timestamp":1767226500000,"event":"update","content-state":{"homeScore":1}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"homeScore":1}}}"#) }),
            LintRuleCase(
                "LA-MILLISECONDS", .error, at: "aps.stale-date", mentions: "1767230100000", "stale-date in milliseconds",
                broken: liveActivity(update + #","stale-date":1767230100000}}"#), fix: { $0.payload = bytes(update + #","stale-date":1767230100}}"#) }),
            LintRuleCase(
                "LA-MILLISECONDS", .error, at: "aps.dismissal-date", mentions: "1767236400000", "dismissal-date in milliseconds",
                broken: liveActivity(#"{"aps":{"timestamp":1767232800,"event":"end","dismissal-date":1767236400000}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767232800,"event":"end","dismissal-date":1767236400}}"#) }),
            LintRuleCase(
                "LA-CONTENT-STATE", .error, at: "aps.content-state", mentions: "update", "update without a state",
                broken: liveActivity(#"{"aps":{"timestamp":1767226500,"event":"update","alert":{"title":"Goal!","body":"1-0"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"homeScore":1},"alert":{"title":"Goal!","body":"1-0"}}}"#) }),
            LintRuleCase(
                "LA-CONTENT-STATE", .error, at: "aps.content-state", mentions: "start", "start without a state",
                broken: liveActivity(start.replacingFirst(#""content-state":{"homeScore":0,"awayScore":0},"#, with: "") + "}}"),
                fix: { $0.payload = bytes(start + "}}") }),
            LintRuleCase(
                "LA-START-ATTRIBUTES", .error, at: "aps.attributes-type", mentions: "attributes-type", "no attributes-type",
                broken: liveActivity(start.replacingFirst(#""attributes-type":"MatchAttributes","#, with: "") + "}}"),
                fix: { $0.payload = bytes(start + "}}") }),
            LintRuleCase(
                "LA-START-ATTRIBUTES", .error, at: "aps.attributes", mentions: "attributes", "no attributes",
                broken: liveActivity(start.replacingFirst(#""attributes":{"homeTeam":"Lions","awayTeam":"Bears"},"#, with: "") + "}}"),
                fix: { $0.payload = bytes(start + "}}") }),
            LintRuleCase(
                "LA-START-ALERT", .error, at: "aps.alert", mentions: "alert", "start without an alert",
                broken: liveActivity(start.replacingFirst(#","alert":{"title":"Kick-off","body":"Lions vs Bears has started"}"#, with: "") + "}}"),
                fix: { $0.payload = bytes(start + "}}") }),
            LintRuleCase(
                "LA-START-ONLY", .warning, at: "aps.attributes-type", mentions: "'attributes-type'", "attributes-type on update",
                broken: liveActivity(update + #","attributes-type":"MatchAttributes"}}"#), fix: { $0.payload = bytes(update + "}}") }),
            LintRuleCase(
                "LA-START-ONLY", .warning, at: "aps.input-push-token", mentions: "'input-push-token'", "input-push-token on end",
                broken: liveActivity(#"{"aps":{"timestamp":1767232800,"event":"end","input-push-token":1}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767232800,"event":"end"}}"#) }),
            LintRuleCase(
                "LA-PUSH-INPUTS", .error, at: "aps.input-push-channel", mentions: "input-push-channel", "token and channel",
                broken: liveActivity(start + #","input-push-token":1,"input-push-channel":"dHVyYm8="}}"#),
                fix: { $0.payload = bytes(start + #","input-push-token":1}}"#) }),
            LintRuleCase(
                "LA-DISMISSAL-DATE", .warning, at: "aps.dismissal-date", mentions: "update", "dismissal-date on update",
                broken: liveActivity(#"{"aps":{"timestamp":1767232800,"event":"update","content-state":{"homeScore":2},"dismissal-date":1767236400}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"timestamp":1767232800,"event":"end","content-state":{"homeScore":2},"dismissal-date":1767236400}}"#) }),
            LintRuleCase(
                "LA-SOUND", .warning, at: "aps.sound", mentions: "aps.alert.sound", "sound beside the alert",
                broken: liveActivity(update + #","alert":{"title":"Goal!","body":"1-0"},"sound":"default"}}"#),
                fix: { $0.payload = bytes(update + #","alert":{"title":"Goal!","body":"1-0","sound":"default"}}}"#) }),
            LintRuleCase(
                "LA-KEYS-WRONG-TYPE", .warning, at: "aps.timestamp", mentions: "'timestamp'", "timestamp on an alert",
                broken: alert(#"{"aps":{"alert":"Goal!","timestamp":1767226500}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Goal!"}}"#) }),
            LintRuleCase(
                "LA-KEYS-WRONG-TYPE", .warning, at: "aps.content-state", mentions: "'content-state'", "Live Activity payload sent as alert",
                broken: alert(update + "}}"),
                fix: {
                    $0.pushType = "liveactivity"
                    $0.topic = "com.example.app.push-type.liveactivity"
                }),
        ]
    }

    static var destinationCases: [LintRuleCase] {
        let pushMagic = "1C2A8B4E-7F3D-4E0B-9E5A-2D6C8F1B3A70"
        let mdm = { (json: String) in request(json, type: "mdm", topic: "com.apple.mgmt.External.2f6c9d8e", priority: "10") }
        return [
            LintRuleCase(
                "BCAST-PUSH-TYPE", .error, at: "apns-push-type", mentions: "'alert'", "alert to a channel",
                broken: request(update + "}}", type: "alert", topic: "com.example.sports", priority: "10", destination: .broadcast),
                fix: { $0.pushType = "liveactivity" }),
            LintRuleCase(
                "BCAST-MISSING-PUSH-TYPE", .error, at: "apns-push-type", mentions: "missing", "no push type: APNs answers MissingPushType",
                broken: request(update + "}}", topic: "com.example.sports", priority: "10", destination: .broadcast),
                fix: { $0.pushType = "liveactivity" }),
            LintRuleCase(
                "BCAST-START", .error, at: "aps.event", mentions: "start", "start over a channel",
                broken: broadcast(start + "}}"), fix: { $0.payload = bytes(update + "}}") }),
            LintRuleCase(
                "BCAST-TOPIC", .error, at: "apns-topic", mentions: "'com.example.sports.push-type.liveactivity'", "push-type suffix",
                broken: request(update + "}}", type: "liveactivity", topic: "com.example.sports.push-type.liveactivity", priority: "10", destination: .broadcast),
                fix: { $0.topic = "com.example.sports" }),
            LintRuleCase(
                "MDM-PUSH-MAGIC", .error, at: "mdm", mentions: "PushMagic", "PushMagic under its own name",
                broken: mdm(#"{"PushMagic":"\#(pushMagic)"}"#), fix: { $0.payload = bytes(#"{"mdm":"\#(pushMagic)"}"#) }),
            LintRuleCase(
                "MDM-PUSH-MAGIC", .error, at: "mdm", mentions: "PushMagic", "empty",
                broken: mdm(#"{"mdm":""}"#), fix: { $0.payload = bytes(#"{"mdm":"\#(pushMagic)"}"#) }),
            LintRuleCase(
                "MDM-APS", .warning, at: "aps", mentions: "aps", "an empty aps beside mdm",
                broken: mdm(#"{"mdm":"\#(pushMagic)","aps":{}}"#), fix: { $0.payload = bytes(#"{"mdm":"\#(pushMagic)"}"#) }),
            LintRuleCase(
                "SIM-TARGET-BUNDLE", .error, at: "Simulator Target Bundle", mentions: "missing", "missing",
                broken: request(#"{"aps":{"alert":"Hi"}}"#, destination: .simulatorFile),
                fix: { $0.payload = bytes(#"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"Hi"}}"#) }),
            LintRuleCase(
                "SIM-TARGET-BUNDLE", .error, at: "Simulator Target Bundle", mentions: nil, "empty",
                broken: request(#"{"Simulator Target Bundle":"","aps":{"alert":"Hi"}}"#, destination: .simulatorFile),
                fix: { $0.payload = bytes(#"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"Hi"}}"#) }),
        ]
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced; traps if there is none, so a case
    /// cannot silently stop removing what it means to remove.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        precondition(contains(target), "\(target) not in \(self)")
        return replacing(target, with: replacement, maxReplacements: 1)
    }
}
