import APNs
import Testing

/// The request headers and the device token: what each accepts, what it rejects, and what the
/// error says (APNS-REFERENCE.md, "Device push request" and "Push types").
@Suite(.timeLimit(.minutes(1)))
struct HeaderTests {
    // MARK: - apns-push-type

    /// One row of the reference's push-type table.
    struct PushTypeRow: Sendable, CustomTestStringConvertible {
        let name: String
        let suffix: String?
        let payloadLimit: Int
        var testDescription: String { name }
    }

    /// Written from APNS-REFERENCE.md by hand; the code must agree with it.
    static let pushTypes: [PushTypeRow] = [
        PushTypeRow(name: "alert", suffix: "", payloadLimit: 4096),
        PushTypeRow(name: "background", suffix: "", payloadLimit: 4096),
        PushTypeRow(name: "location", suffix: ".location-query", payloadLimit: 4096),
        PushTypeRow(name: "voip", suffix: ".voip", payloadLimit: 5120),
        PushTypeRow(name: "complication", suffix: ".complication", payloadLimit: 4096),
        PushTypeRow(name: "fileprovider", suffix: ".pushkit.fileprovider", payloadLimit: 4096),
        PushTypeRow(name: "mdm", suffix: nil, payloadLimit: 4096),
        PushTypeRow(name: "liveactivity", suffix: ".push-type.liveactivity", payloadLimit: 4096),
        PushTypeRow(name: "pushtotalk", suffix: ".voip-ptt", payloadLimit: 4096),
        PushTypeRow(name: "widgets", suffix: ".push-type.widgets", payloadLimit: 4096),
        PushTypeRow(name: "controls", suffix: ".push-type.controls", payloadLimit: 4096),
    ]

    @Test func everyPushTypeIsListed() {
        #expect(PushType.allCases.count == 11)
        #expect(Set(PushType.allCases.map(\.rawValue)) == Set(Self.pushTypes.map(\.name)))
    }

    @Test(arguments: pushTypes)
    func pushType(_ row: PushTypeRow) throws {
        let type = try PushType(headerValue: row.name)
        #expect(type.rawValue == row.name)
        #expect(type.description == row.name)
        #expect(type.topicSuffix == row.suffix)
        #expect(type.payloadLimit == row.payloadLimit)
        #expect(type.requiresTokenAuthentication == (row.name == "location"))
    }

    @Test(arguments: [
        "Alert", "ALERT", "notification", "", " alert", "alert ", "live-activity", "voip-ptt", "LiveActivity",
    ])
    func unknownPushTypeIsRejected(_ value: String) {
        let error = #expect(throws: FieldError.self) { try PushType(headerValue: value) }
        #expect(error?.field == "apns-push-type")
        #expect(error?.message.contains("'\(value)'") == true, "\(String(describing: error))")
        for row in Self.pushTypes {
            #expect(error?.message.contains(row.name) == true, "allowed value \(row.name) not listed")
        }
    }

    static let priorityRules: [(PushType, [Priority])] = [
        (.background, [.powerConsiderate]),
        (.voip, [.immediate]),
        (.pushtotalk, [.immediate]),
        (.alert, [.immediate, .powerConsiderate]),
        (.location, [.immediate, .powerConsiderate]),
        (.liveactivity, [.immediate, .powerConsiderate]),
    ]

    /// The priorities the reference names for a push type are allowed; background never gets 10.
    @Test(arguments: priorityRules)
    func documentedPrioritiesAreAllowed(_ type: PushType, _ priorities: [Priority]) {
        #expect(Set(type.allowedPriorities) == Set(priorities))
    }

    @Test(arguments: PushType.allCases)
    func defaultPriorityIsAllowed(_ type: PushType) {
        #expect(type.allowedPriorities.contains(type.defaultPriority))
        #expect(type.defaultPriority == (type == .background ? .powerConsiderate : .immediate))
    }

    // MARK: - apns-priority

    /// Exactly the three spellings the reference names; Priority.swift matches the text, so "05",
    /// "010" and "+5" are other values (400 BadPriority), not lenient spellings of 5 and 10.
    static let acceptedPriorities: [(String, Priority)] = [("10", .immediate), ("5", .powerConsiderate), ("1", .low)]

