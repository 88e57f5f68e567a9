import APNs
import Testing

// Every lint rule, proven both ways: a broken request trips it (rule id, severity, path, a message
// naming the offending value) and a near-identical fixed request does not. The cases live in
// LintRuleTests+Cases.swift (payload, headers, aps) and LintRuleTests+LiveActivity.swift (Live
// Activities, broadcasts, MDM, simulator files); `tableCoversEveryRule` fails when a rule is added
// to the catalogue without a case here.

/// One rule, one broken request that must trip it and one fixed request that must not.
struct LintRuleCase: Sendable, CustomTestStringConvertible {
    /// The rule's id, as in `LintRule.all`.
    let id: String
    /// The severity the catalogue must give the rule.
    let severity: Severity
    /// Where the finding must point.
    let path: String
    /// Text the finding's message must contain (the offending value or key); nil when the finding is
    /// about something absent and the path already names it.
    let mentions: String?
    /// A request that must produce a finding of `id` at `path`.
    let broken: LintRequest
    /// `broken` with the one change that fixes it; must produce no finding of `id`, and no finding
    /// the broken request did not already have.
    let fixed: LintRequest
    /// Set when the linter is known to miss `broken` (the text says what it gets wrong): the broken
    /// side is then checked inside `withKnownIssue`, which fails once the linter is fixed.
    let knownIssue: String?
    /// What this case shows, for the test's name.
    let note: String

    init(
        _ id: String, _ severity: Severity, at path: String, mentions: String?, _ note: String,
        knownIssue: String? = nil, broken: LintRequest, fix: (inout LintRequest) -> Void
    ) {
        self.id = id
        self.severity = severity
        self.path = path
        self.mentions = mentions
        self.note = note
        self.knownIssue = knownIssue
        self.broken = broken
        var fixed = broken
        fix(&fixed)
        self.fixed = fixed
    }

    var testDescription: String { "\(id): \(note)" }

    /// Every case; at least one per rule in `LintRule.all`.
    static var all: [LintRuleCase] { payloadCases + headerCases + apsCases + liveActivityCases + destinationCases }
}

// MARK: - Building requests

extension LintRuleCase {
    /// 2026-01-01T00:00:00Z, the `now` of every case that needs one.
    static let now = 1_767_225_600

    static func bytes(_ json: String) -> [UInt8] {
        Array(json.utf8)
    }

    /// A request with `json` as its payload and the given headers (nil leaves a header out).
    static func request(
        _ json: String, type: String? = nil, topic: String? = nil, priority: String? = nil, expiration: String? = nil,
        collapseID: String? = nil, apnsID: String? = nil, token: String? = nil,
        destination: LintRequest.Destination = .device, now: Int? = nil
    ) -> LintRequest {
        LintRequest(
            payload: bytes(json), pushType: type, topic: topic, priority: priority, expiration: expiration,
            collapseID: collapseID, apnsID: apnsID, token: token, destination: destination, now: now)
    }

    /// An alert push to com.example.app with priority 10.
    static func alert(_ json: String) -> LintRequest {
        request(json, type: "alert", topic: "com.example.app", priority: "10")
    }

    /// A background push to com.example.mail with priority 5.
    static func background(_ json: String) -> LintRequest {
        request(json, type: "background", topic: "com.example.mail", priority: "5")
    }

    /// `prefix` (an unterminated JSON string member, e.g. `{"aps":{…},"pad":"`) padded with `x` and
    /// closed so that the whole payload is exactly `size` bytes.
    static func padded(_ prefix: String, to size: Int) -> String {
        let filler = size - prefix.utf8.count - 2
        precondition(filler >= 0, "prefix longer than \(size) bytes")
        return prefix + String(repeating: "x", count: filler) + "\"}"
    }

    /// A hex string of `count` digits.
    static func hex(_ count: Int) -> String {
        String(repeating: "a1b2c3d4e5f60789", count: count / 16 + 1).prefix(count).description
    }
}

// MARK: - Tests

