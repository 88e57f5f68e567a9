import HTTP2

/// Where a connected device's notifications go: its open stream, or a test's recorder.
///
/// The registry calls a sink while it holds its lock, so that notifications reach it in one order
/// (stored ones first on reconnect): a sink must be quick, must not block, and must not call back
/// into the registry.
public protocol DeviceSink: Sendable {
    /// One notification for the device.
    func deliver(_ notification: DeviceNotification)
    /// The device was unregistered: nothing more will come.
    func finish()
}

/// A device's long-lived HTTP/2 response: one JSON line per notification, written on the
/// stream's loop (each call hops there, in order).
struct StreamDeviceSink: DeviceSink {
    let responder: HTTP2SendableResponder

    func deliver(_ notification: DeviceNotification) {
        responder.write(notification.jsonLine())
    }

    func finish() {
        responder.finish()
    }
}
