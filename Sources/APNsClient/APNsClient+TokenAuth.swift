import APNs

extension APNsClient {
    /// The common case in one step: token auth with the `.p8` key from Apple's developer account, over
    /// a pool of HTTP/2 connections to `endpoint`.
    ///
    /// ```swift
    /// let client = try APNsClient(
    ///     endpoint: .sandbox, authKeyPath: "AuthKey_ABC123DEFG.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
    /// ```
    ///
    /// - Parameters:
    ///   - authKeyPath: the PEM `.p8` file (a P-256 key); read once, here.
    ///   - keyID: the key's 10-character id; `teamID`: the developer team's 10-character id.
    ///   - connections: HTTP/2 connections opened at most (each carries as many concurrent streams as
    ///     APNs allows it).
    ///   - caFile: a PEM file of CAs to trust instead of the system's (an emulator's CA).
    ///   - onPrunableToken: told of each token APNs says is dead, for your token store to prune.
    /// Broadcasts and channel management go to `endpoint` too (an emulator serves all three); for
    /// Apple's own broadcast hosts use ``init(endpoint:credentials:transport:retryPolicy:requestTimeout:onPrunableToken:broadcastRoutes:)``.
    /// Throws `.providerToken` when the key file cannot be read or the ids are malformed, and
    /// `.invalidConfiguration` for a connection count below 1 or an unreadable `caFile`.
    public convenience init(
        endpoint: APNsEndpoint, authKeyPath: String, keyID: String, teamID: String, connections: Int = 1,
        caFile: String? = nil, onPrunableToken: (@Sendable (PrunableToken) -> Void)? = nil
    ) throws(APNsClientError) {
        guard connections >= 1 else {
            throw .invalidConfiguration("connections: must be at least 1, not \(connections)")
        }
        let cache: ProviderTokenCache
        do {
            cache = try ProviderTokenCache(
                signer: try ProviderTokenSigner(authKeyPath: authKeyPath, keyID: keyID, teamID: teamID))
        } catch {
            throw .providerToken(error)
        }
        let transport = try HTTP2Transport(
            configuration: TransportConfiguration(endpoint: endpoint, caFile: caFile, maximumConnections: connections))
        self.init(
            endpoint: endpoint, credentials: .token(cache), transport: transport, onPrunableToken: onPrunableToken)
    }
}
