// swift-tools-version:6.0
// Herald: Apple Push Notifications for Linux servers.
// Layers depend downward only; see docs/ARCHITECTURE.md.
import PackageDescription

let package = Package(
    name: "Herald",
    products: [
        .executable(name: "herald", targets: ["herald"]),
        .library(name: "APNs", targets: ["APNs"]),
        .library(name: "Keys", targets: ["Keys"]),
    ],
    targets: [
        // System library: OpenSSL 3 from Debian's libssl-dev.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // Keys and signatures over OpenSSL: P-256 keys, ES256, SHA-256. No I/O beyond reading key files.
        .target(name: "Keys", dependencies: ["COpenSSL"]),
        // The APNs vocabulary: JSON, payloads, headers, tokens, reasons, lint rules, provider tokens.
        .target(name: "APNs", dependencies: ["Keys"]),
        // The command line: argument parsing (a pure function) and the commands.
        .target(name: "HeraldCLI", dependencies: ["APNs", "Keys"]),
        .executableTarget(name: "herald", dependencies: ["HeraldCLI"]),
        .testTarget(name: "KeysTests", dependencies: ["Keys"]),
        .testTarget(name: "APNsTests", dependencies: ["APNs", "Keys"]),
        .testTarget(name: "HeraldCLITests", dependencies: ["HeraldCLI", "APNs"]),
    ],
    swiftLanguageModes: [.v6]
)
