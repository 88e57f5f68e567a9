import APNs
import Foundation
import Testing

/// The typed payload model: the builder, decoding with errors that name the field's path, and
/// round trips that keep unknown keys.
@Suite(.timeLimit(.minutes(1)))
struct PayloadTests {
    /// An object from key-value pairs, in order.
    static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONObject {
        JSONObject(pairs.map { JSONObject.Member(key: $0.key, value: $0.value) })
    }

    // MARK: - Builder

    /// A built payload and the JSON it must mean.
    struct Built: Sendable, CustomTestStringConvertible {
        let name: String
        let payload: Payload
        let json: String
        var testDescription: String { name }

        init(_ name: String, _ payload: Payload, _ json: String) {
            self.name = name
            self.payload = payload
            self.json = json
        }
    }

    static let built: [Built] = [
        Built(
            "alert with badge, sound, thread and a custom key",
            Payload.alert(title: "Order shipped", body: "Arriving Tuesday").badge(1).sound(.default).threadID("orders")
                .custom("order-id", "A-1042"),
            #"{"aps":{"alert":{"title":"Order shipped","body":"Arriving Tuesday"},"badge":1,"sound":"default","#
                + #""thread-id":"orders"},"order-id":"A-1042"}"#
        ),
        Built("body only", .alert(body: "Hi"), #"{"aps":{"alert":{"body":"Hi"}}}"#),
        Built(
            "rich alert",
            Payload.alert(title: "T", subtitle: "S", body: "B").mutableContent().category("C")
                .interruptionLevel(.timeSensitive).relevanceScore(0.5).targetContentID("thread-7")
                .filterCriteria("work"),
            #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"},"category":"C","mutable-content":1,"#
                + #""target-content-id":"thread-7","interruption-level":"time-sensitive","relevance-score":0.5,"#
                + #""filter-criteria":"work"}}"#
        ),
        Built(
            "localized alert",
            .localizedAlert(titleKey: "TITLE", titleArguments: ["a"], bodyKey: "BODY", bodyArguments: ["x", "y"]),
            #"{"aps":{"alert":{"title-loc-key":"TITLE","title-loc-args":["a"],"loc-key":"BODY","loc-args":["x","y"]}}}"#
        ),
        Built("localized body only", .localizedAlert(bodyKey: "BODY"), #"{"aps":{"alert":{"loc-key":"BODY"}}}"#),
        Built("background", .background(), #"{"aps":{"content-available":1}}"#),
        Built(
            "background with data", Payload.background().custom("sync", ["inbox": 42]),
            #"{"aps":{"content-available":1},"sync":{"inbox":42}}"#),
        Built("widgets reload", .contentChanged(), #"{"aps":{"content-changed":true}}"#),
        Built(
            "live activity update",
            Payload.liveActivity(
                .update, timestamp: 1_767_226_500, contentState: object(["homeScore": 1, "period": "1st"])
            )
            .staleDate(1_767_230_100).relevanceScore(75),
            #"{"aps":{"event":"update","timestamp":1767226500,"content-state":{"homeScore":1,"period":"1st"},"#
                + #""stale-date":1767230100,"relevance-score":75}}"#
        ),
        Built(
            "live activity start",
            Payload.liveActivity(.start, timestamp: 1_767_225_600, contentState: object(["homeScore": 0]))
                .attributes(type: "MatchAttributes", object(["homeTeam": "Lions"])),
            #"{"aps":{"event":"start","timestamp":1767225600,"content-state":{"homeScore":0},"#
                + #""attributes-type":"MatchAttributes","attributes":{"homeTeam":"Lions"}}}"#
        ),
        Built(
            "live activity end",
            Payload.liveActivity(.end, timestamp: 1_767_232_800).dismissalDate(1_767_236_400),
            #"{"aps":{"event":"end","timestamp":1767232800,"dismissal-date":1767236400}}"#
        ),
        Built("mdm", .mdm(pushMagic: "1C2A8B4E"), #"{"mdm":"1C2A8B4E"}"#),
        Built(
            "critical sound", Payload.alert(body: "Low").sound(.critical("alarm.caf", volume: 0.8)),
            #"{"aps":{"alert":{"body":"Low"},"sound":{"critical":1,"name":"alarm.caf","volume":0.8}}}"#),
        Built(
            "custom keys in order, set twice keeps the first place",
            Payload.background().custom("b", 1).custom("a", 2).custom("b", 3),
            #"{"aps":{"content-available":1},"b":3,"a":2}"#),
        Built("no aps at all", Payload(aps: nil).custom("k", "v"), #"{"k":"v"}"#),
        Built(
            "modifier on an mdm payload creates aps", Payload.mdm(pushMagic: "M").badge(0),
            #"{"aps":{"badge":0},"mdm":"M"}"#),
        Built("empty aps", Payload(), #"{"aps":{}}"#),
        Built(
            "content-available modifier", Payload.alert(body: "x").contentAvailable(),
            #"{"aps":{"alert":{"body":"x"},"content-available":1}}"#),
    ]

    @Test(arguments: built)
    func builderProducesExpectedJSON(_ example: Built) throws {
        let expected = try JSONValue(parsing: example.json)
        let json = example.payload.json
        #expect(json.isEquivalent(to: expected), "\(json.encodedString)")
        let encoded = example.payload.encoded()
        #expect(try JSONValue(parsing: encoded.bytes).isEquivalent(to: expected))
        // Decoding the encoding gives the same payload back.
        #expect(try Payload(bytes: encoded.bytes) == example.payload)
    }

    /// The exact bytes where they are the point: `aps` first, Apple's key order, no whitespace.
    @Test func canonicalAlertBytes() {
        let payload = Payload.alert(title: "Order shipped", body: "Arriving Tuesday").badge(1).sound(.default)
            .threadID("orders").custom("order-id", "A-1042")
        let expected =
            #"{"aps":{"alert":{"title":"Order shipped","body":"Arriving Tuesday"},"badge":1,"sound":"default","#
            + #""thread-id":"orders"},"order-id":"A-1042"}"#
        #expect(payload.encoded().bytes == Array(expected.utf8))
        #expect(payload.json.encodedString == expected)
    }

    @Test func modifiersDoNotChangeTheOriginal() {
        let original = Payload.alert(body: "x")
        let changed = original.badge(3).custom("k", 1)
        #expect(original.aps?.badge == nil)
        #expect(original.custom.isEmpty)
        #expect(changed.aps?.badge == 3)
        #expect(changed.custom["k"] == 1)
    }

    static let sized: [Payload] = [
        .alert(body: "€ and 😀"), .mdm(pushMagic: "M"), Payload.background().custom("emoji", "👩‍👩‍👧"), Payload(),
    ]

    @Test(arguments: sized)
    func encodedCountIsTheByteCount(_ payload: Payload) {
        let encoded = payload.encoded()
        #expect(encoded.count == encoded.bytes.count)
        #expect(encoded.count == payload.json.encodedString.utf8.count)
    }

    @Test func encodedCountCountsUTF8Bytes() {
        let payload = Payload.alert(body: "€")
        // {"aps":{"alert":{"body":"€"}}} is 29 ASCII bytes plus 3 for the euro sign.
        #expect(payload.encoded().count == 32)
        #expect(EncodedPayload(bytes: [1, 2, 3]).count == 3)
    }

    // MARK: - Examples

    static let examplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")

    /// An example file and the typed payload it must decode to.
    struct ExamplePayload: Sendable, CustomTestStringConvertible {
        let file: String
        let payload: Payload
        var testDescription: String { file }
    }

    static let examples: [ExamplePayload] = [
        ExamplePayload(
            file: "alert-basic.json",
            payload: Payload(
                aps: APS(
                    alert: .content(AlertContent(title: "Order shipped", body: "Your order A-1042 is on its way.")),
                    badge: 1, sound: "default"),
                custom: object(["order-id": "A-1042"]))),
        ExamplePayload(
            file: "alert-critical.json",
            payload: Payload(
                aps: APS(
                    alert: .content(AlertContent(title: "Glucose low", body: "55 mg/dL and falling")),
                    sound: .critical("default", volume: 1.0), interruptionLevel: .critical))),
        ExamplePayload(
            file: "alert-localized.json",
            payload: Payload(
                aps: APS(
                    alert: .content(
                        AlertContent(
                            titleLocKey: "GAME_INVITE_TITLE", locKey: "GAME_PLAY_REQUEST_FORMAT",
                            locArgs: ["Jenna", "Frank"])),
                    sound: "chime.aiff"),
                custom: object(["game-id": "7b1c"]))),
        ExamplePayload(
            file: "alert-rich.json",
            payload: Payload(
                aps: APS(
                    alert: .content(AlertContent(title: "New photo", subtitle: "From Ana", body: "Sunset at the pier")),
                    threadID: "album-3", category: "PHOTO", mutableContent: 1),
                custom: object(["media-url": "https://example.com/photos/pier.jpg"]))),
        ExamplePayload(
            file: "alert-time-sensitive.json",
            payload: Payload(
                aps: APS(
                    alert: .content(AlertContent(title: "Your ride is here", body: "Grey sedan, plate 7ABC123")),
                    sound: .default, category: "RIDE_ARRIVED", interruptionLevel: .timeSensitive,
                    relevanceScore: 0.9))),
        ExamplePayload(
            file: "background.json",
            payload: Payload(aps: APS(contentAvailable: 1), custom: object(["sync": ["inbox": 42]]))),
        ExamplePayload(
            file: "broadcast-update.json",
            payload: Payload(
                aps: APS(
                    event: .update, timestamp: 1_767_227_400,
                    contentState: object(["homeScore": 1, "awayScore": 1, "period": "2nd"])))),
        ExamplePayload(
            file: "liveactivity-end.json",
            payload: Payload(
                aps: APS(
                    event: .end, timestamp: 1_767_232_800,
                    contentState: object(["homeScore": 2, "awayScore": 1, "period": "FT"]),
                    dismissalDate: 1_767_236_400))),
        ExamplePayload(
            file: "liveactivity-start.json",
            payload: Payload(
                aps: APS(
                    alert: .content(
                        AlertContent(title: "Kick-off", body: "Lions vs Bears has started", sound: "default")),
                    event: .start, timestamp: 1_767_225_600,
                    contentState: object(["homeScore": 0, "awayScore": 0, "period": "1st"]),
                    attributesType: "MatchAttributes", attributes: object(["homeTeam": "Lions", "awayTeam": "Bears"]),
                    inputPushToken: 1))),
        ExamplePayload(
            file: "liveactivity-update.json",
            payload: Payload(
                aps: APS(
                    alert: .content(AlertContent(title: "Goal!", body: "Lions lead 1-0")), relevanceScore: 75,
                    event: .update, timestamp: 1_767_226_500,
                    contentState: object(["homeScore": 1, "awayScore": 0, "period": "1st"]),
                    staleDate: 1_767_230_100))),
        ExamplePayload(
            file: "mdm.json",
            payload: Payload(aps: nil, custom: object(["mdm": "1C2A8B4E-7F3D-4E0B-9E5A-2D6C8F1B3A70"]))),
        ExamplePayload(
            file: "voip.json",
            payload: Payload(
                aps: nil,
                custom: object(["caller": ["name": "Ana", "handle": "+15555550123"], "call-id": "4f1d2c"]))),
        ExamplePayload(file: "widgets.json", payload: Payload(aps: APS(contentChanged: true))),
    ]

    static func exampleBytes(_ file: String) throws -> [UInt8] {
        Array(try Data(contentsOf: examplesDirectory.appendingPathComponent(file)))
    }

    @Test func everyExampleFileIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.examplesDirectory.path)
            .filter { $0.hasSuffix(".json") }
        #expect(Set(files) == Set(Self.examples.map(\.file)))
    }

    @Test(arguments: examples)
    func exampleDecodes(_ example: ExamplePayload) throws {
        let bytes = try Self.exampleBytes(example.file)
        let payload = try Payload(bytes: bytes)
        #expect(payload == example.payload)
        // Nothing unknown in the examples: every key is modelled.
        #expect(payload.aps?.extra.isEmpty ?? true)
        // Re-encoding means the same as the file.
        let original = try JSONValue(parsing: bytes)
        #expect(try JSONValue(parsing: payload.encoded().bytes).isEquivalent(to: original))
        #expect(try Payload(bytes: payload.encoded().bytes) == payload)
    }

    @Test func mdmPayloadHasNoAPS() throws {
        let payload = try Payload(bytes: try Self.exampleBytes("mdm.json"))
        #expect(payload.aps == nil)
        #expect(payload.custom["mdm"] == "1C2A8B4E-7F3D-4E0B-9E5A-2D6C8F1B3A70")
        #expect(payload.encoded().bytes == Array(#"{"mdm":"1C2A8B4E-7F3D-4E0B-9E5A-2D6C8F1B3A70"}"#.utf8))
    }

    // MARK: - Wrongly typed keys

    /// A payload with a key of the wrong type, and the field path the error must name.
    struct Mistyped: Sendable, CustomTestStringConvertible {
        let json: String
        let field: String
        let message: String
        var testDescription: String { json }

        init(_ json: String, _ field: String, _ message: String) {
            self.json = json
            self.field = field
            self.message = message
        }
    }

    static let mistyped: [Mistyped] = [
        Mistyped(#"{"aps":{"badge":"1"}}"#, "aps.badge", "must be an integer, not a string"),
        Mistyped(#"{"aps":{"badge":1.5}}"#, "aps.badge", "integer"),
        Mistyped(#"{"aps":{"alert":{"loc-args":["a",2]}}}"#, "aps.alert.loc-args[1]", "must be a string, not a number"),
        Mistyped(#"{"aps":{"alert":{"title-loc-args":"x"}}}"#, "aps.alert.title-loc-args", "an array of strings"),
        Mistyped(#"{"aps":{"alert":{"subtitle-loc-args":[null]}}}"#, "aps.alert.subtitle-loc-args[0]", "not null"),
        Mistyped(#"{"aps":[]}"#, "aps", "must be an object, not an array"),
        Mistyped(#"{"aps":"alert"}"#, "aps", "must be an object, not a string"),
        Mistyped(#"{"aps":null}"#, "aps", "not null"),
        Mistyped(#"{"aps":{"alert":5}}"#, "aps.alert", "not a number"),
        Mistyped(#"{"aps":{"alert":{"title":5}}}"#, "aps.alert.title", "not a number"),
        Mistyped(#"{"aps":{"alert":{"body":[]}}}"#, "aps.alert.body", "not an array"),
        Mistyped(#"{"aps":{"alert":{"title":{"loc-args":["x"]}}}}"#, "aps.alert.title", "loc-key"),
        Mistyped(#"{"aps":{"alert":{"title":{"loc-key":"K","extra":1}}}}"#, "aps.alert.title.extra", "not allowed"),
        Mistyped(
            #"{"aps":{"alert":{"title":{"loc-key":"K","loc-args":[1]}}}}"#, "aps.alert.title.loc-args[0]", "a string"),
        Mistyped(#"{"aps":{"alert":{"subtitle":{"loc-key":"K"}}}}"#, "aps.alert.subtitle", "a string"),
        Mistyped(#"{"aps":{"alert":{"summary-arg-count":"2"}}}"#, "aps.alert.summary-arg-count", "integer"),
        Mistyped(#"{"aps":{"sound":{"volume":"loud"}}}"#, "aps.sound.volume", "a number"),
        Mistyped(#"{"aps":{"sound":{"critical":true}}}"#, "aps.sound.critical", "integer"),
        Mistyped(#"{"aps":{"sound":1}}"#, "aps.sound", "not a number"),
        Mistyped(#"{"aps":{"content-available":true}}"#, "aps.content-available", "integer"),
        Mistyped(#"{"aps":{"mutable-content":"1"}}"#, "aps.mutable-content", "integer"),
        Mistyped(#"{"aps":{"content-changed":1}}"#, "aps.content-changed", "true or false"),
        Mistyped(#"{"aps":{"thread-id":7}}"#, "aps.thread-id", "a string"),
        Mistyped(#"{"aps":{"interruption-level":1}}"#, "aps.interruption-level", "a string"),
        Mistyped(#"{"aps":{"relevance-score":"high"}}"#, "aps.relevance-score", "a number"),
        Mistyped(#"{"aps":{"url-args":["a",null]}}"#, "aps.url-args[1]", "not null"),
        Mistyped(#"{"aps":{"timestamp":"1767225600"}}"#, "aps.timestamp", "integer"),
        Mistyped(#"{"aps":{"event":true}}"#, "aps.event", "a string"),
        Mistyped(#"{"aps":{"content-state":[]}}"#, "aps.content-state", "an object"),
        Mistyped(#"{"aps":{"attributes":"x"}}"#, "aps.attributes", "an object"),
        Mistyped(#"{"aps":{"input-push-token":true}}"#, "aps.input-push-token", "integer"),
        Mistyped(#"[{"aps":{}}]"#, "payload", "must be an object, not an array"),
        Mistyped(#""text""#, "payload", "not a string"),
    ]

    /// Every modelled key given a value of the wrong type: each is decoded (not left in `extra`)
    /// and its error names it.
    static let everyKeyMistyped: [Mistyped] = {
        let apsStrings = [
            "thread-id", "category", "target-content-id", "interruption-level", "filter-criteria", "event",
            "attributes-type", "input-push-channel",
        ]
        let apsIntegers = [
            "badge", "content-available", "mutable-content", "timestamp", "stale-date", "dismissal-date",
            "input-push-token",
        ]
        // Not "sound": outside a Live Activity the device ignores an alert's sound, so a value of
        // another type is kept, not refused (FuzzFindingsTests.anAlertSoundThatIsNotAStringIsKeptNotRefused).
        let alertStrings = [
            "subtitle", "launch-image", "title-loc-key", "subtitle-loc-key", "loc-key", "summary-arg",
            "action-loc-key", "action",
        ]
        let alertArrays = ["title-loc-args", "subtitle-loc-args", "loc-args"]
        let soundKeys = [("critical", "an integer"), ("name", "a string"), ("volume", "a number")]
        return apsStrings.map { Mistyped(#"{"aps":{"\#($0)":1}}"#, "aps.\($0)", "must be a string") }
            + apsIntegers.map { Mistyped(#"{"aps":{"\#($0)":"1"}}"#, "aps.\($0)", "must be an integer") }
            + ["content-state", "attributes"].map {
                Mistyped(#"{"aps":{"\#($0)":1}}"#, "aps.\($0)", "must be an object")
            }
            + [Mistyped(#"{"aps":{"relevance-score":true}}"#, "aps.relevance-score", "must be a number")]
            + [Mistyped(#"{"aps":{"content-changed":"yes"}}"#, "aps.content-changed", "must be true or false")]
            + [Mistyped(#"{"aps":{"url-args":{}}}"#, "aps.url-args", "must be an array of strings")]
            + alertStrings.map { Mistyped(#"{"aps":{"alert":{"\#($0)":1}}}"#, "aps.alert.\($0)", "must be a string") }
            + alertArrays.map { Mistyped(#"{"aps":{"alert":{"\#($0)":"x"}}}"#, "aps.alert.\($0)", "array of strings") }
            + [
                Mistyped(
                    #"{"aps":{"alert":{"summary-arg-count":"1"}}}"#, "aps.alert.summary-arg-count", "must be an integer"
                )
            ]
            + soundKeys.map { Mistyped(#"{"aps":{"sound":{"\#($0.0)":[]}}}"#, "aps.sound.\($0.0)", "must be \($0.1)") }
    }()

    @Test(arguments: mistyped + everyKeyMistyped)
    func wronglyTypedKeyNamesItsPath(_ example: Mistyped) throws {
        let json = try JSONValue(parsing: example.json)
        let error = #expect(throws: FieldError.self) { try Payload(json: json) }
        #expect(error?.field == example.field, "\(String(describing: error))")
        #expect(error?.message.contains(example.message) == true, "\(String(describing: error))")
        // Through bytes, the same error arrives wrapped.
        let wrapped = #expect(throws: PayloadError.self) { try Payload(bytes: Array(example.json.utf8)) }
        if let error { #expect(wrapped == PayloadError.invalidField(error)) }
    }

    @Test func invalidJSONIsReportedAsSuch() {
        let error = #expect(throws: PayloadError.self) { try Payload(bytes: Array(#"{"aps":{},}"#.utf8)) }
        guard case .invalidJSON(let json)? = error else {
            Issue.record("expected invalidJSON, got \(String(describing: error))")
            return
        }
        #expect(json.column == 11)
        #expect(error?.description.hasPrefix("payload: invalid JSON at line 1, column 11") == true)
    }

    // MARK: - Unknown keys and order

    @Test func unknownKeysArePreservedAndReencoded() throws {
        let text =
            #"{"aps":{"alert":{"title":"T","x-alert":1},"x-aps":{"k":"v"},"sound":{"name":"s","x-sound":[1]},"#
            + #""badge":2,"interruption-level":"urgent","event":"pause"},"custom":true}"#
        let original = try JSONValue(parsing: text)
        let payload = try Payload(json: original)
        let aps = try #require(payload.aps)
        #expect(aps.extra.keys == ["x-aps"])
        #expect(aps.extra["x-aps"] == ["k": "v"])
        guard case .content(let alert)? = aps.alert else {
            Issue.record("alert should decode as a dictionary")
            return
        }
        #expect(alert.title == "T")
        #expect(alert.extra.keys == ["x-alert"])
        guard case .dictionary(let sound)? = aps.sound else {
            Issue.record("sound should decode as a dictionary")
            return
        }
        #expect(sound.name == "s")
        #expect(sound.extra.keys == ["x-sound"])
        // Unknown values of open sets survive.
        #expect(aps.interruptionLevel?.rawValue == "urgent")
        #expect(aps.event?.rawValue == "pause")
        #expect(payload.json.isEquivalent(to: original))
        // Known keys in Apple's order, unknown ones after them.
        let expected =
            #"{"aps":{"alert":{"title":"T","x-alert":1},"badge":2,"sound":{"name":"s","x-sound":[1]},"#
            + #""interruption-level":"urgent","event":"pause","x-aps":{"k":"v"}},"custom":true}"#
        #expect(payload.json.encodedString == expected)
    }

    @Test func customTopLevelKeysKeepTheirOrder() throws {
        let payload = try Payload(json: try JSONValue(parsing: #"{"z":1,"aps":{"badge":0},"a":[2],"m":{"n":null}}"#))
        #expect(payload.custom.keys == ["z", "a", "m"])
        #expect(payload.aps?.badge == 0)
        #expect(payload.encoded().bytes == Array(#"{"aps":{"badge":0},"z":1,"a":[2],"m":{"n":null}}"#.utf8))
    }

    @Test func plainAlertAndSoundStrings() throws {
        let payload = try Payload(json: try JSONValue(parsing: #"{"aps":{"alert":"Hello","sound":"ping.aiff"}}"#))
        #expect(payload.aps?.alert == .body("Hello"))
        #expect(payload.aps?.sound == .named("ping.aiff"))
        #expect(payload.aps?.sound?.isCritical == false)
        #expect(payload.encoded().bytes == Array(#"{"aps":{"alert":"Hello","sound":"ping.aiff"}}"#.utf8))
    }

    // MARK: - Live Activity alerts

    @Test func liveActivityLocalizedTitleDecodes() throws {
        let text =
            #"{"aps":{"event":"update","timestamp":1767226500,"content-state":{},"alert":{"#
            + #""title":{"loc-key":"GOAL_TITLE","loc-args":["Lions","1"]},"#
            + #""body":{"loc-key":"GOAL_BODY","loc-args":[]},"sound":"goal.caf"}}}"#
        let original = try JSONValue(parsing: text)
        let payload = try Payload(json: original)
        guard case .content(let alert)? = payload.aps?.alert else {
            Issue.record("alert should decode as a dictionary")
            return
        }
        #expect(alert.title == .localized(key: "GOAL_TITLE", arguments: ["Lions", "1"]))
        #expect(alert.body == .localized(key: "GOAL_BODY", arguments: []))
        #expect(alert.sound == "goal.caf")
        #expect(alert.isVisible)
        #expect(payload.json.isEquivalent(to: original))
    }

    /// A localized title written without `loc-args` must come back without it: a round trip adds
    /// nothing (APS.swift: "so a round trip loses nothing").
    @Test func localizedTitleWithoutArgumentsRoundTrips() throws {
        let original = try JSONValue(parsing: #"{"aps":{"alert":{"title":{"loc-key":"K"}}}}"#)
        let payload = try Payload(json: original)
        guard case .content(let alert)? = payload.aps?.alert else {
            Issue.record("alert should decode as a dictionary")
            return
        }
        #expect(alert.title == .localized(key: "K", arguments: nil))
        #expect(payload.json.isEquivalent(to: original), "\(payload.json.encodedString)")
    }

    static let visibility: [(String, Bool)] = [
        (#""Hello""#, true),
        (#""""#, false),
        (#"{}"#, false),
        (#"{"title":"T"}"#, true),
        (#"{"subtitle":"S"}"#, true),
        (#"{"body":""}"#, false),
        (#"{"loc-key":"K"}"#, true),
        (#"{"title-loc-key":"K"}"#, true),
        (#"{"title":{"loc-key":"K"}}"#, true),
        (#"{"sound":"default","launch-image":"x.png"}"#, false),
    ]

    @Test(arguments: visibility)
    func alertVisibility(_ alert: String, _ visible: Bool) throws {
        let payload = try Payload(json: try JSONValue(parsing: #"{"aps":{"alert":"# + alert + "}}"))
        #expect(payload.aps?.alert?.isVisible == visible)
    }
}
