import APNs

/// One request's way through its failures, the same for every sending path (`send`, channel
/// requests, `sendEach`): ExpiredProviderToken is answered by re-signing once and resending at
/// once; anything else is resent after the retry policy's delay while it allows; then the failure
/// stands.
struct RetryState {
    enum Step {
        case resendNow
        case resendAfter(Duration)
        case stop
    }

    /// The attempt that just failed (1 for the first).
    private(set) var attempt = 1
    private var resigned = false

    /// What to do after `error`. `resign` signs a new provider token (or finds one signed since)
    /// and says whether there is one to resend with; it is asked at most once per request.
    @inline(__always)
    mutating func step(after error: APNsClientError, policy: RetryPolicy, resign: () -> Bool) -> Step {
        if error.reason == .expiredProviderToken, !resigned, resign() {
            resigned = true
            return .resendNow
        }
        if let delay = policy.delay(afterAttempt: attempt, failingWith: error, random: { Double.random(in: 0...1) }) {
            attempt += 1
            return .resendAfter(delay)
        }
        return .stop
    }
}

extension APNsClient.Credentials {
    /// The provider token to send now: the cache's current one (signed afresh when due) with token
    /// auth, nil with a client certificate.
    func currentToken() -> Result<ProviderToken?, APNsClientError> {
        guard case .token(let cache) = self else { return .success(nil) }
        do {
            return .success(try cache.token())
        } catch {
            return .failure(.providerToken(error))
        }
    }

    /// After ExpiredProviderToken for `sent`: whether a newer token is there to resend with (signed
    /// now, or by another request meanwhile). False without token auth, or within the 20-minute rule.
    func resigns(after sent: ProviderToken?) -> Bool {
        guard let sent, case .token(let cache) = self else { return false }
        return (try? cache.refresh(after: sent)) != nil
    }
}
