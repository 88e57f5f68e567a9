// Waiting for a device to come online or go offline, so tests and tools can await a listener
// instead of polling. Waiters live in the registry's state and are resumed under its lock; a
// cancelled wait is taken out and resumed by its cancellation handler (the lock orders the two).

extension DeviceRegistry {
    struct PresenceWaiter {
        let id: UInt64
        let token: String
        let online: Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    /// Returns once the device `deviceToken` is online (`online: true`) or offline, at once if it
    /// already is; also when the device is unregistered or unknown, or the task is cancelled.
    public func waitForPresence(_ deviceToken: String, online: Bool) async {
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    guard !Task.isCancelled, let device = state.devices[deviceToken], (device.sink != nil) != online
                    else { return true }
                    state.presenceWaiters.append(
                        PresenceWaiter(id: id, token: deviceToken, online: online, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> PresenceWaiter? in
                guard let index = state.presenceWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.presenceWaiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }

    /// Resumes the waiters of `deviceToken` whose condition now holds (or whose device is gone).
    static func resumeWaiters(_ state: inout State, _ deviceToken: String) {
        guard !state.presenceWaiters.isEmpty else { return }
        let online = state.devices[deviceToken].map { $0.sink != nil }
        state.presenceWaiters.removeAll { waiter in
            guard waiter.token == deviceToken, online == nil || online == waiter.online else { return false }
            waiter.continuation.resume()
            return true
        }
    }
}
