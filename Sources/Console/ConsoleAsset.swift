/// One file of the web console, as compiled into the binary (ConsoleAssetFiles.swift, generated from
/// Sources/Console/Assets by scripts/console-assets).
public struct ConsoleAsset: Sendable {
    /// The file's name in Sources/Console/Assets (`gateway.js`).
    public let name: String
    public let contentType: String
    public let bytes: [UInt8]
    /// A strong validator of the bytes (FNV-1a 64, quoted): browsers revalidate with `if-none-match`.
    public let etag: String

    init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
        contentType = Self.contentType(of: name)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        etag = "\"" + String(hash, radix: 16) + "\""
    }

    /// By extension; every asset is text, so each says UTF-8.
    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "text/plain; charset=utf-8"
        }
    }

    /// Every asset by name.
    public static let all: [String: ConsoleAsset] = Dictionary(
        ConsoleAssetFiles.files.map { ($0.name, ConsoleAsset(name: $0.name, text: $0.text)) },
        uniquingKeysWith: { first, _ in first })
}
