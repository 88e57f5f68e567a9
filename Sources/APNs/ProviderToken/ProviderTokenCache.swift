import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Keeps one provider token per signer and re-signs it on schedule: never more often than every
/// 20 minutes (APNs answers 429 TooManyProviderTokenUpdates), always before 60 (403
/// ExpiredProviderToken). The default refresh age is 50 minutes.
///
/// Thread-safe: any number of tasks and threads may ask at once; one of them signs, the others get
/// the same token. The clock is injectable for tests.
public final class ProviderTokenCache: Sendable {
    /// Apple's bounds on a token's age at refresh, in seconds.
    public static let minimumRefreshAge = 20 * 60
    public static let maximumRefreshAge = 60 * 60
    public static let defaultRefreshAge = 50 * 60

    public let signer: ProviderTokenSigner
    /// Age at which the token is re-signed, in seconds.
    public let refreshAge: Int
    private let clock: @Sendable () -> Int
    private let state = Mutex<ProviderToken?>(nil)
    private let signatures = Atomic<Int>(0)

    /// - Parameters:
    ///   - refreshAge: seconds after which a new token is signed; 1200...3599.
    ///   - clock: the current UNIX time in seconds.
    public init(
        signer: ProviderTokenSigner, refreshAge: Int = ProviderTokenCache.defaultRefreshAge,
        clock: @escaping @Sendable () -> Int = ProviderTokenCache.systemClock
    ) throws(ProviderTokenError) {
        guard refreshAge >= Self.minimumRefreshAge, refreshAge < Self.maximumRefreshAge else {
            throw .malformed("refresh age \(refreshAge) s is outside Apple's bounds: at least 1200 s, under 3600 s")
        }
        self.signer = signer
        self.refreshAge = refreshAge
        self.clock = clock
    }

    /// The current token, signing a new one first if there is none or it has reached `refreshAge`.
    public func token() throws(ProviderTokenError) -> ProviderToken {
        let now = clock()
        return try state.withLock { (cached: inout ProviderToken?) throws(ProviderTokenError) -> ProviderToken in
            if let token = cached, now - token.issuedAt < refreshAge, token.issuedAt <= now + 60 {
                return token
            }
            let token = try signer.sign(issuedAt: now)
            signatures.add(1, ordering: .relaxed)
            cached = token
            return token
        }
    }

    /// Called when APNs answered ExpiredProviderToken for `rejected`: signs a new token if `rejected`
    /// is still the current one and signing now keeps to the 20-minute rule. Returns the token to
    /// retry with, or nil if a new one may not be signed yet (the clocks disagree by more than APNs
    /// tolerates; retrying would only earn TooManyProviderTokenUpdates).
    public func refresh(after rejected: ProviderToken) throws(ProviderTokenError) -> ProviderToken? {
        let now = clock()
        return try state.withLock { (cached: inout ProviderToken?) throws(ProviderTokenError) -> ProviderToken? in
            if let current = cached, current != rejected { return current }
            guard now - rejected.issuedAt >= Self.minimumRefreshAge else { return nil }
            let token = try signer.sign(issuedAt: now)
            signatures.add(1, ordering: .relaxed)
            cached = token
            return token
        }
    }

    /// How many tokens this cache has signed.
    public var signatureCount: Int { signatures.load(ordering: .relaxed) }

    /// The system's UNIX time in seconds.
    public static let systemClock: @Sendable () -> Int = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec
    }
}
