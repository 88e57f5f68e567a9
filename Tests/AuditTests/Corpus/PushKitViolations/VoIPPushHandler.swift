import CallKit
import PushKit

final class VoIPPushHandler: NSObject, PKPushRegistryDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func pushRegistry(_ registry: PKPushRegistry, didUpdate credentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(
        _ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType,
        completion: @escaping () -> Void
    ) {
        if payload.dictionaryPayload["cancelled"] != nil {
            completion()  // expect: AUDIT-VOIP-REPORT
            return  // expect: AUDIT-VOIP-REPORT
        }
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .phoneNumber, value: payload.dictionaryPayload["from"] as? String ?? "")
        DispatchQueue.global().async {
            Directory.shared.lookUp(update) { found in
                guard found else { return }  // expect: AUDIT-VOIP-REPORT
                self.provider.reportNewIncomingCall(with: UUID(), update: update) { _ in completion() }
            }
        }
    }
}

final class LegacyVoIPHandler: NSObject, PKPushRegistryDelegate {
    func pushRegistry(_ registry: PKPushRegistry, didUpdate credentials: PKPushCredentials, for type: PKPushType) {}

    func pushRegistry(_ registry: PKPushRegistry, didReceiveIncomingPushWith payload: PKPushPayload, for type: PKPushType) {
        Analytics.record("voip", payload.dictionaryPayload)
    }  // expect: AUDIT-VOIP-REPORT
}
