import Testing

@testable import HTTP2

/// The client's own checks of HTTP/2's rules for responses (`ResponseFieldCheck`, nghttp2's "HTTP
/// messaging" off) against nghttp2's (on), on the same bytes: hand-built response frames with
/// fields no well-behaved server would send (HPACK literals, so any byte goes), fed to one client
/// session of each kind after it sent a request. Each response must end the same way in both:
/// delivered with the same status, fields and body, or failed with the same error.
@Suite(.timeLimit(.minutes(1)))
struct ResponseFieldCheckTests {
    typealias Fields = [([UInt8], [UInt8])]

    struct Case: CustomStringConvertible {
        /// The request's method: POST, HEAD or CONNECT (whose responses have rules of their own).
        var method = "POST"
        /// Interim (1xx) header blocks before the response, each in a HEADERS frame of its own.
        var interim: [Fields] = []
        var fields: Fields
        var body: [UInt8] = []
        /// Trailer fields, and whether their HEADERS frame ends the stream.
        var trailers: Fields?
        var trailersEndStream = true
        /// Whether the interim block's frame carries END_STREAM (malformed: a final response is due).
        var interimEndsStream = false

        var description: String {
            func text(_ fields: Fields) -> String {
                fields.map {
                    String(decoding: $0.0, as: UTF8.self).debugDescription + ": "
                        + String(decoding: $0.1, as: UTF8.self).debugDescription
                }.joined(separator: ", ")
            }
            let interimText = interim.map { "interim [\(text($0))] " }.joined()
            let trailing = trailers.map { " trailers(end \(trailersEndStream)) [\(text($0))]" } ?? ""
            return "\(method) \(interimText)[\(text(fields))] body \(body.count)\(trailing)"
        }
    }

    /// How one request ended on one client session.
    enum Outcome: Equatable, CustomStringConvertible {
        case delivered(status: Int, fields: [[UInt8]], body: [UInt8])
        case failed(HTTP2StreamError)
        case connectionError
        case nothing

        var description: String {
            switch self {
            case .delivered(let status, let fields, let body):
                "delivered \(status) \(fields.map { String(decoding: $0, as: UTF8.self).debugDescription }) body \(body.count)"
            case .failed(let error): "failed: \(error)"
            case .connectionError: "connection error"
            case .nothing: "nothing"
            }
        }
    }

    static func frames(_ response: Case, stream: Int32) -> [UInt8] {
        typealias Wire = RequestFieldCheckTests
        let endHeaders: UInt8 = 0x4
        let endStream: UInt8 = 0x1
        var bytes: [UInt8] = []
        for block in response.interim {
            bytes += Wire.frame(
                type: 1, flags: endHeaders | (response.interimEndsStream ? endStream : 0), stream: stream,
                Wire.headerBlock(block))
            // Nothing may follow END_STREAM. (The one known difference: nghttp2 keeps a stream it
            // found malformed on its last frame until its RST_STREAM is out, so a frame after it
            // fails the connection (STREAM_CLOSED); with the session's own checks nghttp2 has closed
            // the stream and ignores the frame, as it does after any ended stream.)
            if response.interimEndsStream { return bytes }
        }
        let onlyHeaders = response.body.isEmpty && response.trailers == nil
        bytes += Wire.frame(
            type: 1, flags: endHeaders | (onlyHeaders ? endStream : 0), stream: stream,
            Wire.headerBlock(response.fields))
        if !response.body.isEmpty {
            bytes += Wire.frame(type: 0, flags: response.trailers == nil ? endStream : 0, stream: stream, response.body)
        }
        if let trailers = response.trailers {
            bytes += Wire.frame(
                type: 1, flags: endHeaders | (response.trailersEndStream ? endStream : 0), stream: stream,
                Wire.headerBlock(trailers))
        }
        return bytes
    }

    static func request(_ method: String) -> [HTTP2Header] {
        if method == "CONNECT" {
            return [HTTP2Header(":method", "CONNECT"), HTTP2Header(":authority", "proxy.example:443")]
        }
        return [
            HTTP2Header(":method", method), HTTP2Header(":scheme", "https"), HTTP2Header(":path", "/3/device/abcd"),
            HTTP2Header(":authority", "api.push.example"),
        ]
    }

