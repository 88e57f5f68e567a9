import APNs
import Emulator
import Testing

/// The delivery log, unregistered tokens and channels against every `EmulatorStore`, read back
/// after a "restart" (`StoreFixture.reopened`).
@Suite(.timeLimit(.minutes(1)))
struct EmulatorStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aNewStoreIsEmpty(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let (entries, total) = try fixture.store.loadDeliveries(newest: 10)
        #expect(entries.isEmpty && total == 0)
        #expect(try fixture.store.unregisteredTokens().isEmpty)
        #expect(try fixture.store.liveChannels().isEmpty)
        #expect(try fixture.store.issuedChannelIDs().isEmpty)
        #expect(try fixture.store.devices().isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func deliveriesRoundTripCappedToTheNewest(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let all = (1...12).map(Delivery.numbered)
        try fixture.store.write(DeliveryBatch(entries: Array(all[0..<5]), total: 5), capacity: 8)
        try fixture.store.write(DeliveryBatch(entries: Array(all[5...]), total: 20), capacity: 8)
        let store = try fixture.reopened()
        let (entries, total) = try store.loadDeliveries(newest: 100)
        #expect(entries == Array(all.suffix(8)), "the newest 8, oldest first, every field kept")
        #expect(total == 20)
        #expect(try store.loadDeliveries(newest: 3).entries == Array(all.suffix(3)))
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchLargerThanTheCapacityKeepsItsNewest(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let all = (1...50).map(Delivery.numbered)
        try fixture.store.write(DeliveryBatch(entries: all, total: 50), capacity: 4)
        try fixture.store.write(DeliveryBatch(entries: [.numbered(51)], total: 51), capacity: 4)
        #expect(try fixture.reopened().loadDeliveries(newest: 100).entries == (48...51).map(Delivery.numbered))
    }

    @Test(arguments: StoreKind.allCases)
    func clearFirstForgetsWhatWasKept(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        try fixture.store.write(DeliveryBatch(entries: (1...3).map(Delivery.numbered), total: 3), capacity: 10)
        try fixture.store.write(DeliveryBatch(clearFirst: true, entries: [.numbered(4)], total: 1), capacity: 10)
        let (entries, total) = try fixture.reopened().loadDeliveries(newest: 10)
        #expect(entries == [.numbered(4)])
        #expect(total == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func unregisteredTokensKeepTheirLatestTime(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        let a = String(repeating: "aa", count: 32)
        let b = String(repeating: "bb", count: 32)
        try fixture.store.markUnregistered(a, at: 1)
        try fixture.store.markUnregistered(b, at: 2)
        try fixture.store.markUnregistered(a, at: 3)
        #expect(try fixture.reopened().unregisteredTokens() == [a: 3, b: 2])
    }

    @Test(arguments: StoreKind.allCases)
    func channelsKeepOrderAndPolicyAndTheirIDsAreNeverReused(_ kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        defer { fixture.remove() }
        var generator = SystemRandomNumberGenerator()
        let channels = (0..<4).map { n in
            StoredChannel(
                bundleID: n == 2 ? "com.other.app" : "com.example.app", id: .random(using: &generator),
                policy: n % 2 == 0 ? .noStorage : .mostRecentMessage, createdAt: n)
        }
        for channel in channels { try fixture.store.insertChannel(channel) }
        #expect(
            try !fixture.store.deleteChannel(bundleID: "com.other.app", id: channels[0].id), "another app's channel")
        #expect(try fixture.store.deleteChannel(bundleID: "com.example.app", id: channels[1].id))
        #expect(try !fixture.store.deleteChannel(bundleID: "com.example.app", id: channels[1].id), "already gone")

        let store = try fixture.reopened()
        #expect(try store.liveChannels() == [channels[0], channels[2], channels[3]])
        #expect(try store.issuedChannelIDs() == Set(channels.map(\.id)), "a deleted channel's id stays issued")
        #expect(throws: EmulatorStoreError.channelIDIssued(channels[1].id.value)) {
            try store.insertChannel(channels[1])
        }
        #expect(throws: EmulatorStoreError.channelIDIssued(channels[0].id.value)) {
            try store.insertChannel(
                StoredChannel(bundleID: "com.third.app", id: channels[0].id, policy: .noStorage, createdAt: 9))
        }
    }
}
