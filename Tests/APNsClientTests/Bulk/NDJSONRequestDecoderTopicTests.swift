import APNs
import APNsClient
import Testing

/// With `requiresTopic` (token authentication), a line without a topic of its own or a default is
/// refused with its number before it is sent (APNs would answer 400 MissingTopic); without it (a
/// client certificate, which may imply the topic) the same line decodes.
@Suite(.timeLimit(.minutes(1)))
struct NDJSONRequestDecoderTopicTests {
    static let token = String(repeating: "ab", count: 32)
    static let bare = Array(#"{"token":"\#(token)","payload":{"aps":{"alert":"a"}}}"#.utf8)
    static let withTopic = Array(
        #"{"token":"\#(token)","payload":{"aps":{"alert":"a"}},"apns-topic":"com.example.app"}"#.utf8)
    static let withPriority = Array(#"{"token":"\#(token)","payload":{"aps":{"alert":"a"}},"apns-priority":"5"}"#.utf8)
    /// Parsed fully, not scanned: the key order differs from the common shape.
    static let reordered = Array(#"{"payload":{"aps":{"alert":"a"}},"token":"\#(token)"}"#.utf8)

    static func decoder(topic: String?, requiresTopic: Bool) -> NDJSONRequestDecoder {
        var decoder = NDJSONRequestDecoder(topic: topic, pushType: "alert")
        decoder.requiresTopic = requiresTopic
        return decoder
    }

    @Test(arguments: [bare, withPriority, reordered])
    func aLineWithoutATopicIsRefusedWithItsNumber(_ line: [UInt8]) {
        for decoder in [
            Self.decoder(topic: nil, requiresTopic: true), Self.decoder(topic: nil, requiresTopic: true).prepared(),
        ] {
            #expect(
                throws: NDJSONRequestDecoder.LineError(
                    line: 7, message: "apns-topic: missing; token authentication needs the topic (the app's bundle id)")
            ) {
                try decoder.decode(line, number: 7)
            }
        }
    }

    @Test func theLinesTopicOrTheDefaultIsEnough() throws {
        let decoder = Self.decoder(topic: nil, requiresTopic: true).prepared()
        #expect(try decoder.decode(Self.withTopic, number: 1).notification.topic?.value == "com.example.app")
        let defaulted = Self.decoder(topic: "com.example.default", requiresTopic: true).prepared()
        for line in [Self.bare, Self.withPriority, Self.reordered] {
            #expect(try defaulted.decode(line, number: 1).notification.topic?.value == "com.example.default")
        }
    }

    @Test(arguments: [bare, withPriority, reordered])
    func withoutTheRequirementALineNeedsNoTopic(_ line: [UInt8]) throws {
        let decoder = Self.decoder(topic: nil, requiresTopic: false).prepared()
        #expect(try decoder.decode(line, number: 1).notification.topic == nil)
    }
}
