/// Splits back-to-back JSON objects (`{...}{...}`), as swiftc prints one per primary file.
enum JSONDocuments {
    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var documents: [[UInt8]] = []
        var depth = 0
        var start = 0
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if depth == 0 { start = index }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { documents.append(Array(bytes[start...index])) }
                default: break
                }
            }
            index += 1
        }
        return documents
    }
}
