import APNs
import Testing

@testable import APNsClient

/// A line's payload shares the previous line's array when the bytes are the same, and only then.
@Suite(.timeLimit(.minutes(1)))
struct NDJSONRequestDecoderTests {
    static let token = String(repeating: "ab", count: 32)

    static func line(_ payload: String) -> [UInt8] {
        Array(#"{"token":"\#(token)","payload":\#(payload)}"#.utf8)
    }

    static func storage(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    /// Payloads in line order: equal neighbours, a change, a change back, a same-length change.
    @Test(arguments: [
        [#"{"aps":{"alert":"a"}}"#, #"{"aps":{"alert":"a"}}"#],
        [#"{"aps":{"alert":"a"}}"#, #"{"aps":{"alert":"b"}}"#, #"{"aps":{"alert":"a"}}"#],
        [#"{"aps":{"alert":"a"}}"#, #"{"aps":{"alert":"ab"}}"#, #"{"aps":{"alert":"ab"}}"#],
        [#"{}"#, #"{"aps":{}}"#, #"{}"#],
    ])
    func payloadsAreSharedOnlyWhenEqual(_ payloads: [String]) throws {
        // `{}` has no aps: a lint error, not refused here (the sharing is the point).
        let decoder = NDJSONRequestDecoder(topic: "com.example.app", pushType: "alert", refuseLintErrors: false)
        var previous: [UInt8]?
        for (index, payload) in payloads.enumerated() {
            let notification = try decoder.decode(Self.line(payload), number: index + 1).notification
            let bytes = notification.payload.bytes
            #expect(bytes == Array(payload.utf8), "line \(index + 1) keeps its own bytes")
            if let previous {
                #expect((Self.storage(previous) == Self.storage(bytes)) == (previous == bytes))
            }
            previous = bytes
        }
    }
}
