import Testing

@testable import HTTP2

/// The server's own checks of HTTP/2's rules for requests (`RequestFieldCheck`, nghttp2's "HTTP
/// messaging" off) against nghttp2's (on), on the same bytes: hand-built frames with header fields
/// no well-behaved client would send (HPACK literals, so any byte goes), fed to one server session
/// of each kind. Each request must end the same way in both: delivered with the same fields and
/// body, or reset with the same code.
@Suite(.timeLimit(.minutes(1)))
struct RequestFieldCheckTests {
    struct Case: CustomStringConvertible {
        var fields: [([UInt8], [UInt8])]
        var body: [UInt8]
        /// Trailer fields, and whether their HEADERS frame ends the stream.
        var trailers: [([UInt8], [UInt8])]?
        var trailersEndStream = true

        var description: String {
            func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self).debugDescription }
            let shown = fields.map { "\(text($0.0)): \(text($0.1))" }.joined(separator: ", ")
            let trailing = trailers.map { " trailers(end \(trailersEndStream)) \($0.map { text($0.0) + ": " + text($0.1) })" } ?? ""
            return "[\(shown)] body \(body.count)\(trailing)"
        }
    }

    /// How one request ended on one server session.
    enum Outcome: Equatable, CustomStringConvertible {
        case delivered(fields: [[UInt8]], body: [UInt8])
        case reset(UInt32)
        case connectionError
        case nothing

        var description: String {
            switch self {
            case .delivered(let fields, let body):
                "delivered \(fields.map { String(decoding: $0, as: UTF8.self).debugDescription }) body \(body.count)"
            case .reset(let code): "reset \(code)"
            case .connectionError: "connection error"
            case .nothing: "nothing"
            }
        }
    }

    // MARK: Wire

    static func integer(_ value: Int, prefixBits: Int, firstByte: UInt8) -> [UInt8] {
        let limit = (1 << prefixBits) - 1
        guard value >= limit else { return [firstByte | UInt8(value)] }
        var bytes = [firstByte | UInt8(limit)]
        var rest = value - limit
        while rest >= 128 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    /// Literal fields without indexing, new names, no Huffman: any bytes go through as they are.
    static func headerBlock(_ fields: [([UInt8], [UInt8])]) -> [UInt8] {
        var block: [UInt8] = []
        for (name, value) in fields {
            block.append(0x00)
            block += integer(name.count, prefixBits: 7, firstByte: 0)
            block += name
            block += integer(value.count, prefixBits: 7, firstByte: 0)
            block += value
        }
        return block
    }

    static func frame(type: UInt8, flags: UInt8, stream: Int32, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + withUnsafeBytes(of: UInt32(bitPattern: stream).bigEndian, Array.init) + payload
    }

    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + frame(type: 4, flags: 0, stream: 0, [])

    static func frames(_ request: Case, stream: Int32, splitData: Bool = false) -> [UInt8] {
        let endHeaders: UInt8 = 0x4
        let endStream: UInt8 = 0x1
        let onlyHeaders = request.body.isEmpty && request.trailers == nil
        var bytes = frame(
            type: 1, flags: endHeaders | (onlyHeaders ? endStream : 0), stream: stream, headerBlock(request.fields))
        if !request.body.isEmpty {
            let endFlag = request.trailers == nil ? endStream : 0
            if splitData, request.body.count > 1 {
                let half = request.body.count / 2
                bytes += frame(type: 0, flags: 0, stream: stream, Array(request.body[..<half]))
                bytes += frame(type: 0, flags: endFlag, stream: stream, Array(request.body[half...]))
            } else {
                bytes += frame(type: 0, flags: endFlag, stream: stream, request.body)
            }
        }
        if let trailers = request.trailers {
            bytes += frame(
                type: 1, flags: endHeaders | (request.trailersEndStream ? endStream : 0), stream: stream,
                headerBlock(trailers))
        }
        return bytes
    }

    // MARK: Running

    /// One server session fed the requests one by one; how each ended.
    /// Session limits for a run (small ones make the checks meet the header-list and body limits).
    struct Limits: Sendable, CustomStringConvertible {
        var maxHeaderListSize = 16_384
        var maxBodySize = 65_536
        var splitData = false

        var description: String { "header list \(maxHeaderListSize), body \(maxBodySize), split \(splitData)" }
    }

    static func run(_ cases: [Case], libraryChecks: Bool, limits: Limits = Limits()) throws -> [Outcome] {
        var configuration = HTTP2SessionConfiguration()
        configuration.libraryChecksRequests = libraryChecks
        configuration.maxHeaderListSize = limits.maxHeaderListSize
        configuration.maxBodySize = limits.maxBodySize
        let server = try HTTP2ServerSession(configuration: configuration)
        // The two kinds of session really differ: nghttp2 checks, or RequestFieldCheck does.
        #expect(server.engine.checksRequests == !libraryChecks)
        let recorder = ServerRecorder()
        recorder.respond = { session, request in
            try session.submitResponse(streamID: request.streamID, status: 200)
        }
        server.delegate = recorder
        var output: [UInt8] = []
        var tally = FrameTally(clientSide: false)
        func feed(_ bytes: [UInt8]) -> Bool {
            var failed = false
            bytes.withUnsafeBytes { raw in
                do throws(HTTP2Error) { try server.receive(raw) } catch { failed = true }
            }
            output.removeAll(keepingCapacity: true)
            server.produceOutput(into: &output)
            tally.feed(output)
            return !failed
        }
        guard feed(preface) else { return cases.map { _ in .connectionError } }
        var outcomes: [Outcome] = []
        for (index, request) in cases.enumerated() {
            let stream = Int32(2 * index + 1)
            let delivered = recorder.requests.count
            let resets = tally.resets.count
            guard feed(frames(request, stream: stream, splitData: limits.splitData)) else {
                outcomes.append(.connectionError)
                outcomes += Array(repeating: .connectionError, count: cases.count - outcomes.count)
                break
            }
            if let reset = tally.resets[resets...].first(where: { $0.streamID == stream }) {
                outcomes.append(.reset(reset.code))
            } else if recorder.requests.count > delivered, let request = recorder.requests.last {
                let fields = request.headers.map { $0.name + [UInt8(ascii: ":")] + $0.value }
                outcomes.append(.delivered(fields: fields, body: request.exceededBodyLimit ? [0xFF] : request.body))
            } else {
                outcomes.append(.nothing)
            }
        }
        return outcomes
    }

    /// Runs `cases` through both kinds of session; returns nghttp2's outcomes.
    @discardableResult
    static func compare(_ cases: [Case], limits: Limits = Limits()) throws -> [Outcome] {
        let library = try run(cases, libraryChecks: true, limits: limits)
        let own = try run(cases, libraryChecks: false, limits: limits)
        #expect(library.count == cases.count && own.count == cases.count)
        for (index, request) in cases.enumerated() where library[index] != own[index] {
            Issue.record("case \(index) \(request): nghttp2 \(library[index]), own \(own[index])")
        }
        return library
    }

    // MARK: Cases

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let base: [([UInt8], [UInt8])] = [
        (bytes(":method"), bytes("POST")), (bytes(":scheme"), bytes("https")),
        (bytes(":path"), bytes("/3/device/abcd")), (bytes(":authority"), bytes("api.push.example:443")),
        (bytes("apns-topic"), bytes("com.example.app")), (bytes("authorization"), bytes("bearer a.b.c")),
    ]

    static let names: [[UInt8]] = [
        "", ":status", ":protocol", ":foo", ":path", ":method", ":authority", ":scheme", ":", "host", "Host",
        "content-length", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te",
        "priority", "x-Upper", "x y", "x:y", "x\"y", "x@y", "apns-topic", "a", "x-custom-header-0123456789",
    ].map(bytes) + [[0x78, 0x00], [0xC3, 0xBC], [0x78, 0x7F]]

    static let values: [[UInt8]] = [
        "", " x", "x ", "\t", "x\t", "\tx", "a\tb", "trailers", "TRAILERS", "Trailers", "gzip", "0", "2", "12", "abc",
        "-1", "+2", "99999999999999999999", "9223372036854775807", "*", "/", "x/y", "//", "/a b", "http", "HTTPS",
        "h2c+x", "1http", "ht_tp", "host:443", "user@host", "[::1]:443", "CONNECT", "OPTIONS", "HEAD", "GET",
        "PO ST", "P(OST", "u=1", "/3/device/" + String(repeating: "ab", count: 32),
        "bearer " + String(repeating: "x", count: 180),
    ].map(bytes) + [[0x61, 0x00, 0x62], [0x61, 0x0D, 0x62], [0x61, 0x0A], [0x7F], [0xC3, 0xBC], [0x2F, 0xFF], [0x2F, 0x7F]]

    /// A CONNECT request (RFC 9113 8.5): no :scheme or :path, :authority required.
    static let connect: [([UInt8], [UInt8])] = [
        (bytes(":method"), bytes("CONNECT")), (bytes(":authority"), bytes("proxy.example:443")),
    ]

    static func mutated(seed: UInt64, count: Int, from start: [([UInt8], [UInt8])] = base) -> [Case] {
        var random = SeededRandom(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        return (0..<count).map { _ in
            var fields = start
            var body = bytes("{}")
            var trailers: [([UInt8], [UInt8])]?
            var trailersEndStream = true
            for _ in 0..<(1 + random.next() % 3) {
                let position = Int(random.next() % UInt64(fields.count + 1))
                switch random.next() % 9 {
                case 0: fields.insert((pick(names), pick(values)), at: position)
                case 1 where !fields.isEmpty: fields.remove(at: min(position, fields.count - 1))
                case 2 where !fields.isEmpty: fields[min(position, fields.count - 1)].0 = pick(names)
                case 3 where !fields.isEmpty: fields[min(position, fields.count - 1)].1 = pick(values)
                case 4 where !fields.isEmpty:
                    fields.insert(fields[min(position, fields.count - 1)], at: Int(random.next() % UInt64(fields.count)))
                case 5:
                    let length = pick(["0", "2", "3", "1", "x", "2"])
                    fields.append((bytes("content-length"), bytes(length)))
                case 6: body = pick([[], bytes("{}"), bytes("{\"a\":1}")])
                case 7:
                    trailers = [(pick(names), pick(values))]
                    trailersEndStream = random.next() % 4 != 0
                default:
                    fields.append((pick(names), pick(values)))
                }
            }
            return Case(fields: fields, body: body, trailers: trailers, trailersEndStream: trailersEndStream)
        }
    }

    @Test func aWellFormedRequestIsDeliveredByBoth() throws {
        let outcomes = try Self.run([Case(fields: Self.base, body: Self.bytes("{}"))], libraryChecks: false)
        guard case .delivered(let fields, let body) = outcomes.first else {
            Issue.record("not delivered: \(outcomes)")
            return
        }
        #expect(fields.count == Self.base.count)
        #expect(body == Self.bytes("{}"))
        try Self.compare([Case(fields: Self.base, body: Self.bytes("{}"))])
    }

    @Test func everyNameAndValueInEveryPlace() throws {
        var cases: [Case] = []
        for name in Self.names {
            for value in Self.values {
                var regular = Self.base
                regular.append((name, value))
                cases.append(Case(fields: regular, body: []))
                var early = Self.base
                early.insert((name, value), at: 1)
                cases.append(Case(fields: early, body: Self.bytes("{}")))
            }
        }
        for pseudo in 0..<4 {
            for value in Self.values {
                var fields = Self.base
                fields[pseudo].1 = value
                cases.append(Case(fields: fields, body: []))
            }
        }
        try Self.compare(cases)
    }

    @Test(arguments: 0..<6)
    func seededMutations(seed: UInt64) throws {
        let outcomes = try Self.compare(Self.mutated(seed: seed, count: 400))
        // The mutations reach both ends: requests delivered and requests reset.
        #expect(outcomes.filter { if case .delivered = $0 { true } else { false } }.count > 40)
        #expect(outcomes.filter { $0 == .reset(1) }.count > 40)
    }

    /// CONNECT has its own rules (no :scheme or :path; content-length means nothing), and the
    /// mutations add, drop and move fields around it.
    @Test(arguments: 0..<3)
    func connectRequests(seed: UInt64) throws {
        let outcomes = try Self.compare(Self.mutated(seed: seed, count: 300, from: Self.connect))
        #expect(outcomes.contains { if case .delivered = $0 { true } else { false } })
    }

    /// Small limits: a header list over the limit (ENHANCE_YOUR_CALM) meeting malformed fields, and
    /// a body over the limit (delivered early, flagged) split over DATA frames meeting content-length.
    @Test(arguments: [
        Limits(maxHeaderListSize: 300), Limits(maxBodySize: 3, splitData: true), Limits(maxBodySize: 1, splitData: true),
    ])
    func mutationsAtSmallLimits(limits: Limits) throws {
        var cases = Self.mutated(seed: 11, count: 300) + Self.mutated(seed: 12, count: 150, from: Self.connect)
        var big = Self.base
        big.append((Self.bytes("x-big"), Array(repeating: UInt8(ascii: "v"), count: 400)))
        big.insert((Self.bytes(":path"), Self.bytes("/")), at: 0)
        cases.append(Case(fields: big, body: []))
        try Self.compare(cases, limits: limits)
    }

    /// The character classes are bit masks and the word checks bit tricks: every byte value, in
    /// every place of names and paths of every length to 25, against a plain reading of the rules.
    @Test func masksAndWordChecksAgreeWithThePlainRules() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let authority = Set("!$%&'()*+,-.:;=@[]_~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let scheme = Set("+-.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        let uppercase = UInt8(ascii: "A")...UInt8(ascii: "Z")
        var mismatches: [String] = []
        for byte in UInt8.min...UInt8.max {
            if CharacterSet.fieldName.contains(byte) != (tchar.contains(byte) && !uppercase.contains(byte)) {
                mismatches.append("fieldName \(byte)")
            }
            if CharacterSet.token.contains(byte) != tchar.contains(byte) { mismatches.append("token \(byte)") }
            if CharacterSet.authority.contains(byte) != authority.contains(byte) { mismatches.append("authority \(byte)") }
            if CharacterSet.scheme.contains(byte) != scheme.contains(byte) { mismatches.append("scheme \(byte)") }
        }
        for length in 1...25 {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var name = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    name[position] = byte
                    let nameIsValid = name.allSatisfy { tchar.contains($0) && !uppercase.contains($0) }
                    if name.withUnsafeBufferPointer(RequestFieldCheck.isRegularName) != nameIsValid {
                        mismatches.append("name \(name)")
                    }
                    var path = [UInt8](repeating: UInt8(ascii: "/"), count: length)
                    path[position] = byte
                    var check = RequestFieldCheck()
                    let verdict = Self.bytes(":path").withUnsafeBufferPointer { name in
                        path.withUnsafeBufferPointer { check.field(name: name, value: $0, trailer: false) }
                    }
                    if (verdict == .keep) != path.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) {
                        mismatches.append("path \(path)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func theValueCheckReadsWordsAsBytesWould() {
        for length in 0..<24 {
            for position in 0..<max(length, 1) {
                for byte in [UInt8(0x00), 0x08, 0x09, 0x0A, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0xFF] {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { value[position] = byte }
                    let expected = value.allSatisfy { ($0 >= 0x20 && $0 != 0x7F) || $0 == 0x09 }
                        && value.first.map { $0 != 0x20 && $0 != 0x09 } ?? true
                        && value.last.map { $0 != 0x20 && $0 != 0x09 } ?? true
                    let checked = value.withUnsafeBufferPointer { RequestFieldCheck.isFieldValue($0) }
                    #expect(checked == expected, "\(value)")
                }
            }
        }
    }
}
