import APNs
import HTTP2

/// A notification APNs accepted.
public struct APNsResponse: Sendable, Equatable {
    /// The `apns-id` APNs answered with (the one sent, or one it generated), lowercase.
    public let apnsID: String
    /// The sandbox's `apns-unique-id`, for looking the delivery up in Apple's delivery log.
    public let uniqueID: String?

    public init(apnsID: String, uniqueID: String?) {
        self.apnsID = apnsID
        self.uniqueID = uniqueID
    }
}

/// Turns an HTTP/2 response into a success or a typed rejection.
public enum ResponseDecoder {
    /// Decodes a response from APNs: `status`, the `apns-id` and `apns-unique-id` headers, and the
    /// JSON body (`{"reason": ..., "timestamp": ...}`) of an error.
    public static func decode(
        status: Int, apnsID: String?, uniqueID: String?, body: [UInt8]
    ) -> Result<APNsResponse, APNsClientError> {
        decode(status: status, apnsID: apnsID, uniqueID: uniqueID, body: body, apnsIDIsLowercase: false)
    }

    /// `decode`, told whether `apnsID` is known to be lowercase (the one the client sent).
    @inline(__always)
    static func decode(
        status: Int, apnsID: String?, uniqueID: String?, body: [UInt8], apnsIDIsLowercase: Bool
    ) -> Result<APNsResponse, APNsClientError> {
        if status == 200 {
            return .success(
                APNsResponse(
                    apnsID: apnsIDIsLowercase ? apnsID ?? "" : apnsID.map(lowercased) ?? "", uniqueID: uniqueID))
        }
        let json = try? JSONValue(parsing: body)
        let reason: Reason
        if let text = json?["reason"]?.stringValue, !text.isEmpty {
            reason = Reason(text)
        } else {
            reason = fallbackReason(status: status)
        }
        let timestamp = json?["timestamp"]?.intValue ?? json?["timestamp"]?.doubleValue.map { Int($0) }
        return .failure(
            .rejected(
                APNsRejection(
                    status: status, reason: reason, apnsID: apnsID?.lowercased(), uniqueID: uniqueID,
                    timestampMilliseconds: status == 410 ? timestamp : nil)))
    }

    /// What a transport's answer to the request sent with `sentID` means. A response without
    /// `apns-id` is taken as the sent one; the id sent (or echoed: the transport hands back the sent
    /// string) is lowercase already.
    static func decode(_ raw: consuming Result<RawResponse, APNsClientError>, sentID: String) -> Result<
        APNsResponse, APNsClientError
    > {
        switch consume raw {
        case .success(let raw):
            let sent = raw.apnsID == nil || raw.apnsID == sentID
            return decode(
                status: raw.status, apnsID: raw.apnsID ?? sentID, uniqueID: raw.uniqueID, body: raw.body,
                apnsIDIsLowercase: sent)
        case .failure(let error):
            return .failure(error)
        }
    }

    /// `decode` of the HTTP/2 answer to the request sent with `sentID`, read from the response's
    /// bytes (the pool's path for a device push).
    static func decode(_ response: borrowing HTTP2Response, sentID: String) -> Result<APNsResponse, APNsClientError> {
        // No APNs header kept (a server that sends none): nothing to look up.
        if response.headers.isEmpty {
            return decode(
                status: response.status, apnsID: sentID, uniqueID: nil, body: response.body, apnsIDIsLowercase: true)
        }
        let apnsID = LoopPool.apnsID(response.headers, sent: sentID)
        let sent = apnsID == nil || apnsID == sentID
        return decode(
            status: response.status, apnsID: apnsID ?? sentID, uniqueID: response.headers.value(for: "apns-unique-id"),
            body: response.body, apnsIDIsLowercase: sent)
    }

    /// `id` in lowercase, without allocating when it already is (APNs answers in lowercase).
    static func lowercased(_ id: String) -> String {
        let hasUppercase =
            id.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.contains { $0 &- UInt8(ascii: "A") < 26 }
            } ?? id.utf8.contains { $0 &- UInt8(ascii: "A") < 26 }
        return hasUppercase ? id.lowercased() : id
    }

    /// A reason for an error response without a readable body (a proxy's 502, a truncated body).
    static func fallbackReason(status: Int) -> Reason {
        switch status {
        case 429: .tooManyRequests
        case 500: .internalServerError
        case 503: .serviceUnavailable
        default: Reason("HTTP\(status)")
        }
    }
}
