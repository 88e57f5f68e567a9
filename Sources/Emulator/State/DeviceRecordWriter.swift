// The device registry's write-through to the store, in the registry's order without holding its lock
// during I/O.
//
//   registry lock: change memory, enqueue the change   (no I/O; unknown tokens enqueue nothing)
//   after unlock:  write()  -- one writer at a time takes every queued change and applies it in order
//
// A change enqueued while another thread writes is taken by that thread or by the next writer, but
// `write()` returns only once the changes queued before it are in the store: the registry's caller
// (an event loop answering a request) sees its change written, as with the other write-throughs, and
// a stopped emulator has nothing waiting. A store error is counted in `StoreStatus`, never thrown:
// the registry keeps answering from memory.
import Synchronization

/// One change the device registry made, as the store will record it.
enum DeviceRecordChange: Sendable {
    case register(StoredDevice)
    case addToken(StoredActivityToken)
    case unregister(deviceID: String)
    case subscribe(StoredSubscription)
    /// A push (or a broadcast, with its channel) kept for the offline device until `expiresAt`
    /// (milliseconds); turned into a `StoredNotification` when written, off the registry's lock.
    case keep(DeviceNotification, deviceID: String, bundleID: String, expiresAt: Int)
    /// What was kept for the device was handed over (or dropped as expired) when it came online.
    case handedOver(deviceID: String)
}

/// Writes the device registry's changes to the store, in order.
///
/// Thread-safety: `Sendable`. `enqueue` may be called under the registry's lock (it takes only a
/// short lock of its own); `write` takes the writer's lock, then the store's.
final class DeviceRecordWriter: Sendable {
    private let store: any DeviceRecordStore
    private let status: StoreStatus
    private let queue = Mutex<[DeviceRecordChange]>([])
    /// Held while changes are applied, so that they reach the store one batch at a time, in order.
    private let writing = Mutex<Void>(())

    init(store: any DeviceRecordStore, status: StoreStatus) {
        self.store = store
        self.status = status
    }

    /// Queues `change`, in the order the registry made it.
    func enqueue(_ change: DeviceRecordChange) {
        queue.withLock { $0.append(change) }
    }

    /// Applies every queued change, oldest first; returns once they are written (or counted as failed).
    func write() {
        writing.withLock { _ in
            let changes = queue.withLock { queue in
                defer { queue.removeAll() }
                return queue
            }
            for change in changes { apply(change) }
        }
    }

    private func apply(_ change: DeviceRecordChange) {
        do {
            switch change {
            case .register(let device): try store.insertDevice(device)
            case .addToken(let token): try store.insertActivityToken(token)
            case .unregister(let deviceID): _ = try store.deleteDevice(id: deviceID)
            case .subscribe(let subscription): try store.subscribe(subscription)
            case .keep(let notification, let deviceID, let bundleID, let expiresAt):
                try store.storeNotification(
                    StoredNotification(notification, deviceID: deviceID, bundleID: bundleID, expiresAt: expiresAt))
            case .handedOver(let deviceID): _ = try store.deleteStoredNotifications(ofDevice: deviceID)
            }
        } catch {
            status.record(error)
        }
    }
}

extension StoredNotification {
    /// The record of `notification`, kept for `deviceID` and the app `bundleID`.
    init(_ notification: DeviceNotification, deviceID: String, bundleID: String, expiresAt: Int) {
        self.init(
            deviceID: deviceID, bundleID: bundleID, channelID: notification.channelID, apnsID: notification.apnsID,
            token: notification.token, topic: notification.topic, pushType: notification.pushType,
            priority: notification.priority, collapseID: notification.collapseID,
            expiration: notification.expiration, payload: notification.payload.encoded(),
            storedAt: notification.receivedAt, expiresAt: expiresAt)
    }
}
