// swift-tools-version:6.0
// Herald's libFuzzer targets (docs/FUZZING.md). A package of its own, depending on Herald by path,
// so that the root package's `swift build` never builds or links them (they link libFuzzer).
// One executable holds every target, chosen by its first argument: the modules are compiled once,
// with coverage and AddressSanitizer, and linked once. scripts/fuzz builds and runs it.
import PackageDescription

// SwiftPM names a path dependency by its identity, the (lowercased) name of the directory it is in,
// not by the name in its manifest: the directory Herald is checked out in, found from this file's path.
let herald = String(#filePath.split(separator: "/").dropLast(2).last ?? "herald").lowercased()

let package = Package(
    name: "HeraldFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // libFuzzer's LLVMFuzzerRunDriver, declared for Swift.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "HeraldFuzz",
            dependencies: [
                "FuzzDriver",
                .product(name: "APNs", package: herald),
                .product(name: "APNsClient", package: herald),
                .product(name: "Emulator", package: herald),
                .product(name: "Gateway", package: herald),
                .product(name: "HTTP2", package: herald),
                .product(name: "Keys", package: herald),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
