@testable import Gateway

/// The gateway API's request bodies (Sources/Gateway/API). The first line names the body
/// (`notification`, `device`, `channel`, `push-to-start`, `activity-token`; anything else: every
/// one), the rest is the body. Never a crash; a refusal is a 4xx with a message.
enum GatewayBodyTarget {
    static let app: App? = try? App(bundleID: "com.example.app", environments: [.sandbox, .production])

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        guard let app else { return }
        let (head, rest) = input.split(at: 0x0A)
        let kind = String(decoding: head, as: UTF8.self)
        let body = rest ?? []
        let all = !["notification", "device", "channel", "push-to-start", "activity-token"].contains(kind)
        func check<T>(_ parse: () throws(GatewayAPIError) -> T) {
            do {
                _ = try parse()
            } catch {
                require((400..<500).contains(error.status) && !error.message.isEmpty, "refusal \(error)")
            }
        }
        if all || kind == "notification" {
            check { () throws(GatewayAPIError) in
                try NotificationBody.request(parsing: body, app: app, idempotencyKey: nil)
            }
        }
        if all || kind == "device" { check { () throws(GatewayAPIError) in try DeviceRegistrationBody(parsing: body) } }
        if all || kind == "channel" {
            check { () throws(GatewayAPIError) in try ChannelCreationBody(parsing: body, app: app) }
        }
        if all || kind == "push-to-start" {
            check { () throws(GatewayAPIError) in try PushToStartBody(parsing: body, app: app) }
        }
        if all || kind == "activity-token" {
            check { () throws(GatewayAPIError) in try ActivityTokenBody(parsing: body, app: app) }
        }
    }
}
