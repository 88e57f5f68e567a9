import APNs
import Synchronization

@testable import Emulator

/// A clock the test moves (UNIX seconds).
final class TestClock: Sendable {
    private let seconds = Atomic<Int>(1_800_000_000)
    var now: Int { seconds.load(ordering: .relaxed) }
    func advance(_ by: Int) { seconds.add(by, ordering: .relaxed) }
    var read: @Sendable () -> Int { { [self] in now } }
}

/// A sink that keeps what it is given.
final class RecordingSink: DeviceSink {
    private let received = Mutex<[DeviceNotification]>([])
    private let ended = Atomic<Bool>(false)
    func deliver(_ notification: DeviceNotification) { received.withLock { $0.append(notification) } }
    func finish() { ended.store(true, ordering: .relaxed) }
    var notifications: [DeviceNotification] { received.withLock { $0 } }
    var apnsIDs: [String] { notifications.map(\.apnsID) }
    var finished: Bool { ended.load(ordering: .relaxed) }
}

/// A push to `token` as the emulator would accept it.
func push(
    _ id: String, to token: String, topic: String = "com.example.app", collapseID: String? = nil,
    expiration: Int? = nil,
    at clock: TestClock
) -> DeviceNotification {
    DeviceNotification(
        apnsID: id, token: token, topic: topic, pushType: "alert", priority: 10, collapseID: collapseID,
        expiration: expiration, payload: ["aps": ["alert": .string(id)]], receivedAt: clock.now * 1000)
}
