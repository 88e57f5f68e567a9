// swift-tools-version:6.0
// Herald: Apple Push Notifications for Linux servers.
// Layers depend downward only; see docs/ARCHITECTURE.md.
import PackageDescription

let package = Package(
    name: "Herald",
    // Products are what another package may depend on. The benchmark executables are not among them:
    // SwiftPM still builds and runs a root package's executable targets by name (`swift build --product
    // herald-bench`, `swift run bulk-bench`), which is all scripts/bench-* and scripts/callgrind-* need.
    // HeraldCLI is not a library product either: its interface is the command line (the `herald`
    // product), and everything it does is a call into the libraries below, which are.
    products: [
        .executable(name: "herald", targets: ["herald"]),
        .library(name: "APNs", targets: ["APNs"]),
        .library(name: "Keys", targets: ["Keys"]),
        // The client; its transport (event loops, HTTP/2 over TLS) is the HTTP2 product.
        .library(name: "APNsClient", targets: ["APNsClient"]),
        // Its own product because APNsClient's and Emulator's API names its types (EventLoopGroup,
        // TLSContext, HTTP2Server), and it serves other HTTP/2 work (a gateway's API) as well.
        .library(name: "HTTP2", targets: ["HTTP2"]),
        // So that another package's tests can start an emulator in-process.
        .library(name: "Emulator", targets: ["Emulator"]),
        // The SQLite wrapper, for services built on Herald that keep their own state.
        .library(name: "Storage", targets: ["Storage"]),
        // The provider gateway: model, stores, HTTP API, delivery engine and the runtime `herald gateway` runs.
        .library(name: "Gateway", targets: ["Gateway"]),
        // The libpq wrapper, like Storage: its types appear in the Gateway's API (GatewayStoreError.database).
        .library(name: "Postgres", targets: ["Postgres"]),
        // What an iPhone does with a notification (authorization, delivery, presentation), on an injected clock.
        .library(name: "DeviceModel", targets: ["DeviceModel"]),
        // The device model on a real emulator: EmulatorDeviceAdapter, and profiles played against it.
        .library(name: "DeviceAdapter", targets: ["DeviceAdapter"]),
        // `herald audit`: an app's notification code checked against Apple's rules (docs/AUDIT-RULES.md).
        .library(name: "Audit", targets: ["Audit"]),
        // `herald doctor`: why a notification did not arrive, from its request, APNs's answer, storage and the device.
        .library(name: "Doctor", targets: ["Doctor"]),
    ],
    targets: [
        // System library: OpenSSL 3 from Debian's libssl-dev.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // System library: nghttp2 1.52 from Debian's libnghttp2-dev.
        .systemLibrary(
            name: "CNghttp2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]
        ),
        // System library: SQLite 3 from Debian's libsqlite3-dev.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // System library: libpq (PostgreSQL's client) from Debian's libpq-dev, its declarations only (no
        // pkg-config: that would link it); Postgres opens libpq.so.5 at its first connection.
        .systemLibrary(name: "CPostgres", providers: [.apt(["libpq-dev"])]),
        // System library: http-parser 2.9 from Debian's libhttp-parser-dev (no pkg-config file).
        .systemLibrary(
            name: "CHTTPParser",
            providers: [.apt(["libhttp-parser-dev"])]
        ),
        // Keys and signatures over OpenSSL: P-256 keys, ES256, SHA-256. No I/O beyond reading key files.
        .target(name: "Keys", dependencies: ["COpenSSL"]),
        // The APNs vocabulary: JSON, payloads, headers, tokens, reasons, lint rules, provider tokens.
        .target(name: "APNs", dependencies: ["Keys"]),
        // Storage: a small, safe SQLite wrapper (connections, statements, transactions, migrations).
        .target(name: "Storage", dependencies: ["CSQLite"]),
        // PostgreSQL: a safe libpq wrapper (connections, prepared statements, transactions), async on its own thread.
        .target(name: "Postgres", dependencies: ["CPostgres", "HTTP2"]),
        // The transport: event loops, TCP, TLS, HTTP/2 sessions (client and server), HTTP/1.1 (server).
        .target(name: "HTTP2", dependencies: ["COpenSSL", "CNghttp2", "CHTTPParser", "Keys"]),
        // The provider side: APNs requests and responses, retries, metrics, the connection pool.
        .target(name: "APNsClient", dependencies: ["APNs", "HTTP2", "Keys"]),
        // The web console's files (Sources/Console/Assets, compiled in as ConsoleAssetFiles.swift) and how a
        // server answers for them: the gateway serves it at `/`, the emulator's console listener at `/console`.
        .target(name: "Console", dependencies: ["APNs", "HTTP2"], exclude: ["Assets"]),
        // The APNs emulator: APNs's answers over the HTTP/2 server side, a delivery log.
        .target(name: "Emulator", dependencies: ["APNs", "Console", "HTTP2", "Keys", "Storage"]),
        // The gateway: the provider backend's model and store (devices, notifications, the delivery queue).
        .target(name: "Gateway", dependencies: ["APNs", "APNsClient", "Console", "DeviceModel", "HTTP2", "Keys", "Postgres", "Storage"]),
        // The device model: the device's notification rules as pure state machines (docs/DEVICE.md). No I/O.
        .target(name: "DeviceModel", dependencies: ["APNs"]),
        // The adapter between the device model and the emulator's device API (docs/DEVICE.md, "On the emulator").
        .target(name: "DeviceAdapter", dependencies: ["APNs", "DeviceModel", "Emulator", "HTTP2"]),
        // The app audit: Swift parsed by the toolchain's swiftc into a small syntax model, and rules over it.
        .target(name: "Audit", dependencies: ["APNs"]),
        // The doctor: lint, the reason table and the device model over what the emulator and gateway logged.
        .target(name: "Doctor", dependencies: ["APNs", "DeviceModel", "HTTP2"]),
        // The command line: argument parsing (a pure function) and the commands.
        .target(
            name: "HeraldCLI",
            dependencies: [
                "APNs", "APNsClient", "Audit", "DeviceAdapter", "DeviceModel", "Doctor", "Emulator", "Gateway", "HTTP2",
                "Keys",
            ]),
        .executableTarget(name: "herald", dependencies: ["HeraldCLI"]),
        // Benchmarks: the client through its public async API (see BENCHMARKS.md).
        .executableTarget(
            name: "herald-bench", dependencies: ["APNsClient", "APNs", "HTTP2", "Keys"], path: "Benchmarks/herald-bench"
        ),
        // The emulator for callgrind (see Benchmarks/emulator-bench/main.swift, BENCHMARKS.md).
        .executableTarget(
            name: "emulator-bench", dependencies: ["Emulator", "APNs", "HTTP2", "Keys"],
            path: "Benchmarks/emulator-bench"),
        // `herald send` for callgrind (see Benchmarks/bulk-bench/main.swift, scripts/callgrind-bulk).
        .executableTarget(name: "bulk-bench", dependencies: ["HeraldCLI"], path: "Benchmarks/bulk-bench"),
        // Helpers shared by test targets (reference servers on loopback, child processes, a throwaway PostgreSQL).
        .target(name: "HeraldTestSupport", dependencies: ["HTTP2", "Postgres"], path: "Tests/HeraldTestSupport"),
        .testTarget(name: "HeraldTestSupportTests", dependencies: ["HeraldTestSupport"]),
        .testTarget(name: "KeysTests", dependencies: ["Keys", "HeraldTestSupport"]),
        .testTarget(name: "APNsTests", dependencies: ["APNs", "Keys", "HeraldTestSupport"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "HeraldTestSupport"]),
        .testTarget(name: "HTTP2Tests", dependencies: ["HTTP2", "APNs", "Keys", "HeraldTestSupport"]),
        .testTarget(
            name: "APNsClientTests",
            dependencies: ["APNsClient", "APNs", "Emulator", "HTTP2", "Keys", "HeraldTestSupport"]),
        .testTarget(
            name: "EmulatorTests",
            dependencies: ["Emulator", "APNsClient", "APNs", "HTTP2", "Keys", "Storage", "HeraldTestSupport"]),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway", "APNs", "APNsClient", "Emulator", "HTTP2", "Keys", "Postgres", "Storage",
                "HeraldTestSupport",
            ]),
        .testTarget(
            name: "HeraldCLITests",
            dependencies: [
                "HeraldCLI", "APNs", "APNsClient", "Audit", "Gateway", "HTTP2", "Keys", "HeraldTestSupport",
            ]),
        .testTarget(name: "DeviceModelTests", dependencies: ["DeviceModel", "APNs"]),
        .testTarget(
            name: "DeviceAdapterTests",
            dependencies: ["DeviceAdapter", "DeviceModel", "APNs", "APNsClient", "Emulator", "HTTP2", "Keys"]),
        .testTarget(name: "AuditTests", dependencies: ["Audit", "APNs"], exclude: ["Corpus"]),
        .testTarget(name: "DoctorTests", dependencies: ["Doctor", "APNs", "DeviceModel"]),
        .testTarget(name: "ConsoleTests", dependencies: ["Console", "APNs", "HTTP2", "HeraldTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
