// `herald send` for callgrind: the same command, run from a synchronous main.
//
// Why not `herald send --requests` itself: valgrind 3.19 dies (SIGSEGV inside valgrind) at the
// start of `herald`, whose async main leaves the main thread in libdispatch's signal handling
// (see Benchmarks/emulator-bench/main.swift). Here the main thread only waits on a semaphore
// while a detached task runs `runHerald` with `send` and these arguments: the same option
// parsing and defaults, the same `DecodedRequestStream` decoding thread and `APNsClient.sendEach`.
//
//   bulk-bench ARGUMENTS...    as `herald send ARGUMENTS...`; exits with its status

import Dispatch
import HeraldCLI
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

let arguments = ["send"] + CommandLine.arguments.dropFirst()
let done = DispatchSemaphore(value: 0)
let status = Atomic<Int32>(0)
Task.detached {  // not on the main actor: the main thread only waits
    status.store(await runHerald(arguments), ordering: .relaxed)
    done.signal()
}
done.wait()
exit(status.load(ordering: .relaxed))
