// The header blocks a `LoopPool` sends its requests with. Most of a device push's headers are the
// same from request to request: `:method`, `:scheme`, `:authority`, `authorization` for the
// endpoint (until the provider token is refreshed), and `apns-push-type`, `apns-topic`,
// `apns-priority` for a run of one app's notifications. Those go in a NO_COPY `HTTP2HeaderBlock`,
// built once; only `:path`, `apns-expiration`, `apns-collapse-id` and `apns-id` are written per
// request into the pool's reused `HTTP2HeaderBuffer` (nghttp2 copies those).
//
//   endpoint block (authority, authorization)        rebuilt when either changes; drops the others
//   notification blocks (+ push type, topic, priority) up to `notificationBlockLimit`, built on
//                                                     first use; when full, a request whose values
//                                                     have no block writes them into the buffer
//
// Writing the three constant fields per request would copy them into the buffer, and nghttp2 would
// copy them again on submit, for every notification.

import APNs
import HTTP2

struct RequestHeaderCache {
    /// Blocks kept for (push type, topic, priority) combinations; more combinations than this
    /// are sent as they were before (written per request), not built and thrown away.
    static let notificationBlockLimit = 8

    struct NotificationKey {
        let pushType: PushType
        let topic: String?
        let priority: Priority?
    }

    private var endpointBlock: HTTP2HeaderBlock?
    private var endpointKey: APNsRequest.StaticKey?
    private var notificationBlocks: [(key: NotificationKey, block: HTTP2HeaderBlock)] = []

    /// Fills `headers` (emptied first) with what `request` does not share with other requests;
    /// returns the block to send with them, if any.
    mutating func prepare(_ request: APNsRequest, scheme: String, into headers: inout HTTP2HeaderBuffer)
        -> HTTP2HeaderBlock?
    {
        headers.removeAll()
        guard request.hasNotificationHeaders, let wire = request.fixed.wire else {
            request.appendAllHeaders(scheme: scheme, to: &headers)
            return nil
        }
        // Compared field by field: making a StaticKey per request retained both strings.
        if endpointBlock == nil || endpointKey?.authority != request.authority
            || endpointKey?.authorization != request.authorization
        {
            let key = request.staticKey
            endpointBlock = try? APNsRequest.staticFields(key, scheme: scheme)
            endpointKey = key
            notificationBlocks.removeAll()
        }
        guard let endpointBlock, let endpointKey else {
            request.appendAllHeaders(scheme: scheme, to: &headers)
            return nil
        }
        if let block = notificationBlock(for: wire, endpointKey: endpointKey, scheme: scheme) {
            wire.appendPerRequest(apnsID: request.apnsID, to: &headers)
            return block
        }
        request.appendVaryingHeaders(to: &headers)
        return endpointBlock
    }

    /// The block for `wire`'s push type, topic and priority: a kept one, or a new one while there
    /// is room for it.
    private mutating func notificationBlock(
        for wire: APNsRequest.WireValues, endpointKey: APNsRequest.StaticKey, scheme: String
    ) -> HTTP2HeaderBlock? {
        for entry in notificationBlocks
        where entry.key.pushType == wire.pushType && entry.key.priority == wire.priority
            && entry.key.topic == wire.topic
        {
            return entry.block
        }
        guard notificationBlocks.count < Self.notificationBlockLimit,
            let block = try? APNsRequest.staticFields(endpointKey, scheme: scheme, constantsOf: wire)
        else { return nil }
        notificationBlocks.append(
            (NotificationKey(pushType: wire.pushType, topic: wire.topic, priority: wire.priority), block))
        return block
    }
}
