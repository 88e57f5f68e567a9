import APNs
import DeviceModel
import Emulator

/// The tokens the emulator handed out, given to the model when it asks (`TokenIssuer`): each app's device
/// token, and Live Activity and push-to-start tokens fetched ahead of time, because the model asks for a token
/// at once while the emulator answers over the network.
///
/// Thread-safety: not thread-safe; the adapter fills it and the model reads it on the same task.
final class EmulatorTokenIssuer: TokenIssuer {
    /// By bundle id.
    var deviceTokens: [String: [UInt8]] = [:]
    /// Update tokens not handed out yet, by bundle id.
    var liveActivityTokens: [String: [[UInt8]]] = [:]
    /// Push-to-start tokens not handed out yet, by bundle id.
    var pushToStartTokens: [String: [[UInt8]]] = [:]

    func deviceToken(bundleID: String, environment: APSEnvironment, generation: UInt64) -> [UInt8]? {
        // A rotated token would need a new emulator device; the model's own token stands in for it.
        generation == 0 ? deviceTokens[bundleID] : nil
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
