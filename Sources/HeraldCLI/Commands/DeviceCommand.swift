import APNsClient
import Emulator
import HTTP2

/// `herald device register|listen|unregister`: a simulated device on the emulator, over its
/// `/device/v1/` API (`SimulatedDevice`).
struct DeviceCommand {
    let options: DeviceOptions
    let context: CommandContext

    /// How listening ended.
    enum ListenEnd: Sendable {
        case counted, interrupted, streamEnded
        case failed(String)
    }

    func run() async -> Int32 {
        if case .run(let profile, let emulator, let until, let json) = options.action {
            return await DeviceRunCommand(
                command: self, profilePath: profile, emulator: emulator, until: until, json: json
            ).run()
        }
        let endpoint: SimulatedDevice.Endpoint
        let loops: EventLoopGroup
        do {
            endpoint = try makeEndpoint(options.endpoint)
            loops = try EventLoopGroup(loopCount: 1, name: "herald-device")
        } catch {
            context.standardError("herald device: \(error)\n")
            return ExitStatus.failure
        }
        let status = await perform(endpoint, loop: loops.loops[0])
        await loops.shutdown()
        return status
    }

    private func perform(_ endpoint: SimulatedDevice.Endpoint, loop: EventLoop) async -> Int32 {
        do throws(SimulatedDeviceError) {
            switch options.action {
            case .register(let topic, let environmentName, let thenListen):
                let environment = environmentName.flatMap(DeviceEnvironment.init(rawValue:))
                let device = try await SimulatedDevice.register(
                    at: endpoint, topic: topic, environment: environment, on: loop)
                context.standardOutput(device.token + "\n")
                return thenListen ? await listen(device) : finish(device, ExitStatus.success)
            case .listen(let token):
                return await listen(try SimulatedDevice.attach(token: token, at: endpoint, on: loop))
            case .run:
                return ExitStatus.failure  // handled by DeviceRunCommand
            case .unregister(let token):
                let device = try SimulatedDevice.attach(token: token, at: endpoint, on: loop)
                do throws(SimulatedDeviceError) {
                    try await device.unregister()
                } catch {
                    device.close()
                    throw error
                }
                context.standardOutput("unregistered \(device.token)\n")
                return finish(device, ExitStatus.success)
            }
        } catch {
            // Say where: "connection refused" alone does not tell which emulator was meant.
            let text = TrustedCA.explaining("\(error)")
            context.standardError("herald device \(actionName): \(options.endpoint): \(text)\n")
            return ExitStatus.failure
        }
    }

    /// Prints each notification as one JSON line until `--count` arrived, the process is asked
    /// to stop, or the emulator ends the stream.
    private func listen(_ device: SimulatedDevice) async -> Int32 {
        let stream = device.notifications()
        let limit = options.count
        let output = context.standardOutput
        let listener = Task { () -> ListenEnd in
            var received = 0
            do {
                for try await notification in stream {
                    output(String(decoding: notification.jsonLine(), as: UTF8.self))
                    received += 1
                    if let limit, received >= limit { return .counted }
                }
                return Task.isCancelled ? .interrupted : .streamEnded
            } catch {
                return Task.isCancelled ? .interrupted : .failed("\(error)")
            }
        }
        context.listenForTermination()
        let waitForTermination = context.waitForTermination
        let watcher = Task {
            await waitForTermination()
            listener.cancel()
        }
        let end = await listener.value
        watcher.cancel()
        switch end {
        case .counted, .interrupted:
            return finish(device, ExitStatus.success)
        case .streamEnded:
            context.standardError(
                "herald device listen: the emulator ended the stream (unregistered, or another listener took over)\n")
            return finish(device, ExitStatus.success)
        case .failed(let message):
            context.standardError("herald device listen: \(message)\n")
            return finish(device, ExitStatus.failure)
        }
    }

    private func finish(_ device: SimulatedDevice, _ status: Int32) -> Int32 {
        device.close()
        return status
    }

    private var actionName: String {
        switch options.action {
        case .register: "register"
        case .listen: "listen"
        case .unregister: "unregister"
        case .run: "run"
        }
    }

    /// The emulator at `url` (`option` names the flag in errors), trusting `--ca-file` over TLS.
    func makeEndpoint(_ url: String, option: String = "--endpoint") throws(DeviceSetupError) -> SimulatedDevice.Endpoint
    {
        let parsed: APNsEndpoint
        do {
            parsed = try APNsEndpoint(url: url)
        } catch {
            throw DeviceSetupError("\(option): \(error)")
        }
        guard parsed.usesTLS else {
            return SimulatedDevice.Endpoint(host: parsed.host, port: parsed.port, controlToken: options.controlToken)
        }
        let caFile: String?
        do {
            caFile = try TrustedCA.path(given: options.caFile, host: parsed.host, usesTLS: true, context: context)
        } catch {
            throw DeviceSetupError(error.message)
        }
        do {
            let tls = try TLSContext(
                .client(serverHostname: parsed.host, trustRoots: caFile.map { .file($0) } ?? .systemDefault))
            return SimulatedDevice.Endpoint(
                host: parsed.host, port: parsed.port, tls: tls, controlToken: options.controlToken)
        } catch {
            throw DeviceSetupError((caFile.map { "--ca-file \($0): " } ?? "TLS: ") + "\(error)")
        }
    }
}

struct DeviceSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