    /// One client session sending the requests one by one, each answered by its case's frames.
    static func run(_ cases: [Case], libraryChecks: Bool, maxBodySize: Int = 65_536) throws -> [Outcome] {
        var configuration = HTTP2SessionConfiguration()
        configuration.libraryChecksResponses = libraryChecks
        configuration.maxBodySize = maxBodySize
        let client = try HTTP2ClientSession(configuration: configuration)
        // The two kinds of session really differ: nghttp2 checks, or ResponseFieldCheck does.
        #expect(client.engine.checksResponses == !libraryChecks)
        let recorder = ClientRecorder()
        client.delegate = recorder
        var output: [UInt8] = []
        func feed(_ bytes: [UInt8]) -> Bool { feedClient(client, bytes, output: &output) }
        // The server's preface: an empty SETTINGS frame.
        guard feed(RequestFieldCheckTests.frame(type: 4, flags: 0, stream: 0, [])) else {
            return cases.map { _ in .connectionError }
        }
        var outcomes: [Outcome] = []
        for (index, response) in cases.enumerated() {
            let token = UInt64(index)
            let stream = try client.submitRequest(headers: request(response.method), body: nil, token: token)
            output.removeAll(keepingCapacity: true)
            client.produceOutput(into: &output)
            guard feed(frames(response, stream: stream)) else {
                outcomes += Array(repeating: .connectionError, count: cases.count - outcomes.count)
                break
            }
            outcomes.append(outcome(of: token, in: recorder))
        }
        #expect(recorder.reportedTwice.isEmpty)
        return outcomes
    }

    /// What the session reported for the request of `token`.
    static func outcome(of token: UInt64, in recorder: ClientRecorder) -> Outcome {
        if let received = recorder.responses[token] {
            let fields = received.headers.map { $0.name + [UInt8(ascii: ":")] + $0.value }
            return .delivered(status: received.status, fields: fields, body: received.body)
        }
        if let failure = recorder.failures[token] { return .failed(failure) }
        return .nothing
    }

    /// Runs `cases` through both kinds of session; returns nghttp2's outcomes.
    @discardableResult
    static func compare(_ cases: [Case], maxBodySize: Int = 65_536) throws -> [Outcome] {
        let library = try run(cases, libraryChecks: true, maxBodySize: maxBodySize)
        let own = try run(cases, libraryChecks: false, maxBodySize: maxBodySize)
        #expect(library.count == cases.count && own.count == cases.count)
        var mismatches = 0
        for (index, response) in cases.enumerated() where library[index] != own[index] {
            mismatches += 1
            if mismatches <= 20 {
                Issue.record("case \(index) \(response): nghttp2 \(library[index]), own \(own[index])")
            }
        }
        #expect(mismatches == 0)
        return library
    }

    // MARK: Cases

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// What APNs answers to a device push, plus what nghttpd adds.
    static let base: Fields = [
        (bytes(":status"), bytes("200")), (bytes("apns-id"), bytes("123E4567-E89B-12D3-A456-426655440000")),
        (bytes("apns-unique-id"), bytes("4b1d0b3e-5ab7-4a42-8bb4-6e1a9c5e9f10")), (bytes("server"), bytes("nghttpd")),
        (bytes("date"), bytes("Sun, 29 Nov 2026 20:00:00 GMT")),
    ]

    static let names: [[UInt8]] =
        [
            "", ":status", ":path", ":method", ":foo", ":", ":Status", "host", "Host", "content-length", "connection",
            "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "apns-id", "x-Upper", "x y", "x:y",
            "x\"y", "x@y", "a", "x-custom-header-0123456789",
        ].map(bytes) + [[0x78, 0x00], [0xC3, 0xBC], [0x78, 0x7F]]

    static let values: [[UInt8]] =
        [
            "", " x", "x ", "\t", "x\t", "\tx", "a\tb", "trailers", "TRAILERS", "gzip", "0", "2", "12", "abc", "-1",
            "+2", "99999999999999999999", "9223372036854775807", "200", "204", "304", "100", "103", "101", "199", "099",
            "2000", "20", "2x0", "400", "410", "reason: {\"reason\":\"BadDeviceToken\"}",
        ].map(bytes) + [[0x61, 0x00, 0x62], [0x61, 0x0D, 0x62], [0x61, 0x0A], [0x7F], [0xC3, 0xBC], [0x2F, 0xFF]]

    static let statuses = ["200", "204", "304", "400", "100", "103", "101", "199", "099", "2000", "20", "2x0", " 20"]

