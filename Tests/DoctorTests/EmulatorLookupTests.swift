import APNs
import Testing

@testable import Doctor

/// Reading the emulator's delivery log entries, without an emulator (the end-to-end tests read a real one).
@Suite("EmulatorLookup", .timeLimit(.minutes(1)))
struct EmulatorLookupTests {
    @Test("an entry of GET /control/v1/deliveries becomes a LoggedPush, and its request is what was sent")
    func entry() throws {
        let json = try JSONValue(
            parsing: Array(
                #"""
                {"received-at":1767258000123,"token":"abcd","topic":"com.example.app","push-type":"background",
                 "priority":10,"collapse-id":null,"expiration":1767258060,"apns-id":"A-1","apns-unique-id":"U-1",
                 "status":400,"reason":"BadPriority","payload":{"aps":{"content-available":1}},"channel":null,"fault":null}
                """#.utf8))
        let push = try #require(EmulatorLookup.loggedPush(json))
        #expect(push.status == 400 && push.reason == "BadPriority" && push.uniqueID == "U-1")
        #expect(String(decoding: push.payload, as: UTF8.self) == #"{"aps":{"content-available":1}}"#)
        let request = push.lintRequest
        #expect(request.priority == "10" && request.expiration == "1767258060" && request.now == 1_767_258_000)
        #expect(EmulatorLookup.loggedPush(["token": "abcd"]) == nil, "an entry without a status is not one")
    }

    @Test("query values are percent-encoded")
    func escaping() {
        #expect(EmulatorLookup.escape("com.example.app") == "com.example.app")
        #expect(EmulatorLookup.escape("a b&c=d/é") == "a%20b%26c%3Dd%2F%C3%A9")
    }
}
