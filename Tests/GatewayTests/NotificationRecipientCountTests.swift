import APNs
import Storage
import Testing

@testable import Gateway

/// `createNotification` counts the recipients in its transaction, by the rules expansion follows:
/// with nothing changing in between, the count is the number of delivery rows expansion makes.
@Suite(.timeLimit(.minutes(1)))
struct NotificationRecipientCountTests {
    @Test(arguments: StoreKind.allCases)
    func theCountAtCreationIsWhatExpansionMakes(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try await NotificationAPI.seed(store)
        // A device on a second app, with the same tag and user, counts for neither.
        _ = try await store.upsertDevice(
            DeviceRegistration(
                bundleID: "com.example.other", token: try token(4), environment: .production, user: "alice",
                tags: ["news"]), now: Clock.start)
        let cases: [(NotificationRequest.Recipients, Int)] = [
            (.tokens([try token(1), try token(1), try token(3), try token(9)]), 2),
            (.users(["alice", "bob", "alice"]), 2),
            (.tags(["news", "beta", "nothing"]), 2),
            (.tags(["nothing"]), 0),
            (.activity("act-1"), 1),
            (.activity("act-2"), 0),
            (.pushToStart(users: ["alice"], attributesType: "Match"), 1),
            (.pushToStart(users: ["alice"], attributesType: "Other"), 0),
            (.channel(try ChannelID(NotificationAPI.channel)), 1),
        ]
        for (index, (recipients, expected)) in cases.enumerated() {
            let creation = try await store.createNotification(
                request(to: recipients, key: "k\(index)"), id: "n\(index)", now: Clock.start)
            #expect(creation.created && creation.recipients == expected, "\(recipients)")
            let progress = try await store.expandFully(id: "n\(index)", now: Clock.start)
            #expect(progress.recipients == expected, "\(recipients): expansion made \(progress.recipients)")
        }
        // A repeat of an expanded notification reports its rows, even after the devices changed.
        _ = try await store.upsertDevice(try registration(5, user: "alice"), now: Clock.start)
        let repeated = try await store.createNotification(
            request(to: .users(["alice"]), key: "k1"), id: "other", now: Clock.start)
        #expect(!repeated.created && repeated.notification.id == "n1" && repeated.recipients == 2)
        // A repeat before expansion counts again.
        let first = try await store.createNotification(
            request(to: .users(["alice"]), key: "late"), id: "late", now: Clock.start)
        let again = try await store.createNotification(
            request(to: .users(["alice"]), key: "late"), id: "late-2", now: Clock.start)
        #expect(first.recipients == 3 && !again.created && again.recipients == 3)
    }
}

/// The counting queries look listed tokens and users up by index; only tags read the app's devices.
@Suite(.timeLimit(.minutes(1)))
struct SQLiteRecipientCountPlanTests {
    @Test(arguments: ["tokens", "users", "push-to-start", "activity", "tags"])
    func countsUseTheIndexes(_ kind: String) throws {
        let fixture = try GatewayStoreFixture(.sqlite)
        defer { fixture.remove() }
        let database = try SQLiteDatabase(path: fixture.directory + "/" + SQLiteGatewayStore.fileName)
        var values: [SQLiteValue] = [.text(bundleID), .text(#"["a"]"#)]
        if kind == "push-to-start" { values.append(.text("Match")) }
        let steps = try database.query("EXPLAIN QUERY PLAN " + SQLiteGatewayStore.recipientCountSQL(kind), values) {
            $0.string(3) ?? ""
        }
        switch kind {
        case "tags":
            #expect(steps.contains { $0.hasPrefix("SEARCH d USING") && $0.contains("bundle_id=?") }, "\(steps)")
        case "activity":
            #expect(steps.contains { $0.contains("activity_id=?") }, "\(steps)")
        default:
            #expect(steps.first?.hasPrefix("SCAN v") == true || steps.first?.hasPrefix("SCAN u") == true, "\(steps)")
            #expect(steps.contains { $0.hasPrefix("SEARCH d USING") && !$0.contains("(bundle_id=?)") }, "\(steps)")
        }
        #expect(!steps.contains { $0.hasPrefix("SCAN d") }, "\(steps)")
    }
}
