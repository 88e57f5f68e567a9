import Foundation
import Glibc
import HeraldTestSupport
import Testing

/// A supervisor that stops `herald emulator` as soon as it has read where it listens gets a clean
/// stop: the signal is handled from before the address is printed, neither killed by its default action
/// nor discarded (the emulator then ran on).
@Suite(.timeLimit(.minutes(1)))
struct EmulatorStopTests {
    @Test(arguments: [false, true])
    func aStopRightAfterTheAddressIsClean(stopWithInterrupt: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-stop-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for _ in 0..<10 {
            let emulator = try EmulatorProcess([], tlsIn: directory)
            emulator.process.send(stopWithInterrupt ? SIGINT : SIGTERM)
            let status = await exitStatus(of: emulator.process)
            #expect(status == 0, "exit status \(status.map(String.init) ?? "none: it ran on, and was killed")")
        }
    }

    /// Without TLS or a store the address comes soonest after the signals are taken over.
    @Test(arguments: [false, true])
    func aStopRightAfterTheAddressOfAQuickStartIsClean(stopWithInterrupt: Bool) async throws {
        for _ in 0..<20 {
            let emulator = try EmulatorProcess([])
            emulator.process.send(stopWithInterrupt ? SIGINT : SIGTERM)
            let status = await exitStatus(of: emulator.process)
            #expect(status == 0, "exit status \(status.map(String.init) ?? "none: it ran on, and was killed")")
        }
    }

    /// Its exit status; nil if it has not ended within ten seconds, when it is killed (a lost stop
    /// would otherwise hang the test and leave the emulator running).
    private func exitStatus(of process: ChildProcess) async -> Int32? {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await process.waitForExit() }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil { process.stop() }
            group.cancelAll()
            return first
        }
    }
}
