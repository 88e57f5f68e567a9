import APNs
import HTTP2

/// A simulated device talking to an emulator over HTTP/2 (TLS or h2c): it registers for a topic
/// and environment, holds a token, listens for notifications, subscribes to broadcast channels,
/// registers Live Activity tokens, and can unregister.
///
/// ```swift
/// let device = try await SimulatedDevice.register(at: endpoint, topic: "com.example.app", on: loop)
/// for try await notification in device.notifications() { print(notification.payload) }
/// ```
///
/// Thread-safety: `Sendable`; calls may come from any task. Lifecycle: one HTTP/2 connection on
/// `loop`, opened on first use (again after it is lost); ``close()`` ends it, and the stream of
/// ``notifications()`` with it. Close the device before shutting its loop down.
public final class SimulatedDevice: Sendable {
    /// Where the emulator listens.
    public struct Endpoint: Sendable {
        public var host: String
        public var port: Int
        /// A client TLS context trusting the emulator's CA; nil for h2c.
        public var tls: TLSContext?
        /// The emulator's control token (`EmulatorConfiguration.controlToken`), sent as
        /// `authorization: bearer` with every device request; nil when it has none.
        public var controlToken: String?

        public init(host: String, port: Int, tls: TLSContext? = nil, controlToken: String? = nil) {
            self.host = host
            self.port = port
            self.tls = tls
            self.controlToken = controlToken
        }
    }

    /// The device's token, as providers push to it (`/3/device/<token>`).
    public let token: String
    let link: DeviceLink

    init(token: String, link: DeviceLink) {
        self.token = token
        self.link = link
    }

    /// Registers a new device for `topic` (a bundle id) in `environment` (nil: the emulator's own).
    public static func register(
        at endpoint: Endpoint, topic: String, environment: DeviceEnvironment? = nil, on loop: EventLoop
    ) async throws(SimulatedDeviceError) -> SimulatedDevice {
        let link = DeviceLink(loop: loop, configuration: configuration(endpoint), controlToken: endpoint.controlToken)
        var body = JSONObject([.init(key: "topic", value: .string(topic))])
        if let environment { body["environment"] = .string(environment.rawValue) }
        do throws(SimulatedDeviceError) {
            let response = try await link.request("POST", DeviceAPI.devicesPath, json: JSONValue.object(body).encoded())
            guard let token = (try? JSONValue(parsing: response.body))?["token"]?.stringValue else {
                throw SimulatedDeviceError(status: response.status, reason: "the registration answer has no token")
            }
            return SimulatedDevice(token: token, link: link)
        } catch {
            link.close()
            throw error
        }
    }

    /// A device registered earlier (by another process, say), known by its token. Nothing is sent
    /// until it is used.
    public static func attach(token: String, at endpoint: Endpoint, on loop: EventLoop) throws(SimulatedDeviceError)
        -> SimulatedDevice
    {
        guard let parsed = try? DeviceToken(hex: token) else {
            throw SimulatedDeviceError(
                status: nil, reason: "token: \"\(token)\" is not hexadecimal with an even number of digits")
        }
        return SimulatedDevice(
            token: parsed.hex,
            link: DeviceLink(loop: loop, configuration: configuration(endpoint), controlToken: endpoint.controlToken))
    }

    /// Listens: the stored notification first (if any), then each one as the emulator accepts it.
    /// The sequence ends when the device is unregistered or closed, and throws when the stream
    /// fails (unknown device, connection lost). Ending the iteration (or its task) cancels the
    /// stream, and the device is offline again.
    public func notifications() -> AsyncThrowingStream<DeviceNotification, any Error> {
        let (stream, continuation) = AsyncThrowingStream<DeviceNotification, any Error>.makeStream()
        let cancel = link.stream(
            "\(DeviceAPI.devicesPath)/\(token)/notifications",
            onLine: { line in
                do {
                    continuation.yield(try DeviceNotification(jsonLine: line))
                } catch {
                    continuation.finish(throwing: error)
                }
            },
            onEnd: { error in continuation.finish(throwing: error) })
        continuation.onTermination = { _ in cancel() }
        return stream
    }

    /// Unregisters: the emulator answers pushes to this device's tokens with 410 from now on.
    public func unregister() async throws(SimulatedDeviceError) {
        _ = try await link.request("DELETE", "\(DeviceAPI.devicesPath)/\(token)")
    }

    /// Subscribes to a broadcast channel of the device's app (`bundleID` nil) by its base64 id.
    public func subscribe(channelID: String, bundleID: String? = nil) async throws(SimulatedDeviceError) {
        var body = JSONObject([.init(key: "channel-id", value: .string(channelID))])
        if let bundleID { body["bundle-id"] = .string(bundleID) }
        _ = try await link.request(
            "POST", "\(DeviceAPI.devicesPath)/\(token)/channels", json: JSONValue.object(body).encoded())
    }

    /// Registers a Live Activity update token (`.liveActivity`) or a push-to-start token
    /// (`.pushToStart`) that routes to this device; returns it.
    public func registerToken(_ kind: DeviceTokenKind) async throws(SimulatedDeviceError) -> String {
        let body = JSONValue.object(JSONObject([.init(key: "kind", value: .string(kind.rawValue))])).encoded()
        let response = try await link.request("POST", "\(DeviceAPI.devicesPath)/\(token)/tokens", json: body)
        guard let token = (try? JSONValue(parsing: response.body))?["token"]?.stringValue else {
            throw SimulatedDeviceError(status: response.status, reason: "the answer has no token")
        }
        return token
    }

    /// Closes the connection: a notifications stream ends, the device goes offline.
    public func close() {
        link.close()
    }

    static func configuration(_ endpoint: Endpoint) -> HTTP2ClientConnection.Configuration {
        var session = HTTP2SessionConfiguration()
        session.maxBodySize = 1 << 20
        return HTTP2ClientConnection.Configuration(
            host: endpoint.host, port: endpoint.port, tls: endpoint.tls, session: session,
            idlePingInterval: .seconds(30))  // a quiet listener still notices a dead emulator
    }
}
