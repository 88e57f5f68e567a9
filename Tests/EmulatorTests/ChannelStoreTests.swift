import APNs
import Emulator
import Testing

/// The emulator's channel store: per-app channels, the limit, ids never reused, policies kept.
@Suite(.timeLimit(.minutes(1)))
struct ChannelStoreTests {
    @Test func createReadListDelete() throws {
        let store = ChannelStore()
        let first = try #require(store.create(bundleID: "com.example.app", policy: .noStorage))
        let second = try #require(store.create(bundleID: "com.example.app", policy: .mostRecentMessage))
        #expect(store.policy(bundleID: "com.example.app", channel: first) == .noStorage)
        #expect(store.policy(bundleID: "com.example.app", channel: second) == .mostRecentMessage)
        #expect(store.policy(bundleID: "com.other.app", channel: first) == nil, "channels belong to one app")
        #expect(store.channels(bundleID: "com.example.app") == [first, second])
        #expect(store.delete(bundleID: "com.example.app", channel: first))
        #expect(!store.delete(bundleID: "com.example.app", channel: first), "already gone")
        #expect(store.channels(bundleID: "com.example.app") == [second])
        #expect(store.channels(bundleID: "com.other.app").isEmpty)
    }

    @Test(arguments: [0, 1, 3])
    func theLimitIsPerApp(_ limit: Int) {
        let store = ChannelStore(limitPerApp: limit)
        for _ in 0..<limit { #expect(store.create(bundleID: "com.example.app", policy: .noStorage) != nil) }
        #expect(store.create(bundleID: "com.example.app", policy: .noStorage) == nil)
        #expect((store.create(bundleID: "com.other.app", policy: .noStorage) != nil) == (limit > 0))
    }

    @Test func theDefaultLimitIsApples() {
        #expect(ChannelStore().limitPerApp == 10_000)
    }

    @Test func aDeleteFreesRoomButNoIDComesBack() throws {
        let store = ChannelStore(limitPerApp: 1)
        var seen: Set<ChannelID> = []
        for _ in 0..<100 {
            let id = try #require(store.create(bundleID: "com.example.app", policy: .mostRecentMessage))
            #expect(seen.insert(id).inserted, "an id is never handed out twice")
            #expect(store.delete(bundleID: "com.example.app", channel: id))
        }
    }
}
