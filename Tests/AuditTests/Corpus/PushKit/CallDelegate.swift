import CallKit
import PushKit

final class CallDelegate: NSObject, PKPushRegistryDelegate {
    private let registry = PKPushRegistry(queue: .main)
    private let calls = CallManager()

    func start() {
        registry.delegate = self
        registry.desiredPushTypes = [.voIP]
    }

    func pushRegistry(_ registry: PKPushRegistry, didUpdate credentials: PKPushCredentials, for type: PKPushType) {
        VoIPTokenStore.shared.save(credentials.token)
    }

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        let caller = payload.dictionaryPayload["caller"] as? String ?? "Unknown"
        guard let uuid = (payload.dictionaryPayload["call-id"] as? String).flatMap(UUID.init(uuidString:)) else {
            calls.reportFailedCall(handle: caller) { completion() }
            return
        }
        calls.reportIncomingCall(uuid: uuid, handle: caller) {
            completion()
        }
    }
}
