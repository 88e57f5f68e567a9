import APNs

/// What the banner for a push's payload shows: the content iOS builds from the payload (before any
/// service extension), rendered by the banner's rule. Throws a `FieldError` naming the field when the
/// payload is not an object or its `aps` does not decode (the device would drop such a push).
public func render(payload json: JSONValue) throws -> (rendered: RenderedNotification, threadID: String) {
    guard let object = json.objectValue else { throw FieldError(field: "payload", message: "must be an object") }
    guard let aps = try Payload(json: json).aps else { throw FieldError(field: "payload.aps", message: "is missing") }
    let content = NotificationContent(aps: aps, userInfo: object)
    return (render(content), content.threadIdentifier)
}
