import APNs
import Testing

@testable import Gateway

/// `notifications(bundleID:before:limit:)`, the console's list: newest first, paged by an opaque
/// cursor, other apps' notifications never in it; the same pages from every store.
@Suite(.timeLimit(.minutes(1)))
struct NotificationListTests {
    @Test(arguments: StoreKind.allCases)
    func pagesRunNewestFirstAndStopAtTheOldest(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        let empty = try await store.notifications(bundleID: bundleID, before: nil, limit: 2)
        #expect(empty.notifications.isEmpty && empty.nextCursor == nil)
        for n in 0..<5 {
            _ = try await store.createNotification(
                request(to: .tokens([try token(n)]), key: "k\(n)"), id: "n\(n)", now: Clock.start + n)
        }
        var other = request(to: .tokens([try token(1)]))
        other.bundleID = "com.example.other"
        _ = try await store.createNotification(other, id: "elsewhere", now: Clock.start + 9)

        var seen: [NotificationID] = []
        var cursor: Int? = nil
        var pages = 0
        repeat {
            let page = try await store.notifications(bundleID: bundleID, before: cursor, limit: 2)
            seen += page.notifications.map(\.id)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 10
        #expect(seen == ["n4", "n3", "n2", "n1", "n0"])
        #expect(pages == 3)
    }
}
