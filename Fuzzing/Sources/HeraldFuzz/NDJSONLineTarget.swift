@testable import APNs
@testable import APNsClient

/// The bulk NDJSON line reader (`herald send --requests`): the input's lines go through one decoder
/// (so a later line meets the payload an earlier one left in its cache), and the byte-level scanner
/// must read each line as the JSON parser does whenever it does not decline it.
enum NDJSONLineTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let decoder = NDJSONRequestDecoder(topic: "com.example.app", refuseLintErrors: false, now: 1_800_000_000)
        var known: [UInt8] = []
        for (number, line) in input.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = Array(line)
            _ = try? decoder.decode(line, number: number + 1)
            check(line, knownPayload: [])
            check(line, knownPayload: known)
            if let fields = NDJSONRequestScanner.scan(line), let range = fields.payload { known = Array(line[range]) }
        }
    }

    /// What the scanner read from `line` is what parsing it gives.
    static func check(_ line: [UInt8], knownPayload: [UInt8]) {
        guard let fields = NDJSONRequestScanner.scan(line, knownPayload: knownPayload) else { return }
        let text = String(decoding: line, as: UTF8.self)
        guard let object = (try? JSONValue(parsing: line))?.objectValue else {
            require(false, "the scanner read a line that is not a JSON object: \(text)")
            return
        }
        require(Set(object.keys).count == object.count, "the scanner read a line with a repeated key: \(text)")
        require(fields.token == object["token"]?.stringValue, "token \(String(describing: fields.token)): \(text)")
        if let range = fields.payload {
            let payload = object["payload"]
            require(payload?.objectValue != nil, "the payload is not an object: \(text)")
            require(payload?.encoded() == Array(line[range]), "payload bytes differ from their encoding: \(text)")
            if fields.payloadIsKnown { require(Array(line[range]) == knownPayload, "known payload differs: \(text)") }
        } else {
            require(object["payload"]?.objectValue == nil, "the scanner missed the payload: \(text)")
        }
        for (key, value) in fields.headers {
            let parsed = object[key]
            let written = parsed?.stringValue ?? parsed?.numberValue?.text
            require(written == value, "\(key): scanned \(value), parsed \(String(describing: parsed)): \(text)")
        }
        let headerKeys = object.keys.filter { $0 != "token" && $0 != "payload" }
        require(headerKeys.count == fields.headers.count, "headers \(fields.headers), keys \(object.keys): \(text)")
    }
}
