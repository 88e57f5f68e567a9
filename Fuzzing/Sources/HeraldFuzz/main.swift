// `HeraldFuzz TARGET [libFuzzer options] [corpus directories]`: runs one fuzz target under libFuzzer.
// The target's name is taken off the arguments before libFuzzer reads them.
import FuzzDriver

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
// `HeraldFuzz write-seeds TARGET DIR`: the seeds only Swift can make (scripts/fuzz runs it).
if arguments.count == 4, arguments[1] == "write-seeds", let seeds = FuzzTargets.seeds[arguments[2]] {
    for (name, bytes) in seeds() {
        let path = arguments[3] + "/" + name
        guard let file = fopen(path, "wb"), fwrite(bytes, 1, bytes.count, file) == bytes.count, fclose(file) == 0 else {
            FileHandleOutput.standardError("cannot write \(path)\n")
            exit(1)
        }
    }
    exit(0)
}
// `HeraldFuzz json-encode FILE...`: for each file, `ok HEX` (the parsed value's compact encoding)
// or `error MESSAGE`, one line each: scripts/fuzz-json-python compares that with Python's json.
if arguments.count > 1, arguments[1] == "json-encode" {
    for path in arguments.dropFirst(2) {
        print(JSONTarget.encodeFile(path))
    }
    exit(0)
}
guard arguments.count > 1, let target = FuzzTargets.all[arguments[1]] else {
    let names = FuzzTargets.all.keys.sorted().joined(separator: " ")
    FileHandleOutput.standardError("usage: HeraldFuzz TARGET [libFuzzer options] [corpus...]\ntargets: \(names)\n")
    exit(2)
}
FuzzTargets.selected = target

// argv without the target's name: the program's name, then libFuzzer's arguments.
var argc = CommandLine.argc - 1
var shifted: [UnsafeMutablePointer<CChar>?] = [CommandLine.unsafeArgv[0]]
for index in 2..<Int(CommandLine.argc) { shifted.append(CommandLine.unsafeArgv[index]) }
shifted.append(nil)
let status = shifted.withUnsafeMutableBufferPointer { buffer in
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTargets.run(UnsafeBufferPointer(start: data, count: size))
        return 0
    }
}
exit(status)
