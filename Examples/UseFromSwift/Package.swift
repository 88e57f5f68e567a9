// swift-tools-version:6.0
// A package that uses Herald as a dependency: the README's "Use it from Swift", built and run by
// scripts/test. Another package would write `.package(url: "https://github.com/<owner>/herald",
// branch: "main")` instead of the path.
import PackageDescription

let package = Package(
    name: "UseFromSwift",
    dependencies: [.package(name: "Herald", path: "../..")],
    targets: [
        .executableTarget(
            name: "UseFromSwift",
            dependencies: [
                .product(name: "APNs", package: "Herald"),
                .product(name: "APNsClient", package: "Herald"),
                .product(name: "Emulator", package: "Herald"),
                .product(name: "HTTP2", package: "Herald"),
                .product(name: "Keys", package: "Herald"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
