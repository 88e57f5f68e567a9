import APNs
import DeviceModel
import Emulator

/// The tokens the emulator handed out, given to the model when it asks (`TokenIssuer`): each app's device
/// token, and Live Activity and push-to-start tokens fetched ahead of time, because the model asks for a token
/// at once while the emulator answers over the network. A rotated device token (reinstall, backup restore) is
/// the token of a spare simulated device registered ahead; the adapter listens to it once it is handed out.
///
/// Thread-safety: not thread-safe; the adapter fills it and the model reads it on the same task.
final class EmulatorTokenIssuer: TokenIssuer {
    /// By bundle id.
    var deviceTokens: [String: [UInt8]] = [:]
    /// Update tokens not handed out yet, by bundle id.
    var liveActivityTokens: [String: [[UInt8]]] = [:]
    /// Push-to-start tokens not handed out yet, by bundle id.
    var pushToStartTokens: [String: [[UInt8]]] = [:]
    /// Simulated devices registered for a rotation and not handed out yet, by bundle id.
    var spareDevices: [String: [SimulatedDevice]] = [:]
    /// The device that stands for each generation of an app's token after the first, by bundle id.
    var rotatedDevices: [String: [UInt64: SimulatedDevice]] = [:]
    /// Spare devices handed out since the adapter last looked: it listens to them and registers new spares.
    var handedOut: [(bundleID: String, device: SimulatedDevice)] = []

    func deviceToken(bundleID: String, environment: APSEnvironment, generation: UInt64) -> [UInt8]? {
        if generation == 0 { return deviceTokens[bundleID] }
        if let device = rotatedDevices[bundleID]?[generation] { return try? [UInt8](tokenHex: device.token) }
        // No spare left: the model's own token stands in, and pushes to it do not reach the emulator's device.
        guard let spare = spareDevices[bundleID]?.popLast(), let token = try? [UInt8](tokenHex: spare.token) else {
            return nil
        }
        rotatedDevices[bundleID, default: [:]][generation] = spare
        handedOut.append((bundleID, spare))
        return token
    }

    func liveActivityToken(bundleID: String, activityID: String) -> [UInt8]? {
        liveActivityTokens[bundleID]?.popLast()
    }

    func pushToStartToken(bundleID: String, attributesType: String) -> [UInt8]? {
        pushToStartTokens[bundleID]?.popLast()
    }
}

extension [UInt8] {
    /// The bytes of a hex token from the emulator.
    init(tokenHex: String) throws(SimulatedDeviceError) {
        guard let token = try? DeviceToken(hex: tokenHex), let bytes = Hex.decode(token.hex) else {
            throw SimulatedDeviceError(
                status: nil, reason: "the emulator handed out a token that is not hex: \(tokenHex)")
        }
        self = bytes
    }
}
