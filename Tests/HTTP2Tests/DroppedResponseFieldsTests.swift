import HeraldTestSupport
import Testing

@testable import HTTP2

/// A client session that keeps only some response fields remembers the others it dropped, by
/// nghttp2's buffers, and does not check them again when they come back from the HPACK table
/// (`DroppedResponseFields`). These responses index their fields (HPACK literals with incremental
/// indexing, then indexed fields), so later ones hit what was remembered; each sequence must end
/// the same way as on a session where nghttp2 checks the responses itself.
@Suite(.timeLimit(.minutes(1)))
struct DroppedResponseFieldsTests {
    typealias Wire = RequestFieldCheckTests
    static let kept = HTTP2HeaderNameSet(["apns-id", "apns-unique-id"])

    /// One field of a response's header block as sent.
    enum Field {
        /// A literal with incremental indexing: the field enters the dynamic table.
        case indexing([UInt8], [UInt8])
        /// A literal without indexing.
        case literal([UInt8], [UInt8])
        /// The dynamic table's entry added `age` entries ago (0: the newest), by index.
        case repeated(age: Int)
        /// `:status: 200` from the static table.
        case status200
    }

    /// The encoder's view of the dynamic table (newest first), to keep `repeated` fields valid.
    struct Table {
        var entries: [([UInt8], [UInt8])] = []
        var size = 0

        mutating func add(_ name: [UInt8], _ value: [UInt8]) {
            entries.insert((name, value), at: 0)
            size += name.count + value.count + 32
            while size > 4096, let last = entries.last {
                size -= last.0.count + last.1.count + 32
                entries.removeLast()
            }
        }
    }

