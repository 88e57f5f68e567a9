import Glibc

extension System {
    /// Opens `path` for reading, close-on-exec (blocking: a file, or a pipe read by a thread of its own).
    public static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        try callBlocking("open") { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// Opens `path` for writing, close-on-exec: created with mode 0644, or emptied if it exists.
    public static func openForWriting(_ path: String) throws(SystemError) -> Int32 {
        try callBlocking("open") { Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
    }

    /// Writes all of `bytes` to a blocking descriptor (a file, a pipe, a terminal), in as many
    /// `write` calls as it takes. A non-blocking descriptor that would block throws (`EAGAIN`).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            offset += try callBlocking("write") { Glibc.write(fd, rest.baseAddress, rest.count) }
        }
    }

    /// Creates the directory `path` (mode 0755, less the umask); one that exists already is fine.
    public static func makeDirectory(_ path: String) throws(SystemError) {
        if Glibc.mkdir(path, 0o755) == 0 { return }
        let code = Glibc.errno
        if code == EEXIST { return }
        throw failure("mkdir", code)
    }

    /// Sets the permission bits of `path` (`chmod`), e.g. 0o600 for a private key only its owner reads.
    public static func changeMode(_ path: String, to mode: mode_t) throws(SystemError) {
        _ = try callBlocking("chmod") { Glibc.chmod(path, mode) }
    }

    /// Whether this process may read `path` (`access(R_OK)`).
    public static func isReadable(_ path: String) -> Bool {
        Glibc.access(path, R_OK) == 0
    }

    /// Whether `fd` is a terminal (`isatty`).
    public static func isTerminal(_ fd: Int32) -> Bool {
        Glibc.isatty(fd) == 1
    }

    /// The size of the regular file `fd` refers to; nil for a pipe, a terminal or a socket.
    public static func regularFileSize(_ fd: Int32) -> Int? {
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
