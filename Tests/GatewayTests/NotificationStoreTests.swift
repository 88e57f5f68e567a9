import APNs
import Gateway
import Testing

/// Notifications against every `GatewayStore`: recipients, idempotency, schedules, cancel, counts.
// Each SQLite call suspends and resumes through the shared cooperative pool: alone these tests
// take well under a second, but inside a full run on a loaded 2-core machine the waits for a pool
// thread add up past a minute. The limit is there to catch a hang, not to time the machine.
@Suite(.timeLimit(.minutes(3)))
struct NotificationStoreTests {
    private func registerFour(_ store: any GatewayStore) async throws {
        try await store.importDevices(
            [
                try registration(1, user: "alice", tags: ["news"]),
                try registration(2, environment: .sandbox, user: "alice", tags: ["news", "sport"]),
                try registration(3, user: "bob", tags: ["sport"]),
                try registration(4, user: "carol"),
            ], now: Clock.start)
    }

    @Test(arguments: StoreKind.allCases)
    func recipientsExpandToOneDeliveryEach(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let store = fixture.store
        try await registerFour(store)
        let unknown = try DeviceToken(hex: "ffff")
        let cases: [(NotificationRequest.Recipients, [String])] = [
            (.users(["alice", "bob", "alice"]), [try token(1).hex, try token(2).hex, try token(3).hex]),
            (.tags(["news", "sport"]), [try token(1).hex, try token(2).hex, try token(3).hex]),
            (.tokens([try token(4), unknown, try token(4)]), [try token(4).hex, "ffff"]),
            (.channel(try ChannelID("dHN0LXNyY2gtY2hubA==")), ["dHN0LXNyY2gtY2hubA=="]),
        ]
        for (recipients, expected) in cases {
            let id = try await store.send(request(to: recipients))
            let deliveries = try await fixture.reopened().allDeliveries(id)
            #expect(deliveries.map(\.recipient) == expected, "\(recipients)")
            #expect(Set(deliveries.map(\.apnsID)).count == deliveries.count, "one apns-id per row")
            #expect(
                deliveries.allSatisfy { $0.status == .pending && $0.attempts == 0 && $0.nextAttemptAt == Clock.start })
            let notification = try #require(try await store.notification(id: id))
            #expect(
                notification.recipients == expected.count && notification.expanded && notification.state == .sending)
            #expect(try await store.counts(id: id) == NotificationCounts(pending: expected.count))
        }
        let sandbox = try await store.send(request(to: .users(["alice"])))
        #expect(try await store.allDeliveries(sandbox).map(\.environment) == [.production, .sandbox])
        let unknownToken = try await store.send(request(to: .tokens([unknown])))
        #expect(try await store.allDeliveries(unknownToken).map(\.environment) == [.production], "the request's")
    }

    @Test(arguments: StoreKind.allCases)
    func theSameIdempotencyKeyReturnsTheSameNotificationAndMakesNothing(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        try await registerFour(fixture.store)
        let first = try await fixture.store.createNotification(
            request(to: .tags(["news"]), key: "k1"), id: "n1", now: Clock.start)
        #expect(first.created)
        try await fixture.store.expandFully(id: "n1", now: Clock.start)
        let store = try fixture.reopened()
        let again = try await store.createNotification(
            request(to: .tags(["sport"]), key: "k1"), id: "n2", now: Clock.start + 1)
        #expect(!again.created && again.notification.id == "n1" && again.notification.recipients == 2)
        #expect(try await store.notification(id: "n2") == nil)
        #expect(try await store.allDeliveries("n1").count == 2)
        let other = try await store.createNotification(
            request(to: .tags(["sport"]), key: "k2"), id: "n3", now: Clock.start + 1)
        #expect(other.created, "another key is another notification")
    }

    @Test(arguments: StoreKind.allCases)
    func aScheduledNotificationStartsWhenTheClockReachesSendAt(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        try await registerFour(fixture.store)
        let sendAt = Clock.start + 60_000
        let creation = try await fixture.store.createNotification(
            request(to: .users(["bob"]), sendAt: sendAt), id: "later", now: Clock.start)
        #expect(creation.notification.state == .scheduled)
        let early = try await fixture.store.expandFully(id: "later", now: Clock.start)
        #expect(early.inserted == 0 && early.recipients == 0, "not expanded before its time")
        #expect(try await fixture.store.startDueNotifications(now: sendAt - 1, limit: 10).isEmpty)
        let store = try fixture.reopened()
        #expect(try await store.startDueNotifications(now: sendAt, limit: 10) == ["later"])
        #expect(try await store.startDueNotifications(now: sendAt, limit: 10).isEmpty, "started once")
        #expect(try await store.notificationsToExpand(limit: 10) == ["later"])
        try await store.expandFully(id: "later", now: sendAt)
        #expect(try await store.notificationsToExpand(limit: 10).isEmpty)
        #expect(try await store.allDeliveries("later").map(\.nextAttemptAt) == [sendAt])
    }

    @Test(arguments: StoreKind.allCases)
    func cancelStopsWhatIsNotSent(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        try await registerFour(fixture.store)
        let id = try await fixture.store.send(request(to: .tags(["news", "sport"])))
        let claim = try await fixture.store.claimDeliveries(
            limit: 1, claimer: "w", leaseMilliseconds: 100, now: Clock.start)
        let sent = try #require(claim.deliveries.first)
        try await fixture.store.recordOutcomes(
            [DeliveryOutcome(deliveryID: sent.id, result: .succeeded(apnsUniqueID: "u1"))], backoff: DeliveryBackoff(),
            now: Clock.start)
        let cancelled = try await fixture.store.cancelNotification(id: id, now: Clock.start + 1)
        #expect(cancelled.state == .cancelled)
        let store = try fixture.reopened()
        #expect(try await store.counts(id: id) == NotificationCounts(succeeded: 1, cancelled: 2))
        #expect(try await store.allDeliveries(id).map(\.status) == [.succeeded, .cancelled, .cancelled])
        #expect(
            try await store.claimDeliveries(limit: 10, claimer: "w", leaseMilliseconds: 100, now: Clock.start + 10_000)
                .deliveries.isEmpty)
        #expect(
            try await store.cancelNotification(id: id, now: Clock.start + 2).state == .cancelled, "twice is harmless")
        await #expect(throws: GatewayStoreError.unknownNotification("nope")) {
            try await store.cancelNotification(id: "nope", now: Clock.start)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deliveriesArePagedByCursor(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        try await fixture.store.importDevices((1...25).map { try registration($0, tags: ["t"]) }, now: Clock.start)
        let id = try await fixture.store.send(request(to: .tags(["t"])))
        var pages: [[Delivery]] = []
        var cursor: Int?
        repeat {
            let page = try await fixture.store.deliveries(notificationID: id, after: cursor, limit: 10)
            pages.append(page.deliveries)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(pages.map(\.count) == [10, 10, 5])
        #expect(pages.flatMap { $0 }.map(\.recipient) == (1...25).map { (try? token($0).hex) ?? "" })
    }

    @Test(arguments: StoreKind.allCases)
    func anInterruptedExpansionResumesWithoutDoubling(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        try await fixture.store.importDevices((1...2_550).map { try registration($0, tags: ["all"]) }, now: Clock.start)
        _ = try await fixture.store.createNotification(request(to: .tags(["all"])), id: "fan", now: Clock.start)
        // The process "dies" after 7 committed chunks of 100.
        let partial = try await fixture.store.expandNotification(
            id: "fan", chunkSize: 100, maximumChunks: 7, now: Clock.start)
        #expect(partial == ExpansionProgress(inserted: 700, chunks: 7, recipients: 700, finished: false))

        let restarted = try fixture.reopened()
        #expect(try await restarted.notificationsToExpand(limit: 10) == ["fan"])
        #expect(try await restarted.notification(id: "fan")?.state == .sending)
        let rest = try await restarted.expandFully(id: "fan", chunkSize: 100, now: Clock.start + 1)
        #expect(rest.inserted == 1_850 && rest.recipients == 2_550 && rest.finished)
        let deliveries = try await restarted.allDeliveries("fan")
        #expect(deliveries.count == 2_550 && Set(deliveries.map(\.recipient)).count == 2_550, "each device once")
        #expect(
            try await restarted.expandFully(id: "fan", now: Clock.start + 2).inserted == 0,
            "a finished expansion stays finished")
    }
}
