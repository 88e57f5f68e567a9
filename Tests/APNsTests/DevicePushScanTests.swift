import Testing

@testable import APNs

/// The header phase over bytes (`scanHeaders`) against the String-based one (`validateHeaders`):
/// the same verdict, status, reason, echoed apns-id and parsed headers on every validator test case
/// and on seeded random mutations of them; `.unsupported` only where Unicode rules decide.
@Suite(.timeLimit(.minutes(1)))
struct DevicePushScanTests {
    typealias ByteHeader = (name: [UInt8], value: [UInt8])

    /// A request as the HTTP/2 layer hands it over: bytes.
    struct Request {
        var method: [UInt8]
        var path: [UInt8]
        var headers: [ByteHeader]
        var policy: DevicePushPolicy

        init(method: String, path: String, headers: [(name: String, value: String)], policy: DevicePushPolicy) {
            self.method = Array(method.utf8)
            self.path = Array(path.utf8)
            self.headers = headers.map { (Array($0.name.utf8), Array($0.value.utf8)) }
            self.policy = policy
        }

        var isASCII: Bool {
            path.allSatisfy { $0 < 0x80 }
                && headers.allSatisfy { $0.name.allSatisfy { $0 < 0x80 } && $0.value.allSatisfy { $0 < 0x80 } }
        }
    }

    /// Header fields in one allocation, as an HTTP/2 server keeps them.
    final class ByteFields: RawHeaderFields {
        private let storage: UnsafeMutableBufferPointer<UInt8>
        private var ranges: [(name: Range<Int>, value: Range<Int>)] = []

