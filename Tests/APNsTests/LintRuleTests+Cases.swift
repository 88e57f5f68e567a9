import APNs
import Testing

// The cases for the payload as a whole, the headers and the device token, and the aps dictionary.
// Each fix is the one change that repairs the broken request.

extension LintRuleCase {
    static var payloadCases: [LintRuleCase] {
        [
            LintRuleCase(
                "PAYLOAD-EMPTY", .error, at: "payload", mentions: "empty", "no body",
                broken: alert(""), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi"}}"#) }),
            LintRuleCase(
                "PAYLOAD-JSON", .error, at: "payload", mentions: "line 1, column 22", "trailing comma",
                broken: alert(#"{"aps":{"alert":"Hi",}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi"}}"#) }),
            LintRuleCase(
                "PAYLOAD-JSON", .error, at: "payload", mentions: "'''", "single quotes",
                broken: alert(#"{"aps":{"alert":'Hi'}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi"}}"#) }),
            LintRuleCase(
                "PAYLOAD-JSON", .error, at: "payload", mentions: "line 1, column 18", "invalid UTF-8",
                broken: LintRequest(payload: bytes(#"{"aps":{"alert":"H"#) + [0xFF] + bytes(#""}}"#), pushType: "alert"),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"H"#) + [0xC3, 0xBF] + bytes(#""}}"#) }),
            LintRuleCase(
                "PAYLOAD-NOT-OBJECT", .error, at: "payload", mentions: "an array", "payload wrapped in an array",
                broken: alert(#"[{"aps":{"alert":"Hi"}}]"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi"}}"#) }),
            LintRuleCase(
                "PAYLOAD-TOO-LARGE", .error, at: "payload", mentions: "4097", "alert over 4096 bytes",
                broken: alert(padded(#"{"aps":{"alert":"Hi"},"pad":""#, to: 4097)),
                fix: { $0.payload = bytes(padded(#"{"aps":{"alert":"Hi"},"pad":""#, to: 4096)) }),
            LintRuleCase(
                "PAYLOAD-TOO-LARGE", .error, at: "payload", mentions: "5121", "voip over 5120 bytes",
                broken: request(padded(#"{"call-id":"4f1d2c","pad":""#, to: 5121), type: "voip", topic: "com.example.phone.voip", priority: "10"),
                fix: { $0.payload = bytes(padded(#"{"call-id":"4f1d2c","pad":""#, to: 5120)) }),
            LintRuleCase(
                "PAYLOAD-TOO-LARGE", .error, at: "payload", mentions: "4097", "alert-sized payload is not voip",
                broken: request(padded(#"{"call-id":"4f1d2c","pad":""#, to: 4097), type: "alert", topic: "com.example.phone", priority: "10"),
                fix: {
                    $0.pushType = "voip"
                    $0.topic = "com.example.phone.voip"
                }),
            LintRuleCase(
                "PAYLOAD-TOO-LARGE", .error, at: "payload", mentions: "4097", "Live Activity to a device over 4096 bytes",
                broken: liveActivity(padded(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"s":1}},"pad":""#, to: 4097)),
                fix: { $0.payload = bytes(padded(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"s":1}},"pad":""#, to: 4096)) }),
            LintRuleCase(
                "PAYLOAD-TOO-LARGE", .error, at: "payload", mentions: "5121", "broadcast over 5120 bytes",
                broken: broadcast(padded(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"s":1}},"pad":""#, to: 5121)),
                fix: { $0.payload = bytes(padded(#"{"aps":{"timestamp":1767226500,"event":"update","content-state":{"s":1}},"pad":""#, to: 5120)) }),
            LintRuleCase(
                "PAYLOAD-TOO-LARGE", .error, at: "payload", mentions: "4097", "simulator file over 4096 bytes",
                broken: request(padded(#"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"Hi"},"pad":""#, to: 4097), destination: .simulatorFile),
                fix: { $0.payload = bytes(padded(#"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"Hi"},"pad":""#, to: 4096)) }),
            LintRuleCase(
                "PAYLOAD-NO-APS", .error, at: "aps", mentions: "aps", "alert keys at the top level",
                broken: alert(#"{"alert":"Hi","badge":1}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","badge":1}}"#) }),
            LintRuleCase(
                "PAYLOAD-NO-APS", .error, at: "aps", mentions: "aps", "widgets without aps",
                broken: request(#"{"content-changed":true}"#, type: "widgets", topic: "com.example.weather.push-type.widgets"),
                fix: { $0.payload = bytes(#"{"aps":{"content-changed":true}}"#) }),
            LintRuleCase(
                "PAYLOAD-DUPLICATE-KEY", .warning, at: "aps.badge", mentions: "'badge'", "badge twice in aps",
                broken: alert(#"{"aps":{"alert":"Hi","badge":1,"badge":2}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","badge":2}}"#) }),
            LintRuleCase(
                "PAYLOAD-DUPLICATE-KEY", .warning, at: "aps.alert.title", mentions: "'title'", "title twice in aps.alert",
                broken: alert(#"{"aps":{"alert":{"title":"A","body":"B","title":"C"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"body":"B","title":"C"}}}"#) }),
            LintRuleCase(
                "PAYLOAD-DUPLICATE-KEY", .warning, at: "aps", mentions: "'aps'", "aps twice",
                broken: alert(#"{"aps":{"alert":"A"},"aps":{"alert":"B"}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"B"}}"#) }),
        ]
    }

    static var headerCases: [LintRuleCase] {
        let hi = #"{"aps":{"alert":"Hi"}}"#
        let call = #"{"call-id":"4f1d2c"}"#
        let canonicalID = "123e4567-e89b-12d3-a456-4266554400a0"
        return [
            LintRuleCase(
                "HDR-PUSH-TYPE", .error, at: "apns-push-type", mentions: "'Alert'", "capitalised",
                broken: request(hi, type: "Alert", topic: "com.example.app"), fix: { $0.pushType = "alert" }),
            LintRuleCase(
                "HDR-PUSH-TYPE", .error, at: "apns-push-type", mentions: "'live-activity'", "misspelt",
                broken: request(#"{"aps":{"event":"end","timestamp":1767232800}}"#, type: "live-activity", topic: "com.example.sports.push-type.liveactivity"),
                fix: { $0.pushType = "liveactivity" }),
            LintRuleCase(
                "HDR-PRIORITY", .error, at: "apns-priority", mentions: "'7'", "undocumented number",
                broken: request(hi, type: "alert", priority: "7"), fix: { $0.priority = "5" }),
            LintRuleCase(
                "HDR-PRIORITY", .error, at: "apns-priority", mentions: "'high'", "a word",
                broken: request(hi, type: "alert", priority: "high"), fix: { $0.priority = "10" }),
            LintRuleCase(
                "HDR-PRIORITY-TYPE", .warning, at: "apns-priority", mentions: "not 5", "voip at 5",
                broken: request(call, type: "voip", topic: "com.example.phone.voip", priority: "5"), fix: { $0.priority = "10" }),
            LintRuleCase(
                "HDR-PRIORITY-TYPE", .warning, at: "apns-priority", mentions: "not 1", "alert at 1",
                broken: request(hi, type: "alert", topic: "com.example.app", priority: "1"), fix: { $0.priority = "5" }),
            LintRuleCase(
                "LA-PRIORITY", .error, at: "apns-priority", mentions: "not 1", "Live Activity at 1",
                broken: request(
                    #"{"aps":{"event":"end","timestamp":1767232800}}"#, type: "liveactivity",
                    topic: "com.example.sports.push-type.liveactivity", priority: "1"),
                fix: { $0.priority = "5" }),
            LintRuleCase(
                "HDR-EXPIRATION", .error, at: "apns-expiration", mentions: "'-1'", "negative",
                broken: request(hi, type: "alert", expiration: "-1"), fix: { $0.expiration = "0" }),
            LintRuleCase(
                "HDR-EXPIRATION", .error, at: "apns-expiration", mentions: "'2026-01-01T01:00:00Z'", "ISO 8601 date",
                broken: request(hi, type: "alert", expiration: "2026-01-01T01:00:00Z"), fix: { $0.expiration = "1767229200" }),
            LintRuleCase(
                "HDR-EXPIRATION-MS", .warning, at: "apns-expiration", mentions: "1767229200000", "milliseconds",
                broken: request(hi, type: "alert", expiration: "1767229200000"), fix: { $0.expiration = "1767229200" }),
            LintRuleCase(
                "HDR-EXPIRATION-PAST", .warning, at: "apns-expiration", mentions: "1767222000", "an hour ago",
                broken: request(hi, type: "alert", expiration: "1767222000", now: now), fix: { $0.expiration = "1767229200" }),
            LintRuleCase(
                "HDR-EXPIRATION-FAR", .info, at: "apns-expiration", mentions: "1769904000", "31 days ahead",
                broken: request(hi, type: "alert", expiration: String(now + 31 * 86400), now: now),
                fix: { $0.expiration = String(now + 29 * 86400) }),
            LintRuleCase(
                "HDR-PTT-EXPIRATION", .warning, at: "apns-expiration", mentions: "1767229200", "push-to-talk stored for an hour",
                broken: request(#"{"channel":"ops"}"#, type: "pushtotalk", topic: "com.example.radio.voip-ptt", priority: "10", expiration: "1767229200", now: now),
                fix: { $0.expiration = "0" }),
            LintRuleCase(
                "HDR-COLLAPSE-ID", .error, at: "apns-collapse-id", mentions: "66 bytes", "33 characters but 66 bytes",
                broken: request(hi, type: "alert", collapseID: String(repeating: "é", count: 33)),
                fix: { $0.collapseID = String(repeating: "é", count: 32) }),
            LintRuleCase(
                "HDR-COLLAPSE-ID", .error, at: "apns-collapse-id", mentions: "65 bytes", "65 ASCII bytes",
                broken: request(hi, type: "alert", collapseID: String(repeating: "x", count: 65)),
                fix: { $0.collapseID = String(repeating: "x", count: 64) }),
            LintRuleCase(
                "HDR-COLLAPSE-ID", .error, at: "apns-collapse-id", mentions: "empty", "empty",
                broken: request(hi, type: "alert", collapseID: ""), fix: { $0.collapseID = "order-1042" }),
            LintRuleCase(
                "HDR-APNS-ID", .error, at: "apns-id", mentions: "'123e4567e89b12d3a4564266554400a0'", "no dashes",
                broken: request(hi, type: "alert", apnsID: "123e4567e89b12d3a4564266554400a0"), fix: { $0.apnsID = canonicalID }),
            LintRuleCase(
                "HDR-APNS-ID", .error, at: "apns-id", mentions: "'{123e4567-e89b-12d3-a456-4266554400a0}'", "braces",
                broken: request(hi, type: "alert", apnsID: "{\(canonicalID)}"), fix: { $0.apnsID = canonicalID }),
            LintRuleCase(
                "HDR-APNS-ID-CASE", .info, at: "apns-id", mentions: "'123E4567-E89B-12D3-A456-4266554400A0'", "uppercase",
                broken: request(hi, type: "alert", apnsID: canonicalID.uppercased()), fix: { $0.apnsID = canonicalID }),
            LintRuleCase(
                "HDR-TOPIC", .error, at: "apns-topic", mentions: "'com.example app'", "a space",
                broken: request(hi, type: "alert", topic: "com.example app"), fix: { $0.topic = "com.example.app" }),
            LintRuleCase(
                "HDR-TOPIC", .error, at: "apns-topic", mentions: nil, "empty",
                broken: request(hi, type: "alert", topic: ""), fix: { $0.topic = "com.example.app" }),
            LintRuleCase(
                "HDR-TOPIC-SUFFIX", .error, at: "apns-topic", mentions: "'com.example.sports'", "Live Activity to the bare bundle id",
                broken: liveActivity(#"{"aps":{"timestamp":1767232800,"event":"end"}}"#, topic: "com.example.sports"),
                fix: { $0.topic = "com.example.sports.push-type.liveactivity" }),
            LintRuleCase(
                "HDR-TOPIC-SUFFIX", .error, at: "apns-topic", mentions: "'com.example.app.voip'", "alert to the voip topic",
                broken: request(hi, type: "alert", topic: "com.example.app.voip"), fix: { $0.topic = "com.example.app" }),
            LintRuleCase(
                "HDR-TOPIC-SUFFIX", .error, at: "apns-topic", mentions: "'com.example.radio.voip'", "push-to-talk to the voip topic",
                broken: request(#"{"channel":"ops"}"#, type: "pushtotalk", topic: "com.example.radio.voip", priority: "10", expiration: "0"),
                fix: { $0.topic = "com.example.radio.voip-ptt" }),
            LintRuleCase(
                "TOKEN-FORMAT", .error, at: "token", mentions: "63 hex digits", "odd number of digits",
                broken: request(hi, type: "alert", token: hex(63)), fix: { $0.token = hex(64) }),
            LintRuleCase(
                "TOKEN-FORMAT", .error, at: "token", mentions: "'<'", "NSData description",
                broken: request(hi, type: "alert", token: "<\(hex(8)) \(hex(8))>"), fix: { $0.token = hex(16) + hex(48) }),
            LintRuleCase(
                "TOKEN-LENGTH", .info, at: "token", mentions: "62 hex digits", "cut short",
                broken: request(hi, type: "alert", token: hex(62)), fix: { $0.token = hex(64) }),
            LintRuleCase(
                "TOKEN-LENGTH", .info, at: "token", mentions: "16 hex digits", "longer tokens are fine",
                broken: liveActivity(#"{"aps":{"timestamp":1767232800,"event":"end"}}"#, token: hex(16)),
                fix: { $0.token = hex(160) }),
        ]
    }

    static var apsCases: [LintRuleCase] {
        [
            LintRuleCase(
                "APS-NOT-OBJECT", .error, at: "aps", mentions: "a string", "aps as a string",
                broken: alert(#"{"aps":"Hi"}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi"}}"#) }),
            LintRuleCase(
                "APS-TYPE", .error, at: "aps.badge", mentions: #""3""#, "badge as a string",
                broken: alert(#"{"aps":{"alert":"Hi","badge":"3"}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","badge":3}}"#) }),
            LintRuleCase(
                "APS-TYPE", .error, at: "aps.alert.loc-args[1]", mentions: "(3)", "a number among loc-args",
                broken: alert(#"{"aps":{"alert":{"loc-key":"SCORE","loc-args":["Jenna",3]}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"loc-key":"SCORE","loc-args":["Jenna","3"]}}}"#) }),
            LintRuleCase(
                "APS-TYPE", .error, at: "aps.alert.title", mentions: #"{"loc-key":"INVITE"}"#, "Live Activity localized title on an alert",
                broken: alert(#"{"aps":{"alert":{"title":{"loc-key":"INVITE"},"body":"Jenna invites you"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"title-loc-key":"INVITE","body":"Jenna invites you"}}}"#) }),
            LintRuleCase(
                "APS-TYPE", .error, at: "aps.content-available", mentions: #""1""#, "content-available as a string",
                broken: background(#"{"aps":{"content-available":"1"}}"#), fix: { $0.payload = bytes(#"{"aps":{"content-available":1}}"#) }),
            LintRuleCase(
                "APS-TYPE", .error, at: "aps.sound.volume", mentions: #""loud""#, "sound volume as a word",
                broken: alert(#"{"aps":{"alert":"Hi","sound":{"name":"default","volume":"loud"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","sound":{"name":"default","volume":1}}}"#) }),
            LintRuleCase(
                "APS-UNKNOWN-KEY", .warning, at: "aps.order-id", mentions: "'order-id'", "custom key inside aps",
                broken: alert(#"{"aps":{"alert":"Hi","order-id":"A-1042"}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi"},"order-id":"A-1042"}"#) }),
            LintRuleCase(
                "APS-UNKNOWN-KEY", .warning, at: "aps.content_available", mentions: "'content_available'", "underscore for hyphen",
                broken: alert(#"{"aps":{"alert":"Hi","content_available":1}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","content-available":1}}"#) }),
            LintRuleCase(
                "APS-UNKNOWN-KEY", .warning, at: "aps.sound.loudness", mentions: "'loudness'", "unknown sound key",
                broken: alert(#"{"aps":{"alert":"Hi","sound":{"name":"default","loudness":1}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","sound":{"name":"default","volume":1}}}"#) }),
            LintRuleCase(
                "APS-ALERT-UNKNOWN-KEY", .warning, at: "aps.alert.message", mentions: "'message'", "message for body",
                broken: alert(#"{"aps":{"alert":{"title":"Shipped","message":"Your order is on its way"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"title":"Shipped","body":"Your order is on its way"}}}"#) }),
            LintRuleCase(
                "APS-ALERT-UNKNOWN-KEY", .warning, at: "aps.alert.sound", mentions: "'sound'", "sound inside an alert push's alert",
                broken: alert(#"{"aps":{"alert":{"title":"Shipped","sound":"default"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"title":"Shipped"},"sound":"default"}}"#) }),
            LintRuleCase(
                "APS-LEGACY-KEY", .info, at: "aps.alert.action-loc-key", mentions: "'action-loc-key'", "action-loc-key",
                broken: alert(#"{"aps":{"alert":{"body":"New message","action-loc-key":"VIEW"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"body":"New message"}}}"#) }),
            LintRuleCase(
                "APS-LEGACY-KEY", .info, at: "aps.alert.summary-arg", mentions: "'summary-arg'", "summary-arg",
                broken: alert(#"{"aps":{"alert":{"body":"New message","summary-arg":"Ana"},"thread-id":"ana"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"body":"New message"},"thread-id":"ana"}}"#) }),
            LintRuleCase(
                "APS-NOTHING-TO-SHOW", .warning, at: "aps", mentions: nil, "only a thread-id",
                broken: alert(#"{"aps":{"thread-id":"t1"}}"#), fix: { $0.payload = bytes(#"{"aps":{"thread-id":"t1","badge":1}}"#) }),
            LintRuleCase(
                "APS-NOTHING-TO-SHOW", .warning, at: "aps", mentions: nil, "empty aps",
                broken: alert(#"{"aps":{}}"#), fix: { $0.payload = bytes(#"{"aps":{"sound":"default"}}"#) }),
            LintRuleCase(
                "APS-EMPTY-ALERT", .warning, at: "aps.alert", mentions: nil, "empty title",
                broken: alert(#"{"aps":{"alert":{"title":""}}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":{"title":"Hi"}}}"#) }),
            LintRuleCase(
                "APS-EMPTY-ALERT", .warning, at: "aps.alert", mentions: nil, "empty string, with a sound",
                broken: alert(#"{"aps":{"alert":"","sound":"default"}}"#), fix: { $0.payload = bytes(#"{"aps":{"sound":"default"}}"#) }),
            LintRuleCase(
                "APS-SILENT-AS-ALERT", .warning, at: "apns-push-type", mentions: "content-available", "silent payload as alert",
                broken: alert(#"{"aps":{"content-available":1}}"#),
                fix: {
                    $0.pushType = "background"
                    $0.priority = "5"
                }),
            LintRuleCase(
                "APS-BG-ALERT", .warning, at: "aps.badge", mentions: "'badge'", "badge on a background push",
                broken: background(#"{"aps":{"content-available":1,"badge":3}}"#), fix: { $0.payload = bytes(#"{"aps":{"content-available":1}}"#) }),
            LintRuleCase(
                "APS-BG-ALERT", .warning, at: "aps.alert", mentions: "'alert'", "alert on a background push",
                broken: background(#"{"aps":{"content-available":1,"alert":"Synced"}}"#), fix: { $0.payload = bytes(#"{"aps":{"content-available":1}}"#) }),
            LintRuleCase(
                "APS-BG-CONTENT-AVAILABLE", .error, at: "aps.content-available", mentions: "missing", "missing",
                broken: background(#"{"aps":{},"sync":{"inbox":42}}"#), fix: { $0.payload = bytes(#"{"aps":{"content-available":1},"sync":{"inbox":42}}"#) }),
            LintRuleCase(
                "APS-BG-CONTENT-AVAILABLE", .error, at: "aps.content-available", mentions: "is true", "true instead of 1",
                broken: background(#"{"aps":{"content-available":true}}"#), fix: { $0.payload = bytes(#"{"aps":{"content-available":1}}"#) }),
            LintRuleCase(
                "APS-BG-PRIORITY", .error, at: "apns-priority", mentions: "not 10", "priority 10",
                broken: request(#"{"aps":{"content-available":1}}"#, type: "background", topic: "com.example.mail", priority: "10"),
                fix: { $0.priority = "5" }),
            LintRuleCase(
                "APS-BG-PRIORITY", .error, at: "apns-priority", mentions: "not 1", "priority 1",
                broken: request(#"{"aps":{"content-available":1}}"#, type: "background", topic: "com.example.mail", priority: "1"),
                fix: { $0.priority = "5" }),
            LintRuleCase(
                "APS-BG-PRIORITY", .error, at: "apns-priority", mentions: "10", "no priority: APNs assumes 10",
                broken: request(#"{"aps":{"content-available":1}}"#, type: "background", topic: "com.example.mail"),
                fix: { $0.priority = "5" }),
            LintRuleCase(
                "APS-CONTENT-AVAILABLE-VALUE", .warning, at: "aps.content-available", mentions: "is 0", "zero",
                broken: alert(#"{"aps":{"alert":"Hi","content-available":0}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","content-available":1}}"#) }),
            LintRuleCase(
                "APS-MUTABLE-CONTENT-VALUE", .warning, at: "aps.mutable-content", mentions: "is 2", "two",
                broken: alert(#"{"aps":{"alert":"Hi","mutable-content":2}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","mutable-content":1}}"#) }),
            LintRuleCase(
                "APS-MUTABLE-NO-ALERT", .warning, at: "aps.mutable-content", mentions: "mutable-content", "sound only",
                broken: alert(#"{"aps":{"sound":"default","mutable-content":1}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"title":"New photo"},"sound":"default","mutable-content":1}}"#) }),
            LintRuleCase(
                "APS-MUTABLE-NO-ALERT", .warning, at: "aps.mutable-content", mentions: "mutable-content", "silent push",
                broken: background(#"{"aps":{"content-available":1,"mutable-content":1}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"content-available":1}}"#) }),
            LintRuleCase(
                "APS-BADGE-NEGATIVE", .warning, at: "aps.badge", mentions: "is -1", "minus one to clear",
                broken: alert(#"{"aps":{"alert":"Hi","badge":-1}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","badge":0}}"#) }),
            LintRuleCase(
                "APS-SOUND-VOLUME", .warning, at: "aps.sound.volume", mentions: "1.5", "above 1",
                broken: alert(#"{"aps":{"alert":"Low","sound":{"critical":1,"name":"default","volume":1.5},"interruption-level":"critical"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Low","sound":{"critical":1,"name":"default","volume":1.0},"interruption-level":"critical"}}"#) }),
            LintRuleCase(
                "APS-SOUND-VOLUME", .warning, at: "aps.sound.volume", mentions: "80", "a percentage",
                broken: alert(#"{"aps":{"alert":"Hi","sound":{"name":"default","volume":80}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","sound":{"name":"default","volume":0.8}}}"#) }),
            LintRuleCase(
                "APS-CRITICAL-SOUND-LEVEL", .warning, at: "aps.interruption-level", mentions: "'active'", "critical sound, active level",
                broken: alert(#"{"aps":{"alert":"Low","sound":{"critical":1,"name":"default"},"interruption-level":"active"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Low","sound":{"critical":1,"name":"default"},"interruption-level":"critical"}}"#) }),
            LintRuleCase(
                "APS-CRITICAL-SOUND-LEVEL", .warning, at: "aps.interruption-level", mentions: "missing", "critical sound, no level",
                broken: alert(#"{"aps":{"alert":"Low","sound":{"critical":1,"name":"default"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Low","sound":{"critical":1,"name":"default"},"interruption-level":"critical"}}"#) }),
            LintRuleCase(
                "APS-CRITICAL-ENTITLEMENT", .info, at: "aps.interruption-level", mentions: "critical", "critical level",
                broken: alert(#"{"aps":{"alert":"Low","interruption-level":"critical"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Low","interruption-level":"active"}}"#) }),
            LintRuleCase(
                "APS-CRITICAL-ENTITLEMENT", .info, at: "aps.sound", mentions: "critical", "critical sound",
                broken: alert(#"{"aps":{"alert":"Low","sound":{"critical":1,"name":"default"},"interruption-level":"critical"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Low","sound":{"name":"default"}}}"#) }),
            LintRuleCase(
                "APS-TIME-SENSITIVE", .info, at: "aps.interruption-level", mentions: "time-sensitive", "time-sensitive level",
                broken: alert(#"{"aps":{"alert":"Your ride is here","interruption-level":"time-sensitive"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Your ride is here","interruption-level":"active"}}"#) }),
            LintRuleCase(
                "APS-INTERRUPTION-LEVEL", .warning, at: "aps.interruption-level", mentions: "'urgent'", "made-up level",
                broken: alert(#"{"aps":{"alert":"Hi","interruption-level":"urgent"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","interruption-level":"active"}}"#) }),
            LintRuleCase(
                "APS-INTERRUPTION-LEVEL", .warning, at: "aps.interruption-level", mentions: "'timeSensitive'", "Swift spelling",
                broken: alert(#"{"aps":{"alert":"Hi","interruption-level":"timeSensitive"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","interruption-level":"passive"}}"#) }),
            LintRuleCase(
                "APS-PASSIVE-SOUND", .warning, at: "aps.sound", mentions: "passive", "passive with a sound",
                broken: alert(#"{"aps":{"alert":"Hi","sound":"default","interruption-level":"passive"}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","interruption-level":"passive"}}"#) }),
            LintRuleCase(
                "APS-RELEVANCE-RANGE", .warning, at: "aps.relevance-score", mentions: "is 75", "above 1 on an alert",
                broken: alert(#"{"aps":{"alert":"Hi","relevance-score":75}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","relevance-score":0.75}}"#) }),
            LintRuleCase(
                "APS-RELEVANCE-RANGE", .warning, at: "aps.relevance-score", mentions: "is -0.1", "negative",
                broken: alert(#"{"aps":{"alert":"Hi","relevance-score":-0.1}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi","relevance-score":0}}"#) }),
            LintRuleCase(
                "APS-LOC-ARGS-NO-KEY", .warning, at: "aps.alert.loc-args", mentions: "'loc-args'", "loc-args without loc-key",
                broken: alert(#"{"aps":{"alert":{"title":"Invite","loc-args":["Jenna"]}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"title":"Invite","loc-key":"INVITE_FORMAT","loc-args":["Jenna"]}}}"#) }),
            LintRuleCase(
                "APS-LOC-ARGS-NO-KEY", .warning, at: "aps.alert.title-loc-args", mentions: "'title-loc-args'", "title-loc-args without title-loc-key",
                broken: alert(#"{"aps":{"alert":{"title-loc-args":["Jenna"],"body":"Join"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"title-loc-key":"INVITE_TITLE","title-loc-args":["Jenna"],"body":"Join"}}}"#) }),
            LintRuleCase(
                "APS-LOC-ARGS-NO-KEY", .warning, at: "aps.alert.subtitle-loc-args", mentions: "'subtitle-loc-args'", "subtitle-loc-args without subtitle-loc-key",
                broken: alert(#"{"aps":{"alert":{"subtitle-loc-args":["Jenna"],"body":"Join"}}}"#),
                fix: { $0.payload = bytes(#"{"aps":{"alert":{"subtitle-loc-key":"FROM","subtitle-loc-args":["Jenna"],"body":"Join"}}}"#) }),
            LintRuleCase(
                "APS-CONTENT-CHANGED", .error, at: "aps.content-changed", mentions: "widgets", "widgets with false",
                broken: request(#"{"aps":{"content-changed":false}}"#, type: "widgets", topic: "com.example.weather.push-type.widgets"),
                fix: { $0.payload = bytes(#"{"aps":{"content-changed":true}}"#) }),
            LintRuleCase(
                "APS-CONTENT-CHANGED", .error, at: "aps.content-changed", mentions: "controls", "controls with an empty aps",
                broken: request(#"{"aps":{}}"#, type: "controls", topic: "com.example.home.push-type.controls"),
                fix: { $0.payload = bytes(#"{"aps":{"content-changed":true}}"#) }),
            LintRuleCase(
                "APS-CONTENT-CHANGED-IGNORED", .info, at: "aps.content-changed", mentions: "content-changed", "on an alert",
                broken: alert(#"{"aps":{"alert":"Hi","content-changed":true}}"#), fix: { $0.payload = bytes(#"{"aps":{"alert":"Hi"}}"#) }),
        ]
    }
}
