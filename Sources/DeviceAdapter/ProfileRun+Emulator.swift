import APNs
import DeviceModel

/// How long a profile run on the emulator goes on once its script is over.
public enum ProfileRunEnd: Sendable, Hashable {
    /// Stop when the script is over.
    case scriptEnd
    /// Keep feeding pushes into the model for this many seconds more.
    case seconds(Double)
    /// Keep going until the adapter's `stopper` is called (Ctrl-C).
    case stopped
}

/// Why a profile run stopped early.
public enum ProfileRunError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A step could not run (it names the field).
    case step(FieldError)
    /// A `wait-for-push` step ran out of time, or the emulator's stream ended.
    case adapter(field: String, EmulatorDeviceAdapterError)

    public var description: String {
        switch self {
        case .step(let error): "\(error)"
        case .adapter(let field, let error): "\(field): \(error)"
        }
    }
}

extension ProfileRun {
    /// Plays the script with `adapter` (connected to the same device): a `wait` step waits in real time and a
    /// `wait-for-push` step for pushes, both feeding whatever arrives meanwhile into the model. Build the run on
    /// a `SystemClock`.
    public func run(on adapter: EmulatorDeviceAdapter, until end: ProfileRunEnd) async throws(ProfileRunError) {
        while true {
            let pause: Pause
            do {
                pause = try runUntilPause()
            } catch {
                throw .step(error)
            }
            let field = "script[\(nextStep - 1)]"
            do throws(EmulatorDeviceAdapterError) {
                switch pause {
                case .pushes(let count, let timeout): try await adapter.receive(count: count, timeout: timeout)
                case .time(let seconds): try await adapter.run(for: seconds)
                case .finished:
                    switch end {
                    case .scriptEnd: break
                    case .seconds(let seconds): try await adapter.run(for: seconds)
                    case .stopped: try await adapter.run(for: .infinity)
                    }
                    device.runDueEvents()
                    return
                }
            } catch .stopped where pause == .finished {
                device.runDueEvents()
                return
            } catch {
                throw .adapter(field: pause == .finished ? "--until" : field, error)
            }
        }
    }
}
