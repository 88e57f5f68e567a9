/// The input format of the request targets, HTTP/2's view of a request in text: header lines
/// `name: value` (pseudo-headers too, `:method: POST`), an empty line, then the body. An input
/// without an empty line is all body (so a bare JSON file is a payload seed).
struct RequestText {
    var fields: [(name: [UInt8], value: [UInt8])] = []
    var body: [UInt8]

    init(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        var end: Int?
        for index in bytes.indices.dropLast() where bytes[index] == 0x0A && bytes[index + 1] == 0x0A {
            end = index
            break
        }
        guard let end else {
            body = bytes
            return
        }
        body = Array(bytes[(end + 2)...])
        for line in bytes[..<end].split(separator: 0x0A, omittingEmptySubsequences: false) {
            // The name ends at the first ':' after its first byte (a pseudo-header starts with one).
            guard let colon = line.dropFirst().firstIndex(of: UInt8(ascii: ":")) else {
                fields.append((Array(line), []))
                continue
            }
            var value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
            fields.append((Array(line[..<colon]), Array(value)))
        }
    }

    /// The first value of `name`, as text.
    func value(_ name: String) -> String? {
        let name = Array(name.utf8)
        return fields.first { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
    }

    /// The regular fields (no pseudo-headers) as Strings, as an HTTP/2 server hands them over.
    var regularFields: [(name: String, value: String)] {
        fields.filter { $0.name.first != UInt8(ascii: ":") }.map {
            (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self))
        }
    }
}
