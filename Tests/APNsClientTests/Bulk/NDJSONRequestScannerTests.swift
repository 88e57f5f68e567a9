import APNs
import Testing

@testable import APNsClient

/// The byte-level reading of bulk request lines: it agrees with the full JSON parse on every line
/// it accepts, and leaves every other line to it.
@Suite(.timeLimit(.minutes(1)))
struct NDJSONRequestScannerTests {
    static let token = String(repeating: "ab", count: 32)
    static let decoder = NDJSONRequestDecoder(
        topic: "com.example.app", pushType: nil, priority: nil, expiration: nil, collapseID: nil)

    /// The notification the full parse gives, for comparison.
    static func parsed(_ line: String) throws -> Notification {
        let object = try #require(try JSONValue(parsing: Array(line.utf8)).objectValue)
        let token = try #require(object["token"]?.stringValue)
        let payload = try #require(object["payload"])
        func header(_ name: String) -> String? { object[name].flatMap { $0.stringValue ?? $0.numberValue?.text } }
        let body = EncodedPayload(bytes: payload.encoded())
        let pushType =
            try header("apns-push-type").map(PushType.init(headerValue:))
            ?? Linter.lint(LintRequest(payload: body.bytes, topic: header("apns-topic") ?? "com.example.app")).pushType
            ?? .alert
        return Notification(
            token: try DeviceToken(hex: token), topic: try Topic(header("apns-topic") ?? "com.example.app"),
            pushType: pushType,
            priority: try header("apns-priority").map(Priority.init(headerValue:)),
            expiration: try header("apns-expiration").map(Expiration.init(headerValue:)),
            collapseID: try header("apns-collapse-id").map(CollapseID.init),
            apnsID: try header("apns-id").map(APNsID.init),
            payload: body)
    }

    @Test(arguments: [
        #"{"token":"\#(token)","payload":{"aps":{"alert":{"title":"Order shipped","body":"On its way."},"sound":"default"}}}"#,
        #"{"payload":{"aps":{"content-available":1}},"token":"\#(token)","apns-push-type":"background","apns-priority":5}"#,
        #" { "token" : "\#(token)" , "payload" : {"aps":{"alert":"x","badge":-12,"x":[1.5e3,true,false,null,{}]}} } "#,
        #"{"token":"\#(token)","payload":{"aps":{"alert":"x"}},"apns-expiration":0,"apns-collapse-id":"c1","apns-id":"123e4567-e89b-12d3-a456-426655440000","apns-topic":"com.example.other"}"#,
    ])
    func readsTheCommonShapeLikeTheFullParse(_ line: String) throws {
        #expect(NDJSONRequestScanner.scan(Array(line.utf8)) != nil, "the fast path should take this line")
        let notification = try Self.decoder.decode(Array(line.utf8), number: 1).notification
        #expect(notification == (try Self.parsed(line)))
    }

    @Test(arguments: [
        #"{"token":"\#(token)","payload":{"aps":{"alert":"caf\u00e9"}}}"#,  // an escape
        #"{"token":"\#(token)","payload":{"aps":{"alert":"café"}}}"#,  // not ASCII
        #"{"token":"\#(token)","payload":{ "aps":{"alert":"x"}}}"#,  // whitespace inside the payload
        #"{"token":"\#(token)","token":"\#(token)","payload":{}}"#,  // a repeated key
        #"{"token":"\#(token)","payload":{},"extra":1}"#,  // an unknown key
        #"{"token":"\#(token)","payload":{"aps":{"badge":01}}}"#,  // a leading zero
        #"{"token":"\#(token)","payload":{"aps":{"alert":"x"}}"#,  // unbalanced
        #"{"token":"\#(token)","payload":{"aps":{"alert":"x"}},"apns-priority":5.0}"#,  // not an integer
        #"{"token":"\#(token)","payload":[1]}"#,  // payload not an object
        #"not json"#,
        // A header string that never ends: its digits are not an integer.
        #"{"token":"\#(token)","payload":{},"apns-priority":"10}"#,
        #"{"token":"\#(token)","payload":{},"apns-expiration":"0}"#,
        "{\"token\":\"\(token)\",\"payload\":{},\"apns-priority\":\"5\t}",
    ])
    func leavesEveryOtherLineToTheFullParse(_ line: String) {
        #expect(NDJSONRequestScanner.scan(Array(line.utf8)) == nil)
    }

