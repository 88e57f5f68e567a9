// glibc functions ChildProcess needs that Swift's Glibc module does not import: <spawn.h> and
// <unistd.h> declare them only under _GNU_SOURCE / __USE_MISC, which the module map does not define.
// Looked up once with dlsym, as Sources/HTTP2/System/LinuxSymbols.swift does for the same reason.
import Glibc

enum SpawnSymbols {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
    typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    static let pipe2 = lookup("pipe2", as: Pipe2.self)
    /// glibc 2.29+.
    static let addChdir = lookup("posix_spawn_file_actions_addchdir_np", as: AddChdir.self)
    /// glibc 2.34+.
    static let addClosefrom = lookup("posix_spawn_file_actions_addclosefrom_np", as: AddClosefrom.self)

    private static func lookup<Function>(_ name: String, as type: Function.Type) -> Function? {
        // RTLD_DEFAULT is ((void *) 0) in glibc.
        guard let symbol = dlsym(nil, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}
