import APNs
import HTTP2
import Testing

@testable import Emulator

/// A stopped emulator lets go of its state: the delivery log and the log's writer (its thread, its
/// store) are freed once the emulator, its server and its loops are. LeakSanitizer reported the
/// writer of every emulator started on a store as leaked at exit (docs/FUZZING.md).
@Suite(.timeLimit(.minutes(1)))
struct EmulatorReleaseTests {
    /// Starts an emulator (on `store` when given), answers one request, stops it and its loops,
    /// and returns weak references to what it held.
    func startAndStop(store: (any EmulatorStore)?) async throws -> (
        log: Weak<DeliveryLog>, writer: Weak<DeliveryLogWriter>
    ) {
        let loops = try EventLoopGroup(loopCount: 1, name: "release")
        let emulator: Emulator
        if let store {
            emulator = try await Emulator.start(EmulatorConfiguration(keys: []), store: store, loops: loops)
        } else {
            emulator = try await Emulator.start(EmulatorConfiguration(keys: []), loops: loops)
        }
        let answer = try await ControlClient.request(method: "GET", port: emulator.port, path: "/control/v1/stats")
        #expect(answer.status == 200)
        let held = (log: Weak(emulator.log), writer: Weak(emulator.log.writer))
        #expect(held.log.value != nil)
        #expect((held.writer.value != nil) == (store != nil))
        await emulator.shutdown()
        await loops.shutdown()
        return held
    }

    @Test func anEmulatorOnAStoreFreesItsLogAndItsWriterOnceStopped() async throws {
        let held = try await startAndStop(store: InMemoryEmulatorStore())
        #expect(held.writer.value == nil, "the writer outlives the emulator")
        #expect(held.log.value == nil, "the log outlives the emulator")
    }

    @Test func anEmulatorInMemoryFreesItsLogOnceStopped() async throws {
        let held = try await startAndStop(store: nil)
        #expect(held.log.value == nil, "the log outlives the emulator")
    }
}

/// A weak reference to carry out of the scope that held the object.
struct Weak<Object: AnyObject> {
    weak var value: Object?

    init(_ value: Object?) {
        self.value = value
    }
}
