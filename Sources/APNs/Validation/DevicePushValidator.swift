// The APNs emulator's answer to `POST /3/device/<token>`, as a pure function: an accepted push, or
// the status and reason APNs gives (APNS-REFERENCE.md, "Device push request", "Push types",
// "Payload", "Responses").
//
// Apple does not document the order of its checks; this follows the order peers' emulators use
// ("Where Apple is silent"), so a request with two problems gets the earlier one's reason:
//
//   headers:  DuplicateHeaders, BadMessageId, MethodNotAllowed, MissingDeviceToken / BadPath,
//             MissingTopic, BadCollapseId, BadPriority, InvalidPushType, BadExpirationDate,
//             BadDeviceToken, BadTopic, TopicDisallowed, BadPriority (background at 10)
//   (the emulator checks the provider token here)
//   payload:  PayloadEmpty, not a JSON object (policy.invalidJSONReason), PayloadTooLarge
//
// Every value is parsed by its header type (PushType, Priority, Expiration, CollapseID, APNsID,
// DeviceToken, Topic): their rules live there only. Every status comes from the reason table.

/// Validates device push requests as APNs does. See the file comment for the order of checks.
public enum DevicePushValidator {
    /// Header phase: everything that does not need the provider token or the payload.
    public static func validateHeaders(
        _ request: IncomingPushRequest, policy: DevicePushPolicy
    ) -> Result<ValidatedHeaders, PushRejection> {
        Result { () throws(PushRejection) -> ValidatedHeaders in try checkHeaders(request, policy: policy) }
    }

    /// Payload phase, after the emulator checked the provider token: empty, JSON object, size per
    /// push type. Rejections echo `headers.apnsID`.
    public static func validatePayload(
        _ headers: ValidatedHeaders, body: [UInt8], policy: DevicePushPolicy
    ) -> Result<AcceptedPush, PushRejection> {
        func reject(_ reason: Reason) -> Result<AcceptedPush, PushRejection> {
            .failure(rejection(reason, apnsID: headers.apnsID))
        }
        if let reason = body.withUnsafeBufferPointer({ payloadProblem($0, pushType: headers.pushType, policy: policy) }) {
            return reject(reason)
        }
        return .success(
            AcceptedPush(
                token: headers.token, topic: headers.topic, pushType: headers.pushType, priority: headers.priority,
                expiration: headers.expiration, collapseID: headers.collapseID, apnsID: headers.apnsID, payload: body))
    }

    /// The payload checks without a value tree (``JSONValidator``): empty, not a JSON object, too
    /// large for `pushType`, in that order; nil when the payload passes.
    public static func payloadProblem(
        _ body: UnsafeBufferPointer<UInt8>, pushType: PushType, policy: DevicePushPolicy
    ) -> Reason? {
        guard !body.isEmpty else { return .payloadEmpty }
        guard JSONValidator.validate(body).isObject else { return policy.invalidJSONReason }
        guard body.count <= pushType.payloadLimit else { return .payloadTooLarge }
        return nil
    }

    /// Both phases (when auth is not needed, e.g. certificate auth already checked at TLS).
    public static func validate(
        _ request: IncomingPushRequest, policy: DevicePushPolicy
    ) -> Result<AcceptedPush, PushRejection> {
        validateHeaders(request, policy: policy).flatMap { validatePayload($0, body: request.body, policy: policy) }
    }

    // MARK: - Header phase

    static let pathPrefix = "/3/device/"