    static func block(_ fields: [Field], table: inout Table) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            switch field {
            case .indexing(let name, let value):
                bytes.append(0x40)
                bytes += Wire.integer(name.count, prefixBits: 7, firstByte: 0) + name
                bytes += Wire.integer(value.count, prefixBits: 7, firstByte: 0) + value
                table.add(name, value)
            case .literal(let name, let value):
                bytes += Wire.headerBlock([(name, value)])
            case .repeated(let age):
                bytes += Wire.integer(62 + age, prefixBits: 7, firstByte: 0x80)
            case .status200:
                bytes.append(0x88)
            }
        }
        return bytes
    }

    /// A response: its header blocks, each in a HEADERS frame of its own (interim responses, the
    /// response, trailers), the last one ending the stream.
    typealias Response = [[Field]]

    /// Each response is answered, in turn, on one client session; returns how each ended, and
    /// how many fields the session remembers at the end.
    static func run(
        _ responses: [Response], libraryChecks: Bool, maxHeaderListSize: Int = 16_384, method: String = "POST"
    ) throws -> (
        outcomes: [ResponseFieldCheckTests.Outcome], remembered: Int
    ) {
        var configuration = HTTP2SessionConfiguration(maxHeaderListSize: maxHeaderListSize)
        configuration.libraryChecksResponses = libraryChecks
        configuration.keptResponseHeaders = kept
        let client = try HTTP2ClientSession(configuration: configuration)
        #expect(client.engine.remembersDroppedFields == !libraryChecks)
        let recorder = ClientRecorder()
        client.delegate = recorder
        var output: [UInt8] = []
        func feed(_ bytes: [UInt8]) -> Bool { feedClient(client, bytes, output: &output) }
        guard feed(Wire.frame(type: 4, flags: 0, stream: 0, [])) else { return ([], 0) }
        var table = Table()
        var outcomes: [ResponseFieldCheckTests.Outcome] = []
        for (index, blocks) in responses.enumerated() {
            let token = UInt64(index)
            let stream = try client.submitRequest(
                headers: ResponseFieldCheckTests.request(method), body: nil, token: token)
            output.removeAll(keepingCapacity: true)
            client.produceOutput(into: &output)
            var frames: [UInt8] = []
            for (position, fields) in blocks.enumerated() {
                let endStream: UInt8 = position == blocks.count - 1 ? 0x1 : 0
                frames += Wire.frame(type: 1, flags: 0x4 | endStream, stream: stream, block(fields, table: &table))
            }
            guard feed(frames) else {
                outcomes.append(.connectionError)
                break
            }
            outcomes.append(ResponseFieldCheckTests.outcome(of: token, in: recorder))
        }
        #expect(recorder.reportedTwice.isEmpty)
        return (outcomes, client.engine.droppedFields.rememberedCount)
    }

    /// Runs `responses` on both kinds of session and requires the same outcomes; returns the own
    /// session's count of remembered fields.
    @discardableResult
    static func compare(_ responses: [Response], maxHeaderListSize: Int = 16_384, method: String = "POST") throws
        -> Int
    {
        let library = try run(responses, libraryChecks: true, maxHeaderListSize: maxHeaderListSize, method: method)
        let own = try run(responses, libraryChecks: false, maxHeaderListSize: maxHeaderListSize, method: method)
        #expect(library.outcomes.count == own.outcomes.count)
        var mismatches = 0
        for index in library.outcomes.indices where index < own.outcomes.count {
            guard library.outcomes[index] != own.outcomes[index] else { continue }
            mismatches += 1
            if mismatches <= 10 {
                Issue.record("response \(index): nghttp2 \(library.outcomes[index]), own \(own.outcomes[index])")
            }
        }
        #expect(mismatches == 0)
        return own.remembered
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// nghttpd's answer: the first one puts its fields in the table, the others name them by index.
    static func nghttpdLike(count: Int) -> [Response] {
        let first: [Field] = [
            .status200, .indexing(bytes("server"), bytes("nghttpd nghttp2/1.52.0")),
            .indexing(bytes("cache-control"), bytes("max-age=3600")),
            .indexing(bytes("date"), bytes("Wed, 02 Dec 2026 04:23:41 GMT")),
            .literal(bytes("content-length"), bytes("0")),
            .indexing(bytes("last-modified"), bytes("Wed, 02 Dec 2026 04:23:40 GMT")),
            .literal(bytes("apns-id"), bytes("A-1")),
        ]
        // Newest first: last-modified 0, date 1, cache-control 2, server 3.
        let later: [Field] = [
            .status200, .repeated(age: 3), .repeated(age: 2), .repeated(age: 1),
            .literal(bytes("content-length"), bytes("0")), .repeated(age: 0), .literal(bytes("apns-id"), bytes("A-2")),
        ]
        return [[first]] + Array(repeating: [later], count: count - 1)
    }

    @Test("fields a server repeats from its table are remembered; responses end as with nghttp2's checks")
    func repeatedFields() throws {
        let remembered = try Self.compare(Self.nghttpdLike(count: 200))
        #expect(remembered == 6)  // :status, server, cache-control, date, content-length, last-modified
        let own = try Self.run(Self.nghttpdLike(count: 3), libraryChecks: false).outcomes
        #expect(own.last == .delivered(status: 200, fields: [Self.bytes("apns-id:A-2")], body: []))
    }

    @Test("a remembered field still counts against the header list limit, in every response")
    func rememberedFieldsCount() throws {
        let big = String(repeating: "v", count: 600)
        let first: [Field] = [
            .status200, .indexing(Self.bytes("x-a"), Self.bytes(big)), .indexing(Self.bytes("x-b"), Self.bytes(big)),
            .indexing(Self.bytes("x-c"), Self.bytes(big)),
        ]
        let later: [Field] = [.status200, .repeated(age: 2), .repeated(age: 1), .repeated(age: 0)]
        let responses = [[first]] + Array(repeating: [later], count: 20)
        // Two fields fit, the third does not: each response fails at its third field.
        try Self.compare(responses, maxHeaderListSize: 1_500)
        let own = try Self.run(responses, libraryChecks: false, maxHeaderListSize: 1_500)
        #expect(own.outcomes.count == 21)
        for outcome in own.outcomes {
            guard case .failed(let error) = outcome else {
                Issue.record("not failed: \(outcome)")
                continue
            }
            #expect(error.kind == .headerListTooLarge(limit: 1_500))
        }
        #expect(own.remembered == 3)  // :status, x-a, x-b
    }

    @Test("a pseudo-header after a remembered field is malformed, as after any regular field")
    func pseudoHeaderAfterRememberedField() throws {
        // The first response is malformed too, but its `server` field, accepted before the late
        // :status, is remembered at the block's first place, where the later ones repeat it.
        let first: [Field] = [.indexing(Self.bytes("server"), Self.bytes("x")), .status200]
        let later: [Field] = [.repeated(age: 0), .status200]
        let own = try Self.run([[first], [later], [later]], libraryChecks: false)
        #expect(own.remembered == 1)
        for outcome in own.outcomes {
            guard case .failed(let error) = outcome else {
                Issue.record("not failed: \(outcome)")
                continue
            }
            #expect(error.kind == .reset(.protocolError))
        }
        try Self.compare([[first], [later], [later]])
    }

    @Test("a remembered content-length has its value checked in every response")
    func rememberedContentLength() throws {
        func length(_ value: String) -> Field { .literal(Self.bytes("content-length"), Self.bytes(value)) }
        let responses: [Response] = [
            [[.status200, length("0")]], [[.status200, length("0")]], [[.status200, length("12")]],
            [[.status200, length("x")]], [[.status200, length(" 0")]], [[.status200, length("")]],
            [[.indexing(Self.bytes(":status"), Self.bytes("204")), length("0")]], [[.repeated(age: 0), length("1")]],
            [[.status200, length("0")], [length("0")]],
        ]
        let own = try Self.run(responses, libraryChecks: false)
        #expect(own.outcomes[1] == .delivered(status: 200, fields: [], body: []))
        #expect(own.remembered == 2)  // :status 200 was replaced by 204 at the first place
        for method in ["POST", "HEAD", "CONNECT"] {
            try Self.compare(responses, method: method)
        }
    }

    @Test("a remembered :status is checked for its place: in trailers, twice, or after an interim one")
    func rememberedStatusPlace() throws {
        let first: [Field] = [.status200, .indexing(Self.bytes(":status"), Self.bytes("103"))]
        // :status 200 twice in one block; 103 then 200 (interim, then final); 200 in trailers.
        try Self.compare([
            [[.status200]], [first], [[.status200, .status200]], [[.repeated(age: 0)], [.status200]],
            [[.status200], [.status200]], [[.status200], [.repeated(age: 0)]], [[.repeated(age: 0)], [.status200]],
        ])
    }

    @Test(
        "random sequences of indexed and literal fields, valid and not, in one to three blocks, end as with nghttp2's checks"
    )
    func randomSequences() throws {
        let names = [
            "server", "date", "x-a", "apns-id", "apns-unique-id", "content-length", "te", "connection", ":status",
            ":path", "X-Upper", "x y",
        ].map(Self.bytes)
        let values = ["x", "0", "12", "trailers", " x", "x ", "200", "204", "100", "103", "101", "", "a\u{1}b"].map(
            Self.bytes)
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
            var table = Table()
            var responses: [Response] = []
            for _ in 0..<30 {
                var blocks: Response = []
                for _ in 0..<(1 + random.next() % 3) {
                    var fields: [Field] = random.next() % 8 == 0 ? [] : [.status200]
                    for _ in 0..<(random.next() % 6) {
                        switch random.next() % 4 {
                        case 0:
                            let name = pick(names)
                            let value = pick(values)
                            fields.append(.indexing(name, value))
                            table.add(name, value)
                        case 1:
                            fields.append(.literal(pick(names), pick(values)))
                        default:
                            if !table.entries.isEmpty {
                                fields.append(.repeated(age: Int(random.next() % UInt64(table.entries.count))))
                            }
                        }
                    }
                    blocks.append(fields)
                }
                responses.append(blocks)
            }
            // HEAD and CONNECT: responses whose content-length has rules of its own.
            try Self.compare(responses, method: ["POST", "HEAD", "CONNECT"][Int(seed % 3)])
        }
    }
}
