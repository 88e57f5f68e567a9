// The emulator as `herald emulator --plaintext --in-memory` runs it (default configuration, one
// generated key), for instruction counts under callgrind: scripts/callgrind-emulator, and with
// EMULATOR_DATA_DIR as `herald emulator --plaintext --data-dir DIR` runs it (the delivery log written
// behind to DIR/emulator.sqlite): scripts/callgrind-emulator-log.
//
// Why not `herald emulator` itself: valgrind 3.19 dies (SIGSEGV inside valgrind) on libdispatch's
// signal thread, which an async main that calls exit() leaves the main thread in. A synchronous
// main that waits on a semaphore while a task starts the emulator avoids it.
//
//   emulator-bench [PORT]    prints "PORT bearer JWT" once listening; serves until killed
//   EMULATOR_DATA_DIR=dir    keep the state in dir/emulator.sqlite (the directory must exist)
//   EMULATOR_LOOPS=n         event loops (default: one per core, as EventLoopGroup's default)
//   EMULATOR_LOG_CAPACITY=n  the delivery log's capacity
//   EMULATOR_LOG_FLUSH_MS=n  the log writer's interval (under valgrind the rate is ~100 times lower:
//                            a long interval keeps its batches full, as they are at full speed)
//   EMULATOR_TLS=1           serve over TLS (as `herald emulator` does by default) with a certificate
//                            for 127.0.0.1 from a throwaway CA, instead of h2c

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
        if let text = getenv("EMULATOR_LOG_FLUSH_MS"), let milliseconds = Int(String(cString: text)) {
            configuration.deliveryLogWriteBehind.flushInterval = .milliseconds(milliseconds)
        }
        let loopCount = getenv("EMULATOR_LOOPS").flatMap { Int(String(cString: $0)) }
        let loops = try EventLoopGroup(loopCount: loopCount ?? EventLoopGroup.defaultLoopCount, name: "emulator-bench")
        var tls: TLSContext? = nil
        if getenv("EMULATOR_TLS").map({ String(cString: $0) }) == "1" {
            let authority = try CertificateAuthority.generate(commonName: "emulator-bench CA")
            let (certificate, certificateKey) = try authority.issue(
                commonName: "localhost", subjectAlternativeNames: ["localhost", "127.0.0.1"])
            tls = try TLSContext(
                .server(certificateChain: [certificate, authority.certificate], privateKey: certificateKey))
        }
        let emulator: Emulator
        if let directory = getenv("EMULATOR_DATA_DIR").map({ String(cString: $0) }) {
            let store = try SQLiteEmulatorStore(path: directory + "/" + SQLiteEmulatorStore.fileName)
            emulator = try await Emulator.start(configuration, store: store, port: port, tls: tls, loops: loops)
        } else {
            emulator = try await Emulator.start(configuration, port: port, tls: tls, loops: loops)
        }
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