    private static func checkHeaders(
        _ request: IncomingPushRequest, policy: DevicePushPolicy
    ) throws(PushRejection) -> ValidatedHeaders {
        // One value per name; names compared case-insensitively (HTTP/2 sends them lowercase).
        var fields: [String: String] = [:]
        var repeated = false
        var apnsIDRepeated = false
        for header in request.headers {
            let name = lowercased(header.name)
            if fields[name] == nil {
                fields[name] = header.value
            } else {
                repeated = true
                if name == "apns-id" { apnsIDRepeated = true }
            }
        }

        // The id every answer echoes: the request's when it sent exactly one valid apns-id (in
        // lowercase, as APNs answers), else a generated one.
        var requestID: APNsID?
        var apnsIDMalformed = false
        if let value = fields["apns-id"], !apnsIDRepeated {
            do {
                requestID = try APNsID(value)
            } catch {
                apnsIDMalformed = true
            }
        }
        let apnsID = requestID?.value ?? APNsID.random().value
        func reject(_ reason: Reason) -> PushRejection { rejection(reason, apnsID: apnsID) }

        if repeated { throw reject(.duplicateHeaders) }
        if apnsIDMalformed { throw reject(.badMessageId) }
        guard request.method == "POST" else { throw reject(.methodNotAllowed) }

        // `/3/device/<token>`: one non-empty segment after the prefix.
        if request.path == "/3/device" || request.path == pathPrefix { throw reject(.missingDeviceToken) }
        guard request.path.hasPrefix(pathPrefix) else { throw reject(.badPath) }
        let tokenText = request.path.dropFirst(pathPrefix.count)
        guard !tokenText.contains("/") else { throw reject(.badPath) }

        // An empty apns-topic names no topic: it counts as absent.
        let topicHeader = fields["apns-topic"].flatMap { $0.isEmpty ? nil : $0 }
        if topicHeader == nil, policy.defaultTopic == nil, policy.topicRequired { throw reject(.missingTopic) }

        var collapseID: CollapseID?
        if let value = fields["apns-collapse-id"] {
            do { collapseID = try CollapseID(value) } catch { throw reject(.badCollapseId) }
        }

        // Absent: APNs assumes 10, for every push type.
        var priority = Priority.immediate
        if let value = fields["apns-priority"] {
            do { priority = try Priority(headerValue: value) } catch { throw reject(.badPriority) }
        }

        // Absent: alert. The topic decides nothing (an MDM push without the header is an alert).
        var pushType = PushType.alert
        if let value = fields["apns-push-type"] {
            do { pushType = try PushType(headerValue: value) } catch { throw reject(.invalidPushType) }
        }

        var expiration: Expiration?
        if let value = fields["apns-expiration"] {
            do { expiration = try Expiration(headerValue: value) } catch { throw reject(.badExpirationDate) }
        }

        let token: DeviceToken
        do { token = try DeviceToken(hex: String(tokenText)) } catch { throw reject(.badDeviceToken) }

        let topic = try resolveTopic(header: topicHeader, pushType: pushType, policy: policy, reject: reject)
        if let allowed = policy.allowedBundleIDs, let topic,
            !allowed.contains(topic.bundleID), !allowed.contains(topic.value)
        {
            throw reject(.topicDisallowed)
        }

        // Background at 10, written or assumed (absent header), when the policy refuses it.
        if pushType == .background, priority == .immediate, policy.backgroundPriority10IsRejected {
            throw reject(.badPriority)
        }
        if pushType == .liveactivity, priority == .low, policy.liveActivityPriority1IsRejected {
            throw reject(.badPriority)
        }

        return ValidatedHeaders(
            token: token, topic: topic, pushType: pushType, priority: priority, expiration: expiration,
            collapseID: collapseID, apnsID: apnsID, authorization: fields["authorization"])
    }

    /// The topic pushed to: the header's, which must carry the push type's suffix (`BadTopic`),
    /// or the policy's default, given the push type's suffix when it lacks it.
    static func resolveTopic(
        header: String?, pushType: PushType, policy: DevicePushPolicy, reject: (Reason) -> PushRejection
    ) throws(PushRejection) -> Topic? {
        if let header {
            let topic: Topic
            do { topic = try Topic(header) } catch { throw reject(.badTopic) }
            if topic.problem(for: pushType) != nil { throw reject(.badTopic) }
            return topic
        }
        guard let fallback = policy.defaultTopic else { return nil }
        do {
            let topic = try Topic(fallback)
            if topic.problem(for: pushType) == nil { return topic }
            return try Topic(bundleID: topic.bundleID, pushType: pushType)
        } catch {
            throw reject(.badTopic)
        }
    }

    // MARK: - Helpers

    /// A rejection whose status is the reason's in `Reason.table`. A reason outside the table can
    /// only come from the policy (`invalidJSONReason`); it is answered as a bad request (400).
    static func rejection(_ reason: Reason, apnsID: String) -> PushRejection {
        PushRejection(status: reason.status ?? 400, reason: reason, apnsID: apnsID)
    }

    /// `name` in ASCII lowercase, without allocating when it already is (as HTTP/2 requires).
    private static func lowercased(_ name: String) -> String {
        name.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) ? name.lowercased() : name
    }
}