    @Test(arguments: acceptedPriorities)
    func priorityIsAccepted(_ text: String, _ expected: Priority) throws {
        let priority = try Priority(headerValue: text)
        #expect(priority == expected)
        #expect(priority.headerValue == String(expected.rawValue))
        #expect(try Priority(headerValue: priority.headerValue) == priority)
    }

    @Test(arguments: [
        "7", "", "ten", "0", "-5", "11", " 10", "10 ", "1.0", "5e0", "0x0A", "١٠", "05", "010", "+5", "+10", "-0",
        "001",
    ])
    func priorityIsRejected(_ text: String) {
        let error = #expect(throws: FieldError.self) { try Priority(headerValue: text) }
        #expect(error?.field == "apns-priority")
        #expect(error?.message.contains("'\(text)'") == true)
        #expect(error?.message.contains("10, 5 or 1") == true)
    }

    // MARK: - apns-expiration

    static let acceptedExpirations: [(String, Expiration)] = [
        ("0", .immediately), ("00", .immediately), ("1", .at(unixSeconds: 1)),
        ("1767225600", .at(unixSeconds: 1_767_225_600)), ("9223372036854775807", .at(unixSeconds: Int.max)),
    ]

    @Test(arguments: acceptedExpirations)
    func expirationIsAccepted(_ text: String, _ expected: Expiration) throws {
        let expiration = try Expiration(headerValue: text)
        #expect(expiration == expected)
        #expect(expiration.unixSeconds == Int(text))
        #expect(expiration.headerValue == String(expected.unixSeconds))
    }

    @Test func expirationHeaderValues() {
        #expect(Expiration.immediately.headerValue == "0")
        #expect(Expiration.at(unixSeconds: 1_767_225_600).headerValue == "1767225600")
        #expect(Expiration.immediately.unixSeconds == 0)
    }

    @Test(arguments: ["-1", "abc", "", "1.5", " 1", "1 ", "+1", "1e9", "0x10", "99999999999999999999", "١"])
    func expirationIsRejected(_ text: String) {
        let error = #expect(throws: FieldError.self) { try Expiration(headerValue: text) }
        #expect(error?.field == "apns-expiration")
        #expect(error?.message.contains("'\(text)'") == true)
        #expect(error?.description.hasPrefix("apns-expiration: ") == true)
    }

    // MARK: - apns-collapse-id

    static let acceptedCollapseIDs: [String] = [
        "a",
        String(repeating: "x", count: 64),
        String(repeating: "é", count: 32),  // 64 bytes, 32 characters
        String(repeating: "€", count: 21) + "a",  // 64 bytes, 22 characters
        String(repeating: "😀", count: 16),  // 64 bytes, 16 characters
        String(repeating: "é€", count: 12) + "abcd",  // 64 bytes
    ]

    @Test(arguments: acceptedCollapseIDs)
    func collapseIDUpTo64BytesIsAccepted(_ text: String) throws {
        #expect(text.utf8.count <= 64)
        #expect(try CollapseID(text).value == text)
    }

    static let rejectedCollapseIDs: [String] = [
        String(repeating: "x", count: 65),
        String(repeating: "é", count: 33),  // 66 bytes, 33 characters
        String(repeating: "€", count: 22),  // 66 bytes, only 22 characters
        String(repeating: "😀", count: 16) + "a",  // 65 bytes, 17 characters
        String(repeating: "é€", count: 13),  // 65 bytes, 26 characters
    ]

    @Test(arguments: rejectedCollapseIDs)
    func collapseIDOver64BytesIsRejected(_ text: String) {
        #expect(text.count <= 65)
        let error = #expect(throws: FieldError.self) { try CollapseID(text) }
        #expect(error?.field == "apns-collapse-id")
        #expect(error?.message.contains("\(text.utf8.count) bytes") == true, "\(String(describing: error))")
        #expect(error?.message.contains("64") == true)
    }

    @Test func emptyCollapseIDIsRejected() {
        let error = #expect(throws: FieldError.self) { try CollapseID("") }
        #expect(error?.field == "apns-collapse-id")
        #expect(error?.message.contains("empty") == true)
    }

