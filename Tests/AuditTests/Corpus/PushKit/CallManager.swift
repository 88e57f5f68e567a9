import CallKit

final class CallManager: NSObject, CXProviderDelegate {
    private let provider = CXProvider(configuration: CXProviderConfiguration())

    func reportIncomingCall(uuid: UUID, handle: String, completion: @escaping () -> Void) {
        let update = CXCallUpdate()
        update.remoteHandle = CXHandle(type: .generic, value: handle)
        provider.reportNewIncomingCall(with: uuid, update: update) { error in
            if let error {
                print("call rejected: \(error)")
            }
            completion()
        }
    }

    /// A push that names no call still has to be reported; the call then ends at once.
    func reportFailedCall(handle: String, completion: @escaping () -> Void) {
        let uuid = UUID()
        reportIncomingCall(uuid: uuid, handle: handle) {
            self.provider.reportCall(with: uuid, endedAt: nil, reason: .failed)
            completion()
        }
    }

    func providerDidReset(_ provider: CXProvider) {}
}
