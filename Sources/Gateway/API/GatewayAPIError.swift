import APNs
import HTTP2

/// A refused API request: the status, and the body every 4xx/5xx carries,
/// `{"error":{"code","message","field"?}}`.
struct GatewayAPIError: Error, Sendable, Equatable {
    let status: Int
    /// Stable and kebab-case (`unknown-app`, `bad-request`): what a client branches on.
    let code: String
    let message: String
    /// The path parameter, header or body field at fault, when one is.
    let field: String?
    var headers: [HTTP2Header] = []
    /// APNs's reason, when APNs refused a request the gateway made for this one (`apns-error`).
    var apnsReason: String? = nil
    /// Members written beside `error` (a 422's `findings`).
    var extra = JSONObject()

    static func badRequest(_ error: FieldError) -> GatewayAPIError {
        GatewayAPIError(status: 400, code: "bad-request", message: error.message, field: error.field)
    }

    static func badRequest(field: String?, _ message: String) -> GatewayAPIError {
        GatewayAPIError(status: 400, code: "bad-request", message: message, field: field)
    }

    static let unauthorized = GatewayAPIError(
        status: 401, code: "unauthorized", message: "send a valid API key as 'authorization: Bearer KEY'",
        field: "authorization", headers: [HTTP2Header("www-authenticate", "Bearer")])

    static func forbidden(_ message: String) -> GatewayAPIError {
        GatewayAPIError(status: 403, code: "forbidden", message: message, field: "authorization")
    }

    static func unknownApp(_ bundleID: String) -> GatewayAPIError {
        GatewayAPIError(
            status: 404, code: "unknown-app", message: "the gateway serves no app '\(bundleID)'", field: "bundle-id")
    }

    static func unknownDevice(_ token: DeviceToken) -> GatewayAPIError {
        GatewayAPIError(
            status: 404, code: "unknown-device", message: "no device with token '\(token.hex)'", field: "token")
    }

    static func unknownNotification(_ id: String) -> GatewayAPIError {
        GatewayAPIError(status: 404, code: "unknown-notification", message: "no notification '\(id)'", field: "id")
    }

    static func unknownPath(_ path: String) -> GatewayAPIError {
        GatewayAPIError(
            status: 404, code: "unknown-path", message: "no route for '\(path)' (see GET /openapi.json)", field: nil)
    }

    static func unknownAsset(_ path: String) -> GatewayAPIError {
        GatewayAPIError(status: 404, code: "unknown-asset", message: "the console has no file at '\(path)'", field: nil)
    }

    static func methodNotAllowed(_ method: String, allowed: [String]) -> GatewayAPIError {
        GatewayAPIError(
            status: 405, code: "method-not-allowed",
            message: "\(method) is not allowed here; allowed: \(allowed.joined(separator: ", "))", field: nil,
            headers: [HTTP2Header("allow", allowed.joined(separator: ", "))])
    }

    static func bodyTooLarge(limit: Int) -> GatewayAPIError {
        GatewayAPIError(
            status: 413, code: "body-too-large", message: "the body is over the limit of \(limit) bytes", field: "body")
    }

    static func store(_ error: GatewayStoreError) -> GatewayAPIError {
        switch error {
        case .invalid(let fieldError): .badRequest(fieldError)
        case .unknownNotification(let id): .unknownNotification(id)
        default: GatewayAPIError(status: 500, code: "storage-failure", message: "\(error)", field: nil)
        }
    }

    var body: JSONValue {
        var object = JSONObject()
        object.append(key: "code", value: .string(code))
        object.append(key: "message", value: .string(message))
        if let field { object.append(key: "field", value: .string(field)) }
        if let apnsReason { object.append(key: "reason", value: .string(apnsReason)) }
        var body = JSONObject([.init(key: "error", value: .object(object))])
        for member in extra { body.append(key: member.key, value: member.value) }
        return .object(body)
    }
}