    // MARK: - apns-id

    static let acceptedIDs: [(String, String)] = [
        ("123e4567-e89b-12d3-a456-426655440000", "123e4567-e89b-12d3-a456-426655440000"),
        ("123E4567-E89B-12D3-A456-426655440000", "123e4567-e89b-12d3-a456-426655440000"),
        ("AbCdEf01-2345-6789-aBcD-eF0123456789", "abcdef01-2345-6789-abcd-ef0123456789"),
        ("00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"),
    ]

    @Test(arguments: acceptedIDs)
    func apnsIDIsLowercased(_ text: String, _ canonical: String) throws {
        let id = try APNsID(text)
        #expect(id.value == canonical)
        #expect(id.description == canonical)
        #expect(try APNsID(canonical) == id)
    }

    @Test(arguments: [
        "",
        "123e4567e89b12d3a456426655440000",  // no dashes
        "123e4567e-89b-12d3-a456-426655440000",  // dash moved
        "123e456-7e89b-12d3-a456-426655440000",  // 7-5-4-4-12
        "123e4567-e89b-12d3-a4564-26655440000",  // 8-4-4-5-11
        "{123e4567-e89b-12d3-a456-426655440000}",  // braces
        "urn:uuid:123e4567-e89b-12d3-a456-426655440000",
        "g23e4567-e89b-12d3-a456-426655440000",  // non-hex
        "123e4567-e89b-12d3-a456-42665544000",  // short
        "123e4567-e89b-12d3-a456-4266554400000",  // long
        "123e4567-e89b-12d3-a456-426655440000\n",
        " 123e4567-e89b-12d3-a456-42665544000",
        "123e4567_e89b_12d3_a456_426655440000",
        "123e4567-e89b-12d3-a456-42665544000é",
    ])
    func malformedAPNsIDIsRejected(_ text: String) {
        let error = #expect(throws: FieldError.self) { try APNsID(text) }
        #expect(error?.field == "apns-id")
        #expect(error?.message.contains("8-4-4-4-12") == true)
    }

    /// Every bit lands in its digit: the word-at-a-time writer against a digit-by-digit reference.
    @Test(arguments: [
        (UInt64(0), UInt64(0)), (UInt64.max, UInt64.max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210),
        (0xA5A5_A5A5_A5A5_A5A5, 0x5A5A_5A5A_5A5A_5A5A), (0x0000_0000_FFFF_FFFF, 0xFFFF_FFFF_0000_0000),
    ])
    func version4DigitsMatchTheBits(high: UInt64, low: UInt64) {
        var buffer = [UInt8](repeating: 0, count: 36)
        buffer.withUnsafeMutableBufferPointer { APNsID.writeVersion4(high: high, low: low, into: $0) }
        let versioned = high & 0xFFFF_FFFF_FFFF_0FFF | 0x4000
        let varied = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        var expected = ""
        for word in [versioned, varied] {
            for shift in stride(from: 60, through: 0, by: -4) {
                let position = expected.count
                if [8, 13, 18, 23].contains(position) { expected += "-" }
                expected += String((word >> UInt64(shift)) & 0xF, radix: 16)
            }
        }
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
    }

    @Test func randomAPNsIDsAreCanonicalVersion4AndDistinct() throws {
        var seen = Set<String>()
        for _ in 0..<200 {
            let id = APNsID.random()
            let characters = Array(id.value)
            #expect(characters.count == 36)
            for (position, character) in characters.enumerated() {
                if [8, 13, 18, 23].contains(position) {
                    #expect(character == "-", "\(id)")
                } else {
                    #expect("0123456789abcdef".contains(character), "\(id)")
                }
            }
            #expect(characters[14] == "4", "version nibble: \(id)")
            #expect("89ab".contains(characters[19]), "variant nibble: \(id)")
            #expect(try APNsID(id.value) == id)
            seen.insert(id.value)
        }
        #expect(seen.count == 200)
    }

