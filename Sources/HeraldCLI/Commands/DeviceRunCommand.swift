import APNs
import DeviceAdapter
import DeviceModel
import Emulator
import HTTP2

/// `herald device run PROFILE.json`: plays a device profile on the device model and prints the timeline as it
/// happens (text, or JSON lines). Offline, on a virtual clock, pushes come from the profile's push steps; with
/// `--endpoint URL` (alias `--emulator`) the app registers on the emulator (`EmulatorDeviceAdapter`) and real time passes.
struct DeviceRunCommand {
    let command: DeviceCommand
    let profilePath: String
    let emulator: String?
    let until: DeviceRunUntil
    let json: Bool

    var context: CommandContext { command.context }

    func run() async -> Int32 {
        let profile: DeviceProfile
        do {
            profile = try DeviceProfile(json: try context.read(profilePath))
        } catch let error as InputError {
            return fail(error.message)
        } catch {
            return fail("\(profilePath): \(error)")
        }
        guard let emulator else {
            let run = ProfileRun(profile, clock: VirtualClock())
            printTimeline(of: run)
            do {
                try run.runOffline()
            } catch {
                return fail("\(profilePath): \(error)")
            }
            return ExitStatus.success
        }
        return await runOnEmulator(profile, emulator)
    }

    private func runOnEmulator(_ profile: DeviceProfile, _ url: String) async -> Int32 {
        let endpoint: SimulatedDevice.Endpoint
        let loops: EventLoopGroup
        do {
            endpoint = try command.makeEndpoint(url, option: "--endpoint")
            loops = try EventLoopGroup(loopCount: 1, name: "herald-device-run")
        } catch {
            return fail("\(error)")
        }
        let run = ProfileRun(profile, clock: SystemClock())
        printTimeline(of: run)
        let adapter = EmulatorDeviceAdapter(device: run.device, endpoint: endpoint, loop: loops.loops[0])
        context.listenForTermination()
        let waitForTermination = context.waitForTermination
        let stop = adapter.stopper
        let watcher = Task {
            await waitForTermination()
            stop()
        }
        var status = ExitStatus.success
        do {
            try await adapter.connect(pushToStartTypes: profile.pushToStartTypes.count)
            let end: ProfileRunEnd =
                switch until {
                case .end: .scriptEnd
                case .interrupt: .stopped
                case .seconds(let seconds): .seconds(seconds)
                }
            try await run.run(on: adapter, until: end)
        } catch let error as SimulatedDeviceError {
            status = fail("--endpoint \(url): \(TrustedCA.explaining("\(error)"))")
        } catch {
            status = fail("\(profilePath): \(error)")
        }
        watcher.cancel()
        adapter.close()
        await loops.shutdown()
        return status
    }

    /// Prints what the run recorded so far, then each entry as it is recorded.
    private func printTimeline(of run: ProfileRun) {
        let output = context.standardOutput
        let json = json
        let line: (TimelineEntry) -> String = { json ? $0.jsonLine + "\n" : $0.description + "\n" }
        for entry in run.device.timeline.entries { output(line(entry)) }
        run.device.timeline.onRecord = { output(line($0)) }
    }

    private func fail(_ message: String) -> Int32 {
        context.standardError("herald device run: \(message)\n")
        return ExitStatus.failure
    }
}