        init(_ headers: [ByteHeader]) {
            storage = .allocate(capacity: max(1, headers.reduce(0) { $0 + $1.name.count + $1.value.count }))
            var offset = 0
            for header in headers {
                for (index, byte) in (header.name + header.value).enumerated() { storage[offset + index] = byte }
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

    enum Verdict {
        case accepted(ValidatedHeaders)
        case rejected(PushRejection)
        case unsupported
    }

    static func scanned(_ request: Request) -> Verdict {
        let fields = ByteFields(request.headers)
        return request.method.withUnsafeBufferPointer { method in
            request.path.withUnsafeBufferPointer { path in
                switch DevicePushValidator.scanHeaders(fields, method: method, path: path, policy: request.policy) {
                case .accepted(let scan):
                    guard let headers = scan.validatedHeaders(fields, path: path) else { return .unsupported }
                    return .accepted(headers)
                case .rejected(let rejection): return .rejected(rejection)
                case .unsupported: return .unsupported
                }
            }
        }
    }

    static func validated(_ request: Request) -> Result<ValidatedHeaders, PushRejection> {
        let incoming = IncomingPushRequest(
            method: String(decoding: request.method, as: UTF8.self),
            path: String(decoding: request.path, as: UTF8.self),
            headers: request.headers.map {
                (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self))
            },
            body: [])
        return DevicePushValidator.validateHeaders(incoming, policy: request.policy)
    }

    /// Why the two phases disagree on `request`, or nil when they agree.
    static func disagreement(_ request: Request) -> String? {
        // A generated apns-id differs from run to run: both must then be generated.
        let sentIDs = Set(request.headers.map { String(decoding: $0.value, as: UTF8.self).lowercased() })
        func sameID(_ left: String, _ right: String) -> Bool {
            left == right
                || (!sentIDs.contains(left) && !sentIDs.contains(right) && (try? APNsID(left)) != nil
                    && (try? APNsID(right)) != nil)
        }
        switch (validated(request), scanned(request)) {
        case (_, .unsupported):
            return request.isASCII ? "unsupported although ASCII" : nil
        case (.failure(let slow), .rejected(let fast)):
            if slow.status == fast.status, slow.reason == fast.reason, let left = slow.apnsID, let right = fast.apnsID,
                sameID(left, right)
            {
                return nil
            }
            return "validateHeaders \(slow), scanHeaders \(fast)"
        case (.success(let slow), .accepted(let fast)):
            let same =
                slow.token == fast.token && slow.topic == fast.topic && slow.pushType == fast.pushType
                && slow.priority == fast.priority && slow.expiration == fast.expiration
                && slow.collapseID == fast.collapseID && slow.authorization == fast.authorization
                && sameID(slow.apnsID, fast.apnsID)
            return same ? nil : "validateHeaders \(slow), scanHeaders \(fast)"
        case (.success(let slow), .rejected(let fast)):
            return "validateHeaders accepted \(slow), scanHeaders \(fast)"
        case (.failure(let slow), .accepted(let fast)):
            return "validateHeaders \(slow), scanHeaders accepted \(fast)"
        }
    }

    /// Every request of the validator's tables.
    static let seeds: [Request] =
        (DevicePushValidatorTests.rejections + DevicePushValidatorTests.orderings).map {
            Request(method: $0.method, path: $0.path, headers: $0.headers, policy: $0.policy)
        }
        + DevicePushValidatorTests.acceptances.map {
            Request(method: "POST", path: $0.path, headers: $0.headers, policy: $0.policy)
        }

    @Test func agreesOnEveryValidatorTestCase() {
        for request in Self.seeds {
            if let problem = Self.disagreement(request) {
                Issue.record("\(problem) for \(request)")
            }
        }
    }

    /// The token is scanned eight bytes at a time: every byte value, at a position in each of the
    /// eight bytes of a word and in the tail, gets the String phase's verdict (hex digits of either
    /// case accepted, anything else BadDeviceToken or BadPath, non-ASCII left to the String phase).
    @Test(arguments: [0, 3, 7, 8, 13, 31, 60, 63])
    func everyByteAtTokenPositionsAgrees(position: Int) throws {
        let seed = try #require(DevicePushValidatorTests.acceptances.first)
        let token = Array(String(seed.path.dropFirst("/3/device/".count)).utf8)
        try #require(token.count == 64)
        for byte in UInt8.min...UInt8.max {
            var request = Request(method: "POST", path: seed.path, headers: seed.headers, policy: seed.policy)
            var mutated = token
            mutated[position] = byte
            request.path = Array("/3/device/".utf8) + mutated
            if let problem = Self.disagreement(request) {
                Issue.record("byte \(byte) at \(position): \(problem)")
            }
            let accepted = if case .accepted = Self.scanned(request) { true } else { false }
            if byte < 0x80 {
                #expect(accepted == DevicePushValidator.isHexDigit(byte), "byte \(byte) at \(position)")
            }
        }
    }

    @Test func generatesAnIDOnlyWhenNoneWasSent() throws {
        let request = Request(
            method: "POST", path: DevicePushValidatorTests.path,
            headers: DevicePushValidatorTests.headers(id: "123E4567-E89B-12D3-A456-426655440000"),
            policy: DevicePushPolicy())
        guard case .accepted(let headers) = Self.scanned(request) else {
            Issue.record("not accepted")
            return
        }
        #expect(headers.apnsID == "123e4567-e89b-12d3-a456-426655440000")
    }

    @Test func nonASCIINamesAndPathsAreLeftToTheStringPhase() {
        var request = Request(
            method: "POST", path: DevicePushValidatorTests.path,
            headers: DevicePushValidatorTests.headers([("x-é", "1")]),
            policy: DevicePushPolicy())
        guard case .unsupported = Self.scanned(request) else { return #expect(Bool(false), "name") }
        request.headers.removeLast()
        request.path += [0xCC, 0x81]  // a combining acute accent
        guard case .unsupported = Self.scanned(request) else { return #expect(Bool(false), "path") }
    }

    /// More fields than the scan keeps names for: repeats among the later ones are still found.
    @Test(arguments: [("x-extra-3", true), ("apns-topic", true), ("x-unique", false)])
    func manyFields(_ last: String, _ repeated: Bool) {
        let extra = (0..<18).map { (name: "x-extra-\($0)", value: "1") }
        let request = Request(
            method: "POST", path: DevicePushValidatorTests.path,
            headers: DevicePushValidatorTests.headers(extra + [(last, "com.example.app")]), policy: DevicePushPolicy())
        #expect(Self.disagreement(request) == nil)
        if case .rejected(let rejection) = Self.scanned(request) {
            #expect(repeated && rejection.reason == .duplicateHeaders)
        } else {
            #expect(!repeated)
        }
    }

    // MARK: - Random mutations

    static let names = [
        "apns-id", "apns-topic", "apns-collapse-id", "apns-priority", "apns-push-type", "apns-expiration",
        "authorization",
        "x-custom", "Apns-Topic", "APNS-ID", "apns-topi", "x-é",
    ].map { Array($0.utf8) }

    static let values: [String] = [
        "", "10", "5", "1", "010", "0", " 10", "alert", "background", "voip", "liveactivity", "mdm", "location",
        "Alert",
        "1700000000", "0000000000000000000001", "99999999999999999999", "-1", "+5",
        "123e4567-e89b-12d3-a456-426655440000", "123E4567-E89B-12D3-A456-426655440000",
        "123e4567-e89b-12d3-a456-42665544000g",
        "123e4567e89b12d3a456426655440000", "com.example.app", "com.example.app.voip",
        "com.example.app.push-type.liveactivity",
        ".voip", ".push-type.liveactivity", "com.other.app", "com.example app", "com.example.app.complication",
        String(repeating: "c", count: 64), String(repeating: "c", count: 65), String(repeating: "é", count: 32),
        String(repeating: "é", count: 33), "bearer x.y.z", "e\u{301}",
    ]

    static let paths: [String] = [
        DevicePushValidatorTests.path, "/3/device/", "/3/device", "/3/device/abc", DevicePushValidatorTests.path + "/x",
        "/3/device/" + DevicePushValidatorTests.token.uppercased(), "/3/Device/" + DevicePushValidatorTests.token, "/",
        "", "/3/device//", "/3/device/ab", "/3/device/\u{301}ab",
    ]

    static let policies: [DevicePushPolicy] = [
        DevicePushPolicy(),
        DevicePushValidatorTests.policy { $0.allowedBundleIDs = ["com.example.app"] },
        DevicePushValidatorTests.policy { $0.allowedBundleIDs = ["com.example.app.voip", "com.other.app"] },
        DevicePushValidatorTests.policy { $0.defaultTopic = "com.example.app" },
        DevicePushValidatorTests.policy {
            $0.defaultTopic = "com.example.app.voip"
            $0.allowedBundleIDs = ["com.example.app"]
        },
        DevicePushValidatorTests.policy { $0.topicRequired = false },
        DevicePushValidatorTests.policy { $0.backgroundPriority10IsRejected = false },
        DevicePushValidatorTests.policy { $0.liveActivityPriority1IsRejected = false },
    ]

    static let bytes: [UInt8] = Array("aZ09-./: ".utf8) + [0x00, 0x7F, 0x80, 0xCC, 0x81, 0xC3, 0xA9, 0xFF]

    static func mutate(_ original: Request, using random: inout JSONTests.SplitMix64) -> Request {
        var request = original
        func pick<T>(_ array: [T]) -> T { array[Int.random(in: 0..<array.count, using: &random)] }
        func anyHeader() -> Int? {
            request.headers.isEmpty ? nil : Int.random(in: 0..<request.headers.count, using: &random)
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<9, using: &random) {
            case 0: if let i = anyHeader() { request.headers[i].value = Array(pick(values).utf8) }
            case 1: if let i = anyHeader() { request.headers.remove(at: i) }
            case 2: if let i = anyHeader() { request.headers.append(request.headers[i]) }
            case 3:
                request.headers.insert(
                    (pick(names), Array(pick(values).utf8)),
                    at: Int.random(in: 0...request.headers.count, using: &random))
            case 4:
                if let i = anyHeader(), !request.headers[i].name.isEmpty {
                    let j = Int.random(in: 0..<request.headers[i].name.count, using: &random)
                    request.headers[i].name[j] ^= 0x20
                }
            case 5: request.path = Array(pick(paths).utf8)
            case 6: request.method = Array(pick(["POST", "GET", "post", "POST ", ""]).utf8)
            case 7:
                if let i = anyHeader() {
                    let j = Int.random(in: 0...request.headers[i].value.count, using: &random)
                    request.headers[i].value.insert(pick(bytes), at: j)
                }
            default:
                let j = Int.random(in: 0...request.path.count, using: &random)
                request.path.insert(pick(bytes), at: j)
            }
        }
        request.policy = Int.random(in: 0..<3, using: &random) == 0 ? pick(policies) : request.policy
        return request
    }

    @Test(arguments: 0..<8)
    func agreesOnMutations(_ seed: Int) {
        var random = JSONTests.SplitMix64(seed: UInt64(seed) &* 0x2545_F491 &+ 7)
        var disagreements = 0
        var compared = 0
        for original in Self.seeds {
            for _ in 0..<30 {
                let request = Self.mutate(original, using: &random)
                compared += 1
                if let problem = Self.disagreement(request) {
                    disagreements += 1
                    if disagreements <= 5 { Issue.record("\(problem) for \(request)") }
                }
            }
        }
        #expect(disagreements == 0, "\(disagreements) of \(compared)")
    }
}