    /// What the fast path leaves to the full parse is still refused there, with the line's number.
    @Test(arguments: [
        #"{"token":"\#(token)","payload":{},"apns-priority":"10}"#,
        #"{"token":"\#(token)","payload":{},"apns-expiration":"0}"#,
    ])
    func anUnterminatedHeaderStringIsALineError(_ line: String) {
        let error = #expect(throws: NDJSONRequestDecoder.LineError.self) {
            try Self.decoder.decode(Array(line.utf8), number: 3)
        }
        #expect(error?.description.hasPrefix("line 3:") == true, "\(String(describing: error))")
    }

    /// A topic is reused from the last line only when its bytes are the same: a Kelvin sign is
    /// not a "K", though Swift's String equality says so.
    @Test func aTopicEqualOnlyAsAStringIsCheckedAgain() throws {
        // Payloads without aps: a lint error, not refused here (the topic is the point).
        let decoder = NDJSONRequestDecoder(pushType: "alert", refuseLintErrors: false)
        let ascii = #"{"token":"\#(Self.token)","payload":{},"apns-topic":"com.Kapp"}"#
        let kelvin = #"{"token":"\#(Self.token)","payload":{},"apns-topic":"com.\u212Aapp"}"#
        #expect(try decoder.decode(Array(ascii.utf8), number: 1).notification.topic?.value == "com.Kapp")
        #expect(throws: NDJSONRequestDecoder.LineError.self) { try decoder.decode(Array(kelvin.utf8), number: 2) }
    }

    @Test func repeatedPayloadsAreLintedOnceAndStillInferred() throws {
        let decoder = NDJSONRequestDecoder(
            topic: "com.example.app", pushType: nil, priority: nil, expiration: nil, collapseID: nil)
        let background = #"{"token":"\#(Self.token)","payload":{"aps":{"content-available":1}}}"#
        let alert = #"{"token":"\#(Self.token)","payload":{"aps":{"alert":"hi"}}}"#
        for _ in 0..<3 {
            #expect(try decoder.decode(Array(background.utf8), number: 1).notification.pushType == .background)
            #expect(try decoder.decode(Array(alert.utf8), number: 2).notification.pushType == .alert)
        }
        #expect(decoder.lintCache.state.withLock { $0.verdicts.count } == 2)
    }

    @Test func aBadFieldInTheCommonShapeIsStillALineError() {
        let line = #"{"token":"zz","payload":{"aps":{"alert":"x"}}}"#
        #expect(NDJSONRequestScanner.scan(Array(line.utf8)) != nil)
        let error = #expect(throws: NDJSONRequestDecoder.LineError.self) {
            try Self.decoder.decode(Array(line.utf8), number: 7)
        }
        #expect(error?.description.hasPrefix("line 7: token:") == true, "\(String(describing: error))")
    }

    /// A payload equal to the last one is taken without reading it again, and only then: what
    /// follows it is still read, and a payload that merely starts like it is read in full.
    /// (known payload, line, the line's payload if the scan accepts the line, taken as known)
    static let known = #"{"aps":{"alert":"a"}}"#
    @Test(
        arguments: [
            (known, #"{"token":"\#(token)","payload":{"aps":{"alert":"a"}}}"#, known, true),
            (known, #"{"payload":{"aps":{"alert":"a"}},"token":"\#(token)"}"#, known, true),
            (known, #"{"token":"\#(token)","payload":{"aps":{"alert":"ab"}}}"#, #"{"aps":{"alert":"ab"}}"#, false),
            (known, #"{"token":"\#(token)","payload":{"aps":{"alert":"a"}}}}"#, nil, false),
            (known, #"{"token":"\#(token)","payload":{"aps":{"alert":"a"}},"x":1}"#, nil, false),
            ("", #"{"token":"\#(token)","payload":{}}"#, "{}", false),
        ] as [(String, String, String?, Bool)])
    func aKnownPayloadIsTakenAsItIs(known: String, line: String, payload: String?, taken: Bool) {
        let bytes = Array(line.utf8)
        let fields = NDJSONRequestScanner.scan(bytes, knownPayload: Array(known.utf8))
        #expect(fields?.payload.map { String(decoding: bytes[$0], as: UTF8.self) } == payload)
        #expect((fields?.payloadIsKnown ?? false) == taken)
    }

    /// The eight-byte test agrees with the byte-by-byte rule on every byte value at every place,
    /// and on pairs where a low byte's borrow could spill into the next.
    @Test func plainWordsAreExactlyTheWordsOfPlainBytes() {
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C }
        func word(_ bytes: [UInt8]) -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        for value in 0...255 {
            for place in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[place] = UInt8(value)
                #expect(NDJSONRequestScanner.plainWord(word(bytes)) == plain(UInt8(value)), "byte \(value) at \(place)")
            }
        }
        for low: UInt8 in [0x00, 0x1F, 0x21, 0x22, 0x5C, 0x7F, 0x80] {
            for high: UInt8 in [0x20, 0x21, 0x23, 0x5D, 0x7E] {
                let bytes = [UInt8](repeating: 0x41, count: 6) + [low, high]
                #expect(NDJSONRequestScanner.plainWord(word(bytes)) == (plain(low) && plain(high)), "\(low), \(high)")
            }
        }
    }
}
