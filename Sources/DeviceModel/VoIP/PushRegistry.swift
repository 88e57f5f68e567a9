import APNs

/// PushKit's `PKPushRegistry` for VoIP, for one app: its token and its delegate's incoming-push handler.
///
/// Lifecycle: made by `InstalledApp.createPushRegistry`; a reinstall removes it.
/// Thread-safety: not thread-safe; runs on the device's task.
public final class PushRegistry {
    /// The VoIP token (`pushRegistry(_:didUpdate:for:)`), distinct from the app's device token.
    public internal(set) var voipToken: [UInt8]
    /// `pushRegistry(_:didReceiveIncomingPushWith:for:completion:)`: the payload in, whether the app reported a
    /// call to CallKit (`reportNewIncomingCall`) before returning out. nil: not implemented.
    public var didReceiveIncomingPush: ((JSONObject) -> VoIPPushHandling)?

    init(voipToken: [UInt8], didReceiveIncomingPush: ((JSONObject) -> VoIPPushHandling)?) {
        self.voipToken = voipToken
        self.didReceiveIncomingPush = didReceiveIncomingPush
    }

    /// The VoIP token as lowercase hex, what a backend stores.
    public var voipTokenHex: String { hex(voipToken) }
}

/// What the app's PushKit handler did with a VoIP push.
public enum VoIPPushHandling: String, Sendable, Hashable {
    /// It called `CXProvider.reportNewIncomingCall` before returning (rejected reports count too).
    case reportedCall = "reported a call"
    /// It returned without reporting a call.
    case noCallReported = "reported no call"
}
