import Gateway
import Keys
import Testing

/// API keys against every `GatewayStore`: stored as digests, verified by secret, revoked.
// Each SQLite call suspends and resumes through the shared cooperative pool: alone these tests
// take well under a second, but inside a full run on a loaded 2-core machine the waits for a pool
// thread add up past a minute. The limit is there to catch a hang, not to time the machine.
@Suite(.timeLimit(.minutes(3)))
struct APIKeyStoreTests {
    @Test(arguments: StoreKind.allCases)
    func aKeyVerifiesByItsSecretUntilRevoked(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let (admin, secret) = try await fixture.store.createAPIKey(
            name: "ops", scope: .admin, bundleID: nil, now: Clock.start)
        let (register, _) = try await fixture.store.createAPIKey(
            name: "app", scope: .register, bundleID: bundleID, now: Clock.start + 1)
        #expect(secret.hasPrefix("hk_") && secret.count == 67)
        let store = try fixture.reopened()
        #expect(try await store.verifyAPIKey(secret: secret) == admin)
        #expect(try await store.apiKey(secretHash: SHA256.hash(Array(secret.utf8))) == admin, "stored as its SHA-256")
        #expect(try await store.verifyAPIKey(secret: secret + "x") == nil)
        #expect(try await store.verifyAPIKey(secret: "") == nil)
        #expect(try await store.apiKeys() == [admin, register])

        #expect(try await store.revokeAPIKey(id: admin.id, now: Clock.start + 2))
        #expect(try await !store.revokeAPIKey(id: admin.id, now: Clock.start + 3), "revoked already")
        #expect(try await store.verifyAPIKey(secret: secret) == nil)
        #expect(try await store.apiKeys().map(\.revokedAt) == [Clock.start + 2, nil])
    }

    @Test(arguments: StoreKind.allCases)
    func theFirstKeyIsInsertedOnlyIntoAStoreWithoutKeys(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let first = APIKey(id: "key_1", name: "admin", scope: .admin, bundleID: nil, createdAt: Clock.start)
        #expect(try await fixture.store.insertFirstAPIKey(first, secretHash: APIKey.hash(secret: "one")))
        var second = first
        second.id = "key_2"
        #expect(try await !fixture.store.insertFirstAPIKey(second, secretHash: APIKey.hash(secret: "two")))
        #expect(try await fixture.store.apiKeys() == [first])
    }

    @Test(arguments: StoreKind.allCases)
    func aKeyIDOrSecretIsNotStoredTwice(_ kind: StoreKind) async throws {
        let fixture = try GatewayStoreFixture(kind)
        defer { fixture.remove() }
        let key = APIKey(id: "key_1", name: "a", scope: .send, bundleID: nil, createdAt: Clock.start)
        try await fixture.store.insertAPIKey(key, secretHash: APIKey.hash(secret: "one"))
        for (id, secret) in [("key_1", "two"), ("key_2", "one")] {
            var other = key
            other.id = id
            await #expect {
                try await fixture.store.insertAPIKey(other, secretHash: APIKey.hash(secret: secret))
            } throws: { error in
                guard case .invalid(let field) = error as? GatewayStoreError else { return false }
                return field.field == "id"
            }
        }
        #expect(try await fixture.store.apiKeys() == [key])
    }

    @Test func secretsAndIDsDoNotRepeat() {
        let secrets = Set((0..<100).map { _ in APIKey.newSecret() })
        let ids = Set((0..<100).map { _ in APIKey.newID() })
        #expect(secrets.count == 100 && ids.count == 100)
    }
}