@Suite(.timeLimit(.minutes(1)))
struct LintRuleTests {
    // MARK: The table

    @Test("the broken request trips the rule", arguments: LintRuleCase.all)
    func brokenRequestTrips(_ rule: LintRuleCase) throws {
        let report = Linter.lint(rule.broken)
        let check = { () throws -> Void in
            let hits = report.findings.filter { $0.rule.id == rule.id }
            let hit = try #require(
                hits.first { $0.path == rule.path },
                "no \(rule.id) at \(rule.path); got \(report.findings.map(\.description))")
            #expect(hit.severity == rule.severity)
            #expect(hit.rule.severity == rule.severity)
            #expect(hit.rule == LintRule.named(rule.id))
            #expect(!hit.message.isEmpty)
            if rule.severity == .error {
                #expect(report.hasErrors)
            }
        }
        if let known = rule.knownIssue {
            withKnownIssue(Comment(rawValue: known)) { try check() }
        } else {
            try check()
        }
    }

    @Test("the fixed request does not trip the rule, nor anything new", arguments: LintRuleCase.all)
    func fixedRequestDoesNotTrip(_ rule: LintRuleCase) {
        #expect(rule.fixed != rule.broken, "the fix must change the request")
        let report = Linter.lint(rule.fixed)
        let hits = report.findings.filter { $0.rule.id == rule.id }
        #expect(hits.isEmpty, "\(hits.map(\.description))")
        // Near-identical: the fix must not trade one problem for another.
        let before = Set(Linter.lint(rule.broken).findings.map(\.rule.id))
        let introduced = report.findings.filter { !before.contains($0.rule.id) }
        #expect(introduced.isEmpty, "the fix introduced \(introduced.map(\.description))")
    }

    @Test("every message names the offending value or key", arguments: LintRuleCase.all.filter { $0.mentions != nil })
    func messageNamesOffendingValue(_ rule: LintRuleCase) throws {
        let report = Linter.lint(rule.broken)
        let check = { () throws -> Void in
            let hit = try #require(report.findings.first { $0.rule.id == rule.id && $0.path == rule.path })
            let mention = try #require(rule.mentions)
            #expect(hit.message.contains(mention), "\(hit.message.debugDescription) does not mention \(mention.debugDescription)")
            #expect(hit.text.hasPrefix("\(rule.path): \(hit.message)"))
            #expect(hit.description.contains(rule.id))
            #expect(hit.description.hasPrefix(rule.severity.rawValue))
        }
        if let known = rule.knownIssue {
            withKnownIssue(Comment(rawValue: known)) { try check() }
        } else {
            try check()
        }
    }

    @Test func tableCoversEveryRule() {
        let catalogue = Set(LintRule.all.map(\.id))
        let covered = Set(LintRuleCase.all.map(\.id))
        #expect(catalogue.subtracting(covered).sorted() == [], "rules without a case")
        #expect(covered.subtracting(catalogue).sorted() == [], "cases for rules that do not exist")
        // Every rule trips for real somewhere in the table (not only under a known issue)...
        let provenOutright = Set(LintRuleCase.all.filter { $0.knownIssue == nil }.map(\.id))
        let onlyKnownIssues = catalogue.subtracting(provenOutright)
        #expect(onlyKnownIssues.isEmpty, "rules proven only under a known issue: \(onlyKnownIssues.sorted())")
        // ...and no case is listed twice.
        let names = LintRuleCase.all.map(\.testDescription)
        #expect(Set(names).count == names.count)
    }

    @Test func ruleIDsAreUniqueAndSeveritiesMatchTheCatalogue() throws {
        let ids = LintRule.all.map(\.id)
        #expect(Set(ids).count == ids.count, "duplicate ids: \(Dictionary(grouping: ids) { $0 }.filter { $1.count > 1 }.keys.sorted())")
        #expect(Set(LintRule.all).count == LintRule.all.count)
        for rule in LintRule.all {
            #expect(LintRule.named(rule.id) == rule)
            #expect(rule.description == rule.id)
            #expect(!rule.summary.isEmpty, "\(rule.id) has no summary")
            let allowed = rule.id.utf8.allSatisfy { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "-") }
            #expect(allowed && !rule.id.hasPrefix("-") && !rule.id.hasSuffix("-"), "\(rule.id) is not UPPER-KEBAB")
            if let reason = rule.reason {
                // A rule that names an APNs reason names one APNs documents, with a 4xx status.
                #expect(reason.isDocumented, "\(rule.id): \(reason) is not in Reason.table")
                #expect((400..<500).contains(reason.status ?? 0), "\(rule.id): \(reason)")
            }
        }
        #expect(LintRule.named("NO-SUCH-RULE") == nil)
        // The table states the severity each rule must have; all its cases agree with the catalogue.
        for rule in LintRuleCase.all {
            let catalogued = try #require(LintRule.named(rule.id), "\(rule.id) is not in the catalogue")
            #expect(catalogued.severity == rule.severity, "\(rule.id): catalogue says \(catalogued.severity), table says \(rule.severity)")
        }
        // Rules APNs itself enforces name the reason APNs answers with.
        #expect(LintRule.payloadEmpty.reason == .payloadEmpty)
        #expect(LintRule.payloadTooLarge.reason == .payloadTooLarge)
        #expect(LintRule.pushType.reason == .invalidPushType)
        #expect(LintRule.priority.reason == .badPriority)
        #expect(LintRule.backgroundPriority.reason == .badPriority)
        #expect(LintRule.expiration.reason == .badExpirationDate)
        #expect(LintRule.collapseID.reason == .badCollapseId)
        #expect(LintRule.apnsID.reason == .badMessageId)
        #expect(LintRule.topic.reason == .badTopic)
        #expect(LintRule.token.reason == .badDeviceToken)
        #expect(LintRule.broadcastTopic.reason == .topicDisallowed)
        // Device-side contracts have no APNs reason.
        #expect(LintRule.nothingToShow.reason == nil)
        #expect(LintRule.mutableWithoutAlert.reason == nil)
    }

    // MARK: Whole reports

    @Test func cleanAlertHasNoFindings() {
        let request = LintRuleCase.request(
            #"{"aps":{"alert":{"title":"Order shipped","body":"Your order A-1042 is on its way."},"badge":1,"sound":"default"},"order-id":"A-1042"}"#,
            type: "alert", topic: "com.example.shop", priority: "10", expiration: String(LintRuleCase.now + 3600),
            collapseID: "order-A-1042", apnsID: "123e4567-e89b-12d3-a456-4266554400a0", token: LintRuleCase.hex(64),
            now: LintRuleCase.now)
        let report = Linter.lint(request)
        #expect(report.findings.isEmpty, "\(report.findings.map(\.description))")
        #expect(!report.hasErrors)
        #expect(report.pushType == .alert)
        #expect(!report.pushTypeWasInferred)
        #expect(report.payloadSize == request.payload.count)
        #expect(report.payloadLimit == 4096)
    }

    @Test func findingsAreOrderedErrorsThenWarningsThenInfo() {
        // Detection order mixes the severities: apns-id (info) and priority (error) are checked with
        // the headers, the topic (error) later, the aps keys (warning, info) last.
        let report = Linter.lint(LintRuleCase.request(
            #"{"aps":{"alert":{"body":"Hi","action-loc-key":"VIEW"},"order-id":"A-1042"}}"#,
            type: "alert", topic: "com.example.app.voip", priority: "7", apnsID: "123E4567-E89B-12D3-A456-4266554400A0"))
        let severities = report.findings.map(\.severity)
        #expect(Set(severities) == Set(Severity.allCases), "\(report.findings.map(\.description))")
        #expect(zip(severities, severities.dropFirst()).allSatisfy { $0 <= $1 }, "\(severities)")
        #expect(severities.first == .error)
        #expect(severities.last == .info)
        // Within one severity, detection order is kept.
        #expect(report.findings(.error).map(\.rule.id) == ["HDR-PRIORITY", "HDR-TOPIC-SUFFIX"])
        #expect(report.findings(.warning).map(\.rule.id) == ["APS-UNKNOWN-KEY"])
        #expect(report.findings(.info).map(\.rule.id) == ["HDR-APNS-ID-CASE", "APS-LEGACY-KEY"])
        #expect(Severity.error < .warning && Severity.warning < .info)
        #expect(Severity.allCases.sorted() == [.error, .warning, .info])
    }

    @Test func hasErrorsCountsErrorsOnly() {
        let error = Linter.lint(LintRuleCase.alert(#"{"aps":{"alert":"Hi","badge":"3"}}"#))
        #expect(error.hasErrors)
        #expect(error.findings(.error).map(\.rule.id) == ["APS-TYPE"])

        let warning = Linter.lint(LintRuleCase.alert(#"{"aps":{"alert":"Hi","order-id":"A-1042"}}"#))
        #expect(!warning.hasErrors)
        #expect(warning.findings(.warning).map(\.rule.id) == ["APS-UNKNOWN-KEY"])
        #expect(warning.findings(.error).isEmpty)

        var info = LintRuleCase.alert(#"{"aps":{"alert":"Hi"}}"#)
        info.apnsID = "123E4567-E89B-12D3-A456-4266554400A0"
        let infoReport = Linter.lint(info)
        #expect(!infoReport.hasErrors)
        #expect(infoReport.findings.map(\.rule.id) == ["HDR-APNS-ID-CASE"])

        // Errors anywhere count, not only in the first finding.
        let mixed = Linter.lint(LintRuleCase.request(#"{"aps":{"alert":"Hi"}}"#, type: "alert", apnsID: "123E4567-E89B-12D3-A456-4266554400A0", token: "abc"))
        #expect(mixed.hasErrors)
        #expect(mixed.findings.map(\.rule.id) == ["TOKEN-FORMAT", "HDR-APNS-ID-CASE"])
    }

    struct Inference: Sendable, CustomTestStringConvertible {
        let note: String
        let request: LintRequest
        let pushType: PushType?
        let inferred: Bool
        var testDescription: String { note }
    }

    static let inferences: [Inference] = [
        Inference(note: "header given", request: LintRuleCase.request(#"{"aps":{"content-available":1}}"#, type: "alert"), pushType: .alert, inferred: false),
        Inference(note: "header given, other than the payload suggests", request: LintRuleCase.request(#"{"mdm":"1C2A"}"#, type: "voip"), pushType: .voip, inferred: false),
        Inference(note: "invalid header: no type, not inferred", request: LintRuleCase.request(#"{"aps":{"alert":"Hi"}}"#, type: "Alert"), pushType: nil, inferred: false),
        Inference(note: "from the topic suffix", request: LintRuleCase.request(#"{"call-id":"4f1d2c"}"#, topic: "com.example.phone.voip"), pushType: .voip, inferred: true),
        Inference(note: "from the push-to-talk topic", request: LintRuleCase.request(#"{"channel":"ops"}"#, topic: "com.example.radio.voip-ptt"), pushType: .pushtotalk, inferred: true),
        Inference(note: "from a Live Activity topic", request: LintRuleCase.request(#"{"aps":{"alert":"Hi"}}"#, topic: "com.example.sports.push-type.liveactivity"), pushType: .liveactivity, inferred: true),
        Inference(note: "mdm key, no aps", request: LintRuleCase.request(#"{"mdm":"1C2A"}"#), pushType: .mdm, inferred: true),
        Inference(note: "Live Activity event", request: LintRuleCase.request(#"{"aps":{"event":"update","timestamp":1767226500,"content-state":{}}}"#), pushType: .liveactivity, inferred: true),
        Inference(note: "content-changed", request: LintRuleCase.request(#"{"aps":{"content-changed":true}}"#), pushType: .widgets, inferred: true),
        Inference(note: "content-available only", request: LintRuleCase.request(#"{"aps":{"content-available":1},"sync":1}"#), pushType: .background, inferred: true),
        Inference(note: "content-available with a badge", request: LintRuleCase.request(#"{"aps":{"content-available":1,"badge":1}}"#), pushType: .alert, inferred: true),
        Inference(note: "plain alert", request: LintRuleCase.request(#"{"aps":{"alert":"Hi"}}"#, topic: "com.example.app"), pushType: .alert, inferred: true),
        Inference(note: "unparsable payload", request: LintRuleCase.request(#"{"aps":"#), pushType: .alert, inferred: true),
        Inference(note: "broadcast", request: LintRuleCase.request(#"{"aps":{"alert":"Hi"}}"#, destination: .broadcast), pushType: .liveactivity, inferred: true),
    ]

    @Test(arguments: inferences)
    func pushTypeInference(_ inference: Inference) {
        let report = Linter.lint(inference.request)
        #expect(report.pushType == inference.pushType)
        #expect(report.pushTypeWasInferred == inference.inferred)
    }

    @Test func inferredTypeDrivesTheRules() {
        // Inferred background: priority 10 is the background error, not an alert's.
        let background = Linter.lint(LintRuleCase.request(#"{"aps":{"content-available":1}}"#, topic: "com.example.mail", priority: "10"))
        #expect(background.pushTypeWasInferred)
        #expect(background.findings.map(\.rule.id) == ["APS-BG-PRIORITY"])
        // Inferred voip: the 5120-byte limit applies.
        let voip = Linter.lint(LintRuleCase.request(
            LintRuleCase.padded(#"{"pad":""#, to: 5000), topic: "com.example.phone.voip"))
        #expect(voip.pushType == .voip)
        #expect(voip.payloadLimit == 5120)
        #expect(voip.payloadSize == 5000)
        #expect(voip.findings.isEmpty, "\(voip.findings.map(\.description))")
    }

    @Test func payloadLimitFollowsTypeAndDestination() {
        let json = #"{"aps":{"alert":"Hi"}}"#
        #expect(Linter.lint(LintRuleCase.request(json, type: "alert")).payloadLimit == 4096)
        #expect(Linter.lint(LintRuleCase.request(json, type: "voip")).payloadLimit == 5120)
        #expect(Linter.lint(LintRuleCase.request(json, type: "liveactivity")).payloadLimit == 4096)
        #expect(Linter.lint(LintRuleCase.request(json, type: "liveactivity", destination: .broadcast)).payloadLimit == 5120)
        #expect(Linter.lint(LintRuleCase.request(json, destination: .simulatorFile)).payloadLimit == 4096)
        #expect(Linter.lint(LintRuleCase.request(json, type: "Alert")).payloadLimit == 4096)
        #expect(Linter.lint(LintRuleCase.request(json)).payloadSize == json.utf8.count)
    }

    // MARK: Regressions: linter bugs found by this table

    @Test func launchImageIsNotLegacy() {
        // The reference lists launch-image among the current alert keys; only summary-arg,
        // summary-arg-count, action-loc-key and action are legacy.
        let report = Linter.lint(LintRuleCase.alert(#"{"aps":{"alert":{"title":"Hi","body":"There","launch-image":"splash.png"}}}"#))
        #expect(!report.findings.contains { $0.rule.id == "APS-LEGACY-KEY" }, "\(report.findings.map(\.description))")
        #expect(!report.findings.contains { $0.rule.id == "APS-ALERT-UNKNOWN-KEY" })
    }

    @Test(arguments: ["+10", "010", "05", "-5", " 10", "10 "])
    func priorityIsOneOfTheThreeValuesExactly(_ value: String) {
        // "10, 5 or 1; other 400 BadPriority": any other spelling is another value.
        let report = Linter.lint(LintRequest(payload: LintRuleCase.bytes(#"{"aps":{"alert":"Hi"}}"#), pushType: "alert", priority: value))
        let check = {
            #expect(report.findings.contains { $0.rule.id == "HDR-PRIORITY" && $0.path == "apns-priority" }, "\(report.findings.map(\.description))")
        }
        check()
    }
}
