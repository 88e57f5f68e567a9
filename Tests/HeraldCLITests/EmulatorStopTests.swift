import Foundation
import Glibc
import Testing

/// A supervisor that stops `herald emulator` as soon as it has read where it listens gets a clean
/// stop: the signal is handled from before the address is printed, not killed by its default action.
@Suite(.timeLimit(.minutes(1)))
struct EmulatorStopTests {
    @Test(arguments: [false, true])
    func aStopRightAfterTheAddressIsClean(stopWithInterrupt: Bool) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-stop-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for _ in 0..<10 {
            let emulator = try EmulatorProcess([], tlsIn: directory)
            emulator.process.send(stopWithInterrupt ? SIGINT : SIGTERM)
            let status = emulator.process.waitUntilExit()
            #expect(status == 0, "exit status \(status): the signal came before its handler")
        }
    }
}
