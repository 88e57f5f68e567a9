// The emulator as `herald emulator --plaintext --in-memory` runs it (default configuration, one
// generated key), for instruction counts under callgrind: scripts/profile-emulator CALLGRIND=1.
//
// Why not `herald emulator` itself: valgrind 3.19 dies (SIGSEGV inside valgrind) on libdispatch's
// signal thread, which an async main that calls exit() leaves the main thread in. A synchronous
// main that waits on a semaphore while a task starts the emulator avoids it.
//
//   emulator-bench [PORT]    prints "PORT bearer JWT" once listening; serves until killed

import APNs
import Dispatch
import Emulator
import HTTP2
import Keys

#if canImport(Glibc)
    import Glibc
#endif

let port = CommandLine.arguments.dropFirst().first.flatMap { UInt16($0) } ?? 0
let forever = DispatchSemaphore(value: 0)
Task.detached {  // not on the main actor: the main thread only waits
    do {
        let key = try P256PrivateKey.generate()
        var configuration = EmulatorConfiguration(keys: [
            .init(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)
        ])
        // EMULATOR_LOG_CAPACITY: a small delivery log, so a short run shows whether memory is given back.
        if let text = getenv("EMULATOR_LOG_CAPACITY"), let capacity = Int(String(cString: text)) {
            configuration.deliveryLogCapacity = capacity
        }
        let loops = try EventLoopGroup(name: "emulator-bench")
        let emulator = try await Emulator.start(configuration, port: port, loops: loops)
        let signer = try ProviderTokenSigner(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let token = try signer.sign(issuedAt: ProviderTokenCache.systemClock())
        print("\(emulator.port) \(token.authorization)")
        fflush(nil)
    } catch {
        print("emulator-bench: \(error)")
        fflush(nil)
        exit(1)
    }
}
forever.wait()
