import APNs
import DeviceModel

/// `POST /v1/preview` (for the console): `{"payload":...}` -> what a lock screen banner shows of it,
/// by the device model's rule (`DeviceModel.render`: one line of title and subtitle, four of body, 40
/// characters a line, "…" where it is cut). A payload the device would drop (not an object, an `aps`
/// that does not decode) is still a 200: nothing shown, and `dropped` says which field and why, as the
/// linter answers 200 with its findings. Only a body that is not `{"payload":...}` is a 400.
enum GatewayPreview {
    static let fields = ["payload"]

    static func answer(_ body: [UInt8]) throws(GatewayAPIError) -> GatewayAnswer {
        let object = try GatewayJSONBody(parsing: body, fields: fields, kind: "preview").object
        guard let payload = object["payload"], !payload.isNull else {
            throw .badRequest(field: "payload", "is required: the payload to preview")
        }
        let shown: (rendered: RenderedNotification, threadID: String)
        do {
            shown = try render(payload: payload)
        } catch {
            let dropped =
                (error as? FieldError).map { error -> JSONValue in
                    let field = error.field.hasPrefix("payload") ? error.field : "payload." + error.field
                    return ["field": .string(field), "message": .string(error.message)]
                } ?? ["field": "payload", "message": .string("\(error)")]
            return GatewayAnswer(
                status: 200,
                body: [
                    "title": "", "subtitle": "", "body": "", "truncated": false, "thread-id": .null,
                    "dropped": dropped,
                ])
        }
        return GatewayAnswer(
            status: 200,
            body: [
                "title": .string(shown.rendered.title), "subtitle": .string(shown.rendered.subtitle),
                "body": .string(shown.rendered.body), "truncated": .bool(shown.rendered.truncated),
                "thread-id": shown.threadID.isEmpty ? .null : .string(shown.threadID), "dropped": .null,
            ])
    }

    static let schema: JSONValue = [
        "type": "object", "required": ["payload"], "properties": ["payload": ["type": "object"]],
    ]
}
