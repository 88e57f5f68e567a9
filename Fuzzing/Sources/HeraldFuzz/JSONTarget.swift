@testable import APNs

#if canImport(Glibc)
    import Glibc
#endif

/// The JSON parser and the validator: the same verdict on every input (kind, or the error's offset),
/// and a parsed value encodes to JSON that parses back to an equivalent value.
enum JSONTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        let validation = JSONValidator.validate(bytes)
        do {
            let value = try JSONValue(parsing: bytes)
            require(
                validation == .valid(kind(of: value)),
                "parser accepted as \(kind(of: value)), validator said \(validation)")
            let encoded = value.encoded()
            let again = try? JSONValue(parsing: encoded)
            require(
                again?.isEquivalent(to: value) == true,
                "encoding does not round-trip: \(String(decoding: encoded, as: UTF8.self))")
        } catch {
            require(validation == .invalid(offset: error.offset), "parser: \(error), validator said \(validation)")
        }
    }

    static func kind(of value: JSONValue) -> JSONKind {
        switch value {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }
}

extension JSONTarget {
    /// `ok HEX` with the compact encoding of the JSON in the file at `path`, or `error MESSAGE`.
    static func encodeFile(_ path: String) -> String {
        guard let file = fopen(path, "rb") else { return "error cannot open \(path)" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        do {
            let encoded = try JSONValue(parsing: bytes).encoded()
            return "ok "
                + encoded.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined()
        } catch {
            return "error \(error)"
        }
    }
}
