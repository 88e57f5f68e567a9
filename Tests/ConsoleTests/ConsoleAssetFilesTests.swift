import Foundation
import Testing

@testable import Console

/// The console's files are compiled in from Sources/Console/Assets by scripts/console-assets: this
/// fails while ConsoleAssetFiles.swift is out of date (an asset edited, added or removed without
/// running the script).
@Suite(.timeLimit(.minutes(1)))
struct ConsoleAssetFilesTests {
    static let assetsDirectory: String = {
        let file = #filePath
        let tests = file.split(separator: "/").dropLast(3).joined(separator: "/")
        return "/" + tests + "/Sources/Console/Assets"
    }()

    @Test func everyAssetFileIsCompiledInAsItIsNow() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.assetsDirectory).sorted()
        #expect(names == ConsoleAssetFiles.files.map(\.name).sorted(), "run scripts/console-assets")
        for (name, text) in ConsoleAssetFiles.files {
            let onDisk = try Array(Data(contentsOf: URL(fileURLWithPath: Self.assetsDirectory + "/" + name)))
            let same = onDisk == Array(text.utf8)
            #expect(same, "\(name) differs from its compiled copy: run scripts/console-assets")
        }
    }

    @Test func everyAssetHasATypeAndTheSiteServesIt() {
        for name in ConsoleAsset.all.keys where !name.hasSuffix(".html") {
            #expect(ConsoleSite.gateway.asset(at: "/assets/" + name)?.name == name)
            #expect(ConsoleSite.emulator.asset(at: "/console/assets/" + name)?.name == name)
        }
        #expect(ConsoleSite.gateway.asset(at: "/")?.name == "gateway.html")
        #expect(ConsoleSite.gateway.asset(at: "/?x=1")?.name == "gateway.html")
        #expect(ConsoleSite.emulator.asset(at: "/console")?.name == "emulator.html")
        #expect(ConsoleSite.emulator.asset(at: "/console/assets/gateway.html") == nil)
        #expect(ConsoleSite.gateway.asset(at: "/assets/../Package.swift") == nil)
        #expect(ConsoleSite.gateway.asset(at: "/favicon.ico")?.contentType == "image/svg+xml")
        #expect(ConsoleAsset.all["gateway.js"]?.contentType == "text/javascript; charset=utf-8")
        #expect(ConsoleAsset.all["console.css"]?.contentType == "text/css; charset=utf-8")
    }
}