    static func mutated(seed: UInt64, count: Int) -> [Case] {
        var random = SeededRandom(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        return (0..<count).map { _ in
            var response = Case(fields: base, body: bytes("{}"))
            response.method = pick(["POST", "POST", "POST", "HEAD", "CONNECT"])
            for _ in 0..<(1 + random.next() % 3) {
                let position = Int(random.next() % UInt64(response.fields.count + 1))
                let last = max(response.fields.count - 1, 0)
                switch random.next() % 11 {
                case 0: response.fields.insert((pick(names), pick(values)), at: position)
                case 1 where !response.fields.isEmpty: response.fields.remove(at: min(position, last))
                case 2 where !response.fields.isEmpty: response.fields[min(position, last)].0 = pick(names)
                case 3 where !response.fields.isEmpty: response.fields[min(position, last)].1 = pick(values)
                case 4 where !response.fields.isEmpty:
                    response.fields.insert(
                        response.fields[min(position, last)], at: Int(random.next() % UInt64(response.fields.count)))
                case 5:
                    response.fields.append((bytes("content-length"), bytes(pick(["0", "2", "3", "1", "x", "2"]))))
                case 6: response.body = pick([[], bytes("{}"), bytes("{\"a\":1}")])
                case 7:
                    response.trailers = [(pick(names), pick(values))]
                    response.trailersEndStream = random.next() % 4 != 0
                case 8 where !response.fields.isEmpty:
                    response.fields[0].1 = bytes(pick(statuses))
                case 9:
                    var interim: Fields = [(bytes(":status"), bytes(pick(["100", "103", "100", "200", "101"])))]
                    if random.next() % 2 == 0 { interim.append((pick(names), pick(values))) }
                    response.interim.append(interim)
                    response.interimEndsStream = random.next() % 5 == 0
                default:
                    response.fields.append((pick(names), pick(values)))
                }
            }
            return response
        }
    }

    @Test func aWellFormedResponseIsDeliveredByBoth() throws {
        let response = Case(fields: Self.base, body: Self.bytes("{}"))
        let outcomes = try Self.run([response], libraryChecks: false)
        guard case .delivered(let status, let fields, let body) = outcomes.first else {
            Issue.record("not delivered: \(outcomes)")
            return
        }
        #expect(status == 200)
        #expect(fields.count == Self.base.count)
        #expect(body == Self.bytes("{}"))
        try Self.compare([response])
    }

    @Test func everyNameAndValueInEveryPlace() throws {
        var cases: [Case] = []
        for name in Self.names {
            for value in Self.values {
                var late = Self.base
                late.append((name, value))
                cases.append(Case(fields: late))
                var early = Self.base
                early.insert((name, value), at: 0)
                cases.append(Case(fields: early, body: Self.bytes("{}")))
                var trailers = Case(fields: Self.base, body: Self.bytes("{}"))
                trailers.trailers = [(name, value)]
                cases.append(trailers)
            }
        }
        for status in Self.values {
            var fields = Self.base
            fields[0].1 = status
            cases.append(Case(fields: fields))
            cases.append(Case(fields: fields, body: Self.bytes("{}")))
        }
        try Self.compare(cases)
    }

    /// Status against content-length, body, method and interim responses.
    @Test(arguments: ["POST", "HEAD", "CONNECT"])
    func statusesLengthsAndBodies(method: String) throws {
        var cases: [Case] = []
        for status in Self.statuses {
            for length in [nil, "0", "2", "5", "x"] {
                for body in [[], Self.bytes("{}")] {
                    for interim in [[], ["100"], ["103", "100"], ["200"]] {
                        var fields: Fields = [(Self.bytes(":status"), Self.bytes(status))]
                        if let length { fields.append((Self.bytes("content-length"), Self.bytes(length))) }
                        let blocks = interim.map { [(Self.bytes(":status"), Self.bytes($0))] }
                        cases.append(Case(method: method, interim: blocks, fields: fields, body: body))
                    }
                }
            }
        }
        try Self.compare(cases)
    }

    @Test(arguments: 0..<6)
    func seededMutations(seed: UInt64) throws {
        let outcomes = try Self.compare(Self.mutated(seed: seed, count: 400))
        // The mutations reach both ends: responses delivered and streams reset.
        #expect(outcomes.filter { if case .delivered = $0 { true } else { false } }.count > 40)
        #expect(outcomes.filter { if case .failed = $0 { true } else { false } }.count > 40)
    }

    /// The names the check compares as words are the words of their text.
    @Test(
        arguments: [
            (":status", ResponseFieldCheck.Words.status, nil), ("te", ResponseFieldCheck.Words.te, nil),
            ("host", RequestFieldCheck.Words.host, nil),
            ("upgrade", ResponseFieldCheck.Words.upgrade, nil),
            ("connection", ResponseFieldCheck.Words.connection.first, ResponseFieldCheck.Words.connection.last),
            ("keep-alive", ResponseFieldCheck.Words.keepAlive.first, ResponseFieldCheck.Words.keepAlive.last),
            (
                "content-length", ResponseFieldCheck.Words.contentLength.first,
                ResponseFieldCheck.Words.contentLength.last
            ),
            (
                "proxy-connection", ResponseFieldCheck.Words.proxyConnection.first,
                ResponseFieldCheck.Words.proxyConnection.last
            ),
            (
                "transfer-encoding", ResponseFieldCheck.Words.transferEncoding.first,
                ResponseFieldCheck.Words.transferEncoding.last
            ),
        ] as [(String, UInt64, UInt64?)])
    func wordsSpellTheirNames(name: String, first: UInt64, last: UInt64?) {
        func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
            bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(8 * $1.offset) }
        }
        let bytes = Array(name.utf8)
        #expect(word(bytes.prefix(8)) == first)
        if let last { #expect(word(bytes.suffix(8)) == last) }
        let short = bytes.prefix(8).withUnsafeBufferPointer { RequestFieldCheck.shortWord($0) }
        #expect(short == word(bytes.prefix(8)))
    }

    /// A body limit of one byte meets content-length and bodies that break it.
    @Test func mutationsAtASmallBodyLimit() throws {
        try Self.compare(Self.mutated(seed: 21, count: 300), maxBodySize: 1)
    }
}
