import APNs

extension Emulator {
    /// Hands every accepted broadcast to `handler` (replacing any earlier one; nil removes it),
    /// after the 200 is answered and the delivery logged. It runs on the connection's event loop:
    /// return quickly and hop elsewhere for real work.
    public func onBroadcast(_ handler: (@Sendable (AcceptedBroadcast) -> Void)?) {
        broadcastHook.set(handler)
    }
}
