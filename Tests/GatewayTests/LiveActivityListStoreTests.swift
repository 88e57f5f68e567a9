import APNs
import Gateway
import Testing

/// The console's lists of an app's Live Activity tokens (`activityTokens(bundleID:after:limit:)`,
/// `pushToStartTokens(bundleID:after:limit:)`), against every store: one app's only, whatever the
/// status, page by page, in the same order everywhere.
@Suite(.timeLimit(.minutes(3)))
struct LiveActivityListStoreTests {
    @Test(arguments: StoreKind.allCases)
    func anAppsActivitiesByIDPageByPage(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        // Byte order: "B" (0x42) before "a" (0x61) before "é" (0xC3 0xA9), whatever a locale would say.
        for (n, id) in [(1, "b-2"), (2, "a-1"), (3, "é"), (4, "B-0"), (5, "a-10")] {
            _ = try await store.upsertActivityToken(
                bundleID: bundleID, activityID: id, token: try token(n), environment: .production, user: nil,
                now: Clock.start + n)
        }
        _ = try await store.upsertActivityToken(
            bundleID: "com.example.other", activityID: "a-5", token: try token(9), environment: .production, user: nil,
            now: Clock.start)
        _ = try await store.prune(
            .unregister(timestamp: Clock.start + 100, statusReason: "ended"), bundleID: bundleID, kind: .activity,
            token: try token(2).hex)

        var ids: [String] = []
        var statuses: [TokenStatus] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await fixture.reopened().activityTokens(bundleID: bundleID, after: cursor, limit: 2)
            #expect(page.activities.count <= 2)
            ids += page.activities.map(\.activityID)
            statuses += page.activities.map(\.status)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(ids == ["B-0", "a-1", "a-10", "b-2", "é"])
        #expect(statuses == [.active, .unregistered, .active, .active, .active], "a pruned activity is listed too")
        #expect(pages == 3)
        let none = try await store.activityTokens(bundleID: "com.example.none", after: nil, limit: 10)
        #expect(none == ActivityTokenPage(activities: [], nextCursor: nil))
    }

    @Test(arguments: StoreKind.allCases)
    func anAppsPushToStartTokensInRegistrationOrderPageByPage(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        for n in 1...5 {
            _ = try await store.upsertPushToStartToken(
                bundleID: n == 3 ? "com.example.other" : bundleID, token: try token(n), environment: .production,
                user: "u\(n)", attributesType: "Score", now: Clock.start + n)
        }
        // Deleted and uploaded again: a new registration, at the end.
        #expect(try await store.deletePushToStartToken(bundleID: bundleID, token: try token(1)))
        _ = try await store.upsertPushToStartToken(
            bundleID: bundleID, token: try token(1), environment: .sandbox, user: "u1", attributesType: "Race",
            now: Clock.start + 10)

        var tokens: [DeviceToken] = []
        var cursor: Int?
        var pages = 0
        repeat {
            let page = try await fixture.reopened().pushToStartTokens(bundleID: bundleID, after: cursor, limit: 2)
            tokens += page.tokens.map(\.token)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(tokens == [try token(2), try token(4), try token(5), try token(1)])
        #expect(pages == 2)
        let other = try await store.pushToStartTokens(bundleID: "com.example.other", after: nil, limit: 10)
        #expect(other.tokens.map(\.token) == [try token(3)] && other.nextCursor == nil)
    }
}