    @Test func seededRandomAPNsIDsRepeat() {
        var first = JSONTests.SplitMix64(seed: 42)
        var second = JSONTests.SplitMix64(seed: 42)
        let a = APNsID.random(using: &first)
        let b = APNsID.random(using: &second)
        #expect(a == b)
        #expect(APNsID.random(using: &first) != a)
    }

    // MARK: - Device tokens

    static let acceptedTokens: [String] = [
        String(repeating: "a1", count: 32),  // 64 digits, today's device tokens
        String(repeating: "0F", count: 80),  // 160 digits, as Live Activity tokens have been seen
        "ab",
        "ABCDEF0123456789",
    ]

    @Test(arguments: acceptedTokens)
    func deviceTokenIsLowercased(_ text: String) throws {
        let token = try DeviceToken(hex: text)
        #expect(token.hex == text.lowercased())
        #expect(token.description == text.lowercased())
        #expect(token.bytes.count == text.utf8.count / 2)
        #expect(try DeviceToken(bytes: token.bytes) == token)
    }

    /// Tokens are checked eight digits at a time: every ASCII character at a position in each lane
    /// of a word and in the tail gives the verdict a character-by-character reading would.
    @Test(arguments: [0, 5, 7, 8, 31, 63, 64, 65])
    func everyCharacterAtTokenPositions(position: Int) {
        for byte in UInt8(0)..<0x80 {
            var digits = Array(String(repeating: "0a", count: 33).utf8)  // 66 digits: a tail past the words
            digits[position] = byte
            let text = String(decoding: digits, as: UTF8.self)
            let isHex = "0123456789abcdefABCDEF".utf8.contains(byte)
            let token = try? DeviceToken(hex: text)
            #expect((token != nil) == isHex, "byte \(byte) at \(position)")
            if let token { #expect(token.hex == text.lowercased(), "byte \(byte) at \(position)") }
        }
    }

    @Test func deviceTokenFromBytesEqualsHex() throws {
        let fromBytes = try DeviceToken(bytes: [0xAB, 0xCD, 0x01, 0x00, 0xFF])
        #expect(fromBytes == (try DeviceToken(hex: "ABCD0100FF")))
        #expect(fromBytes.hex == "abcd0100ff")
        #expect(fromBytes.bytes == [0xAB, 0xCD, 0x01, 0x00, 0xFF])
    }

    @Test func emptyDeviceTokenIsRejected() {
        let fromHex = #expect(throws: FieldError.self) { try DeviceToken(hex: "") }
        #expect(fromHex?.field == "token")
        #expect(fromHex?.message.contains("empty") == true)
        let fromBytes = #expect(throws: FieldError.self) { try DeviceToken(bytes: [UInt8]()) }
        #expect(fromBytes?.field == "token")
    }

    @Test(arguments: ["a", "abc", String(repeating: "a", count: 63), String(repeating: "b", count: 161)])
    func oddDeviceTokenIsRejected(_ text: String) {
        let error = #expect(throws: FieldError.self) { try DeviceToken(hex: text) }
        #expect(error?.field == "token")
        #expect(error?.message.contains("\(text.utf8.count) hex digits") == true, "\(String(describing: error))")
        #expect(error?.message.contains("even") == true)
    }

    /// A non-hex character: the message names it and its position (from 1).
    static let nonHexTokens: [(String, String, Int)] = [
        ("abzd", "z", 3),
        ("<abcd>", "<", 1),
        ("abcd ef01", " ", 5),
        ("0123456789abcdefg1", "g", 17),
        ("ab-cd", "-", 3),
    ]

    @Test(arguments: nonHexTokens)
    func nonHexDeviceTokenIsRejected(_ text: String, _ character: String, _ position: Int) {
        let error = #expect(throws: FieldError.self) { try DeviceToken(hex: text) }
        #expect(error?.field == "token")
        #expect(error?.message.contains("position \(position)") == true, "\(String(describing: error))")
        #expect(error?.message.contains("'\(character)'") == true, "\(String(describing: error))")
    }

    @Test func nonASCIIInDeviceTokenIsRejected() {
        let error = #expect(throws: FieldError.self) { try DeviceToken(hex: "abé0") }
        #expect(error?.field == "token")
        #expect(error?.message.contains("position 3") == true)
    }

    static let hexCases: [([UInt8], String)] = [([], ""), ([0], "00"), ([0x0F, 0xF0, 0xAB], "0ff0ab")]

    @Test(arguments: hexCases)
    func hexRoundTrip(_ bytes: [UInt8], _ text: String) {
        #expect(Hex.encode(bytes) == text)
        #expect(Hex.decode(text) == bytes)
        #expect(Hex.decode(text.uppercased()) == bytes)
    }

    @Test(arguments: ["a", "abc", "zz", "0g", "é0"])
    func hexDecodeRejects(_ text: String) {
        #expect(Hex.decode(text) == nil)
    }

    // MARK: - apns-topic

    static let bundle = "com.example.app"

    @Test(arguments: pushTypes)
    func topicForPushType(_ row: PushTypeRow) throws {
        let type = try PushType(headerValue: row.name)
        let topic = try Topic(bundleID: Self.bundle, pushType: type)
        #expect(topic.value == Self.bundle + (row.suffix ?? ""))
        #expect(topic.bundleID == Self.bundle)
        #expect(topic.suffix == (row.suffix ?? ""))
        #expect(topic.problem(for: type) == nil)
        #expect(try Topic(topic.value) == topic)
    }

    /// A topic built for one push type fits another exactly when the suffixes agree; mdm takes any.
    static let topicPairs: [(PushType, PushType)] = PushType.allCases.flatMap { topicType in
        PushType.allCases.map { (topicType, $0) }
    }

    @Test(arguments: topicPairs)
    func topicProblemWhenSuffixDiffers(_ topicType: PushType, _ pushType: PushType) throws {
        let topic = try Topic(bundleID: Self.bundle, pushType: topicType)
        let problem = topic.problem(for: pushType)
        if pushType == .mdm {
            #expect(problem == nil)
        } else if (topicType.topicSuffix ?? "") == pushType.topicSuffix {
            #expect(problem == nil)
        } else {
            let expected = Self.bundle + (pushType.topicSuffix ?? "")
            #expect(problem?.contains("'\(expected)'") == true, "\(String(describing: problem))")
            #expect(problem?.contains(topic.value) == true)
        }
    }

    static let topicProblems: [(String, PushType, Bool)] = [
        ("com.example.app.voip", .alert, true),
        ("com.example.app.voip", .voip, false),
        ("com.example.app.voip", .pushtotalk, true),
        ("com.example.app.voip-ptt", .voip, true),
        ("com.example.app.voip-ptt", .pushtotalk, false),
        ("com.example.app", .voip, true),
        ("com.example.app", .background, false),
        ("com.example.app.push-type.liveactivity", .liveactivity, false),
        ("com.example.app.push-type.liveactivity", .widgets, true),
        ("com.example.app.complication", .alert, true),
        ("com.apple.mgmt.External.2f6c9d8e", .mdm, false),
        ("com.example.app.voip", .mdm, false),
        ("anything.at.all.push-type.widgets", .mdm, false),
    ]

    @Test(arguments: topicProblems)
    func topicProblem(_ value: String, _ type: PushType, _ hasProblem: Bool) throws {
        #expect((try Topic(value).problem(for: type) != nil) == hasProblem)
    }

    @Test func alertToVoIPTopicNamesTheBareBundle() throws {
        let problem = try #require(try Topic("com.example.app.voip").problem(for: .alert))
        #expect(problem.contains("'com.example.app'"))
        #expect(problem.contains(".voip"))
    }

    @Test func topicWithoutKnownSuffixIsItsOwnBundle() throws {
        let topic = try Topic("com.apple.mgmt.External.2f6c9d8e")
        #expect(topic.bundleID == "com.apple.mgmt.External.2f6c9d8e")
        #expect(topic.suffix == "")
        let bare = try Topic(".voip")
        #expect(bare.bundleID == ".voip")
        #expect(bare.suffix == "")
    }

    @Test(arguments: ["", "com example app", "com.exämple.app", "com.example.app\n", "\tcom.example"])
    func invalidTopicIsRejected(_ value: String) {
        let error = #expect(throws: FieldError.self) { try Topic(value) }
        #expect(error?.field == "apns-topic")
    }
}
