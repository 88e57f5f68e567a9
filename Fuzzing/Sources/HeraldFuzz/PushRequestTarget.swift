@testable import APNs

/// The emulator's request validation: a device push as the HTTP/2 layer hands it over (RequestText:
/// `:method`, `:path`, the regular fields, the body). `:policy` picks the emulator's settings, one
/// letter each: `t` topic not required, `b` one allowed bundle id, `d` a default topic, `p` background
/// priority 10 allowed, `l` Live Activity priority 1 allowed.
enum PushRequestTarget {
    static func policy(_ text: RequestText) -> DevicePushPolicy {
        var policy = DevicePushPolicy()
        let letters = text.value(":policy") ?? ""
        if letters.contains("t") { policy.topicRequired = false }
        if letters.contains("b") { policy.allowedBundleIDs = ["com.example.app"] }
        if letters.contains("d") { policy.defaultTopic = "com.example.app" }
        if letters.contains("p") { policy.backgroundPriority10IsRejected = false }
        if letters.contains("l") { policy.liveActivityPriority1IsRejected = false }
        return policy
    }

    static func incoming(_ text: RequestText) -> IncomingPushRequest {
        IncomingPushRequest(
            method: text.value(":method") ?? "", path: text.value(":path") ?? "", headers: text.regularFields,
            body: text.body)
    }

    /// The full path (Strings): never a crash; an accepted push names the token of its path and
    /// carries the body and a hex token; every rejection has a status APNs uses and echoes an apns-id.
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let text = RequestText(input)
        switch DevicePushValidator.validate(incoming(text), policy: policy(text)) {
        case .success(let push):
            require(push.payload == text.body, "accepted push lost its body")
            require(push.token.hex.utf8.allSatisfy { DevicePushValidator.isHexDigit($0) }, "token \(push.token)")
        case .failure(let rejection):
            require(
                [400, 403, 404, 405, 410, 413, 429, 500, 503].contains(rejection.status), "status \(rejection.status)")
        }
    }

    /// The quick path (scanHeaders over bytes, then the payload check over bytes) answers as the full
    /// path does, except where it declines (`.unsupported`, only for non-ASCII input).
    static func runDifferential(_ input: UnsafeBufferPointer<UInt8>) {
        let text = RequestText(input)
        let policy = policy(text)
        let regular = text.fields.filter { $0.name.first != UInt8(ascii: ":") }
        let fields = ByteFields(regular)
        let method = Array((text.value(":method") ?? "").utf8)
        let path = Array((text.value(":path") ?? "").utf8)
        let full = DevicePushValidator.validateHeaders(incoming(text), policy: policy)
        let isASCII =
            method.allSatisfy { $0 < 0x80 } && path.allSatisfy { $0 < 0x80 }
            && regular.allSatisfy { $0.name.allSatisfy { $0 < 0x80 } && $0.value.allSatisfy { $0 < 0x80 } }
        let sentIDs = Set(regular.map { String(decoding: $0.value, as: UTF8.self).lowercased() })
        func sameID(_ left: String, _ right: String) -> Bool {
            left == right
                || (!sentIDs.contains(left) && !sentIDs.contains(right) && (try? APNsID(left)) != nil
                    && (try? APNsID(right)) != nil)
        }
        method.withUnsafeBufferPointer { method in
            path.withUnsafeBufferPointer { path in
                let scan = DevicePushValidator.scanHeaders(fields, method: method, path: path, policy: policy)
                switch (full, scan) {
                case (_, .unsupported):
                    require(!isASCII, "quick path declined ASCII input; full path: \(full)")
                case (.failure(let slow), .rejected(let fast)):
                    require(
                        slow.status == fast.status && slow.reason == fast.reason
                            && sameID(slow.apnsID ?? "", fast.apnsID ?? ""),
                        "full path \(slow), quick path \(fast)")
                case (.success(let slow), .accepted(let scanned)):
                    guard let fast = scanned.validatedHeaders(fields, path: path) else {
                        require(false, "quick path accepted a path it cannot read back: \(scanned)")
                        return
                    }
                    require(
                        slow.token == fast.token && slow.topic == fast.topic && slow.pushType == fast.pushType
                            && slow.priority == fast.priority && slow.expiration == fast.expiration
                            && slow.collapseID == fast.collapseID && slow.authorization == fast.authorization
                            && sameID(slow.apnsID, fast.apnsID),
                        "full path \(slow), quick path \(fast)")
                    let quickBody = text.body.withUnsafeBufferPointer {
                        DevicePushValidator.payloadProblem($0, pushType: scanned.pushType, policy: policy)
                    }
                    let fullBody = DevicePushValidator.validatePayload(slow, body: text.body, policy: policy)
                    switch fullBody {
                    case .success:
                        require(quickBody == nil, "quick path refuses the body: \(quickBody.map { "\($0)" } ?? "")")
                    case .failure(let rejection):
                        require(
                            quickBody == rejection.reason, "full \(rejection), quick \(String(describing: quickBody))")
                    }
                case (.success(let slow), .rejected(let fast)):
                    require(false, "full path accepted \(slow), quick path \(fast)")
                case (.failure(let slow), .accepted(let fast)):
                    require(false, "full path \(slow), quick path accepted \(fast)")
                }
            }
        }
    }
}

/// Header fields in one buffer, as an HTTP/2 server's header storage lays them out.
final class ByteFields: RawHeaderFields {
    private let storage: UnsafeMutableBufferPointer<UInt8>
    private var ranges: [(name: Range<Int>, value: Range<Int>)] = []

    init(_ headers: [(name: [UInt8], value: [UInt8])]) {
        let bytes = headers.flatMap { $0.name + $0.value }
        storage = .allocate(capacity: max(1, bytes.count))
        _ = storage.initialize(from: bytes)
        var offset = 0
        for header in headers {
            let nameEnd = offset + header.name.count
            ranges.append((offset..<nameEnd, nameEnd..<nameEnd + header.value.count))
            offset = nameEnd + header.value.count
        }
    }

    deinit { storage.deallocate() }

    var fieldCount: Int { ranges.count }

    func name(at index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: storage[ranges[index].name])
    }
    func value(at index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: storage[ranges[index].value])
    }
}
