import Testing

@testable import Emulator

/// The delivery log's compact records give back exactly the deliveries they were made from.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryRecordTests {
    static let deliveries: [Delivery] = [
        Delivery(
            receivedAt: 1_767_225_600_123, token: "ab", topic: "com.example.app", pushType: "alert", priority: 10,
            apnsID: "123e4567-e89b-12d3-a456-426655440000", uniqueID: "00000000-0000-4000-8000-000000000000",
            status: 200, reason: nil, payload: Array(#"{"aps":{}}"#.utf8)),
        Delivery(
            receivedAt: 0, token: nil, topic: nil, pushType: nil, priority: nil, apnsID: nil, uniqueID: nil, status: 0,
            reason: nil, payload: []),
        Delivery(
            receivedAt: 5, token: "", topic: "", pushType: "", priority: 1, apnsID: "", uniqueID: "", status: 400,
            reason: "", payload: [0xFF], channel: "", fault: ""),
        Delivery(
            receivedAt: 7, token: nil, topic: "com.exämple.app", pushType: nil, priority: nil, apnsID: "x",
            uniqueID: nil,
            status: 410, reason: "Unregistered", payload: Array("😀".utf8), channel: "dHJ1c3Q=", fault: "respond"),
        Delivery(
            receivedAt: 9, token: String(repeating: "ab", count: 40_000), topic: nil, pushType: "voip", priority: 5,
            apnsID: nil, uniqueID: nil, status: 0, reason: "Shutdown", payload: [], fault: "goaway"),
    ]

    @Test(arguments: deliveries)
    func roundTrips(_ delivery: Delivery) {
        let record = DeliveryRecord(delivery)
        #expect(record.delivery == delivery)
        #expect(record.hasFault == (delivery.fault != nil))
    }

    @Test(arguments: [true, false])
    func acceptedPushesAreRecordedFromBytes(_ withOptionals: Bool) {
        let token = Array("ABcd09EF".utf8)
        let topic = Array("com.example.app".utf8)
        let id = Array("123e4567-e89b-12d3-a456-426655440000".utf8)
        let unique = Array("00000000-0000-4000-8000-000000000000".utf8)
        let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        let record = token.withUnsafeBufferPointer { token in
            topic.withUnsafeBufferPointer { topic in
                id.withUnsafeBufferPointer { id in
                    unique.withUnsafeBufferPointer { unique in
                        DeliveryRecord(
                            acceptedAt: 42, token: token, topic: withOptionals ? topic : nil, pushType: "alert",
                            priority: 5, apnsID: id, uniqueID: withOptionals ? unique : nil, payload: payload)
                    }
                }
            }
        }
        let expected = Delivery(
            receivedAt: 42, token: "abcd09ef", topic: withOptionals ? "com.example.app" : nil, pushType: "alert",
            priority: 5, apnsID: "123e4567-e89b-12d3-a456-426655440000",
            uniqueID: withOptionals ? "00000000-0000-4000-8000-000000000000" : nil, status: 200, reason: nil,
            payload: payload)
        #expect(record.delivery == expected)
        #expect(!record.hasFault)
    }

    /// The log's tallies count every answer since the start, by status (any status, common or not)
    /// and by reason, and stay when the entries are cleared.
    @Test func talliesCountEveryAnswerAndSurviveClearing() {
        let log = DeliveryLog(capacity: 2)
        for delivery in Self.deliveries { log.append(delivery) }
        log.append(Delivery(receivedAt: 1, token: nil, topic: nil, pushType: nil, priority: nil, apnsID: nil,
            uniqueID: nil, status: 777, reason: "Odd", payload: []))
        let expected = DeliveryLog.Counts(
            total: 6, byStatus: [200: 1, 0: 2, 400: 1, 410: 1, 777: 1],
            byReason: ["": 1, "Unregistered": 1, "Shutdown": 1, "Odd": 1], faults: 3)
        #expect(log.counts == expected)
        #expect(log.keptCount == 2 && log.totalCount == 6)
        log.removeAll()
        #expect(log.keptCount == 0 && log.totalCount == 0)
        #expect(log.counts == expected)
    }
}
