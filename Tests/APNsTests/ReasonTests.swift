import APNs
import Testing

/// The one reason table against APNS-REFERENCE.md ("Responses" and "Broadcast push"): statuses,
/// retry and prune decisions, and reasons Herald does not know.
@Suite(.timeLimit(.minutes(1)))
struct ReasonTests {
    /// A reason and the status the reference gives it.
    struct Documented: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int
        var testDescription: String { "\(name) (\(status))" }

        init(_ name: String, _ status: Int) {
            self.name = name
            self.status = status
        }
    }

    /// The reference's status table for device pushes, copied by hand.
    static let deviceReasons: [Documented] = [
        Documented("BadCollapseId", 400), Documented("BadDeviceToken", 400), Documented("BadExpirationDate", 400),
        Documented("BadMessageId", 400), Documented("BadPriority", 400), Documented("BadTopic", 400),
        Documented("DeviceTokenNotForTopic", 400), Documented("DuplicateHeaders", 400), Documented("IdleTimeout", 400),
        Documented("InvalidPushType", 400), Documented("MissingDeviceToken", 400), Documented("MissingTopic", 400),
        Documented("PayloadEmpty", 400), Documented("TopicDisallowed", 400),
        Documented("BadCertificate", 403), Documented("BadCertificateEnvironment", 403),
        Documented("ExpiredProviderToken", 403), Documented("Forbidden", 403), Documented("InvalidProviderToken", 403),
        Documented("MissingProviderToken", 403), Documented("UnrelatedKeyIdInToken", 403),
        Documented("BadEnvironmentKeyIdInToken", 403),
        Documented("BadPath", 404),
        Documented("MethodNotAllowed", 405),
        Documented("ExpiredToken", 410), Documented("Unregistered", 410),
        Documented("PayloadTooLarge", 413),
        Documented("TooManyProviderTokenUpdates", 429), Documented("TooManyRequests", 429),
        Documented("InternalServerError", 500),
        Documented("ServiceUnavailable", 503), Documented("Shutdown", 503),
    ]

    /// The reference's list for broadcast sends and channel management, copied by hand.
    static let broadcastReasons: [Documented] = [
        Documented("FeatureNotEnabled", 400), Documented("MissingChannelId", 400), Documented("BadChannelId", 400),
        Documented("ChannelNotRegistered", 400), Documented("BadRequestParams", 400),
        Documented("BadRequestPayload", 400), Documented("PayloadEmpty", 400), Documented("BadMessageId", 400),
        Documented("MissingPushType", 400), Documented("InvalidPushType", 400),
        Documented("CannotCreateChannelConfig", 400), Documented("BadExpirationDate", 400),
        Documented("TopicDisallowed", 400), Documented("BadPriority", 400),
        Documented("BadCertificate", 403), Documented("BadCertificateEnvironment", 403),
        Documented("TopicMismatch", 403),
        Documented("MissingProviderToken", 403), Documented("ExpiredProviderToken", 403),
        Documented("InvalidProviderToken", 403),
        Documented("BadPath", 404),
        Documented("MethodNotAllowed", 405),
        Documented("PayloadTooLarge", 413),
        Documented("TooManyRequests", 429), Documented("TooManyProviderTokenUpdates", 429),
        Documented("InternalServerError", 500),
        Documented("ServiceUnavailable", 503), Documented("Shutdown", 503),
    ]

    static var allNames: Set<String> { Set((deviceReasons + broadcastReasons).map(\.name)) }

    static let retryable: Set<String> = ["TooManyRequests", "InternalServerError", "ServiceUnavailable", "Shutdown"]
    static let prunesToken: Set<String> = ["BadDeviceToken", "DeviceTokenNotForTopic", "ExpiredToken", "Unregistered"]
    /// "never retry BadDeviceToken, DeviceTokenNotForTopic, Forbidden, ExpiredToken, Unregistered, PayloadTooLarge".
    static let neverRetry: [String] = [
        "BadDeviceToken", "DeviceTokenNotForTopic", "Forbidden", "ExpiredToken", "Unregistered", "PayloadTooLarge",
    ]

    @Test(arguments: deviceReasons)
    func deviceReasonIsInTheTable(_ documented: Documented) throws {
        let reason = Reason(documented.name)
        let info = try #require(Reason.table[reason], "\(documented.name) is missing from Reason.table")
        #expect(info.reason.rawValue == documented.name)
        #expect(info.status == documented.status)
        #expect(reason.status == documented.status)
        #expect(reason.isDocumented)
        #expect(info.scope.contains(.device), "\(documented.name) can come from a device push")
        #expect(!info.summary.isEmpty)
    }

    @Test(arguments: broadcastReasons)
    func broadcastReasonIsInTheTable(_ documented: Documented) throws {
        let reason = Reason(documented.name)
        let info = try #require(Reason.table[reason], "\(documented.name) is missing from Reason.table")
        #expect(info.status == documented.status)
        #expect(reason.status == documented.status)
        #expect(!info.scope.isDisjoint(with: [.broadcast, .channels]), "\(documented.name) can come from a broadcast")
    }

    @Test func tableHasNothingTheReferenceDoesNotList() {
        let tableNames = Reason.allDocumented.map(\.reason.rawValue)
        #expect(Set(tableNames) == Self.allNames)
        #expect(Reason.table.count == Self.allNames.count)
    }

    @Test func tableHasNoDuplicateRows() {
        let names = Reason.allDocumented.map(\.reason.rawValue)
        #expect(Set(names).count == names.count)
        #expect(Reason.table.count == Reason.allDocumented.count)
        for info in Reason.allDocumented {
            #expect(Reason.table[info.reason] == info)
        }
    }

    @Test func allDocumentedIsInStatusOrder() {
        let statuses = Reason.allDocumented.map(\.status)
        #expect(statuses == statuses.sorted())
    }

    @Test(arguments: Reason.allDocumented)
    func retryableExactlyForTemporaryFailures(_ info: ReasonInfo) {
        let name = info.reason.rawValue
        #expect(info.reason.isRetryable == Self.retryable.contains(name), "\(name)")
        #expect((info.retry == .withBackoff) == Self.retryable.contains(name), "\(name)")
        if info.status >= 500 { #expect(info.reason.isRetryable, "\(name): 5xx may be retried") }
    }

    @Test(arguments: Reason.allDocumented)
    func prunesTokenExactlyForDeadTokens(_ info: ReasonInfo) {
        let name = info.reason.rawValue
        #expect(info.reason.prunesToken == Self.prunesToken.contains(name), "\(name)")
        #expect(info.prunesToken == Self.prunesToken.contains(name), "\(name)")
    }

    @Test(arguments: neverRetry)
    func neverRetried(_ name: String) throws {
        let reason = Reason(name)
        #expect(!reason.isRetryable)
        #expect(try #require(reason.info).retry == .never)
    }

    @Test(arguments: ["SomethingAppleAddsLater", "", "badDeviceToken", "BadDeviceToken "])
    func unknownReasonSurvives(_ name: String) {
        let reason = Reason(rawValue: name)
        #expect(reason.rawValue == name)
        #expect(reason.description == name)
        #expect(reason.info == nil)
        #expect(reason.status == nil)
        #expect(!reason.isDocumented)
        #expect(!reason.isRetryable)
        #expect(!reason.prunesToken)
        #expect(reason == Reason(name))
    }

    @Test func misspelledEnvironmentKeyReasonIsNormalised() {
        let reason = Reason(rawValue: "BadEnvironmentKeyInToken")
        #expect(reason == .badEnvironmentKeyIdInToken)
        #expect(reason.rawValue == "BadEnvironmentKeyIdInToken")
        #expect(Reason("BadEnvironmentKeyInToken") == .badEnvironmentKeyIdInToken)
        #expect(reason.status == 403)
        #expect(reason.isDocumented)
    }

    /// The static members are spelled as APNs spells them.
    static let members: [(Reason, String)] = [
        (.badCollapseId, "BadCollapseId"), (.badDeviceToken, "BadDeviceToken"),
        (.badExpirationDate, "BadExpirationDate"), (.badMessageId, "BadMessageId"), (.badPriority, "BadPriority"),
        (.badTopic, "BadTopic"), (.deviceTokenNotForTopic, "DeviceTokenNotForTopic"),
        (.duplicateHeaders, "DuplicateHeaders"), (.idleTimeout, "IdleTimeout"), (.invalidPushType, "InvalidPushType"),
        (.missingDeviceToken, "MissingDeviceToken"), (.missingTopic, "MissingTopic"), (.payloadEmpty, "PayloadEmpty"),
        (.topicDisallowed, "TopicDisallowed"), (.featureNotEnabled, "FeatureNotEnabled"),
        (.missingChannelId, "MissingChannelId"), (.badChannelId, "BadChannelId"),
        (.channelNotRegistered, "ChannelNotRegistered"), (.badRequestParams, "BadRequestParams"),
        (.badRequestPayload, "BadRequestPayload"), (.missingPushType, "MissingPushType"),
        (.cannotCreateChannelConfig, "CannotCreateChannelConfig"), (.badCertificate, "BadCertificate"),
        (.badCertificateEnvironment, "BadCertificateEnvironment"), (.expiredProviderToken, "ExpiredProviderToken"),
        (.forbidden, "Forbidden"), (.invalidProviderToken, "InvalidProviderToken"),
        (.missingProviderToken, "MissingProviderToken"), (.unrelatedKeyIdInToken, "UnrelatedKeyIdInToken"),
        (.badEnvironmentKeyIdInToken, "BadEnvironmentKeyIdInToken"), (.topicMismatch, "TopicMismatch"),
        (.badPath, "BadPath"), (.methodNotAllowed, "MethodNotAllowed"), (.expiredToken, "ExpiredToken"),
        (.unregistered, "Unregistered"), (.payloadTooLarge, "PayloadTooLarge"),
        (.tooManyProviderTokenUpdates, "TooManyProviderTokenUpdates"), (.tooManyRequests, "TooManyRequests"),
        (.internalServerError, "InternalServerError"), (.serviceUnavailable, "ServiceUnavailable"),
        (.shutdown, "Shutdown"),
    ]

    @Test(arguments: members)
    func staticMemberSpelling(_ reason: Reason, _ name: String) {
        #expect(reason.rawValue == name)
        #expect(reason.isDocumented)
    }

    @Test func everyTableRowHasAStaticMember() {
        #expect(Set(Self.members.map { $0.0 }) == Set(Reason.table.keys))
    }
}
