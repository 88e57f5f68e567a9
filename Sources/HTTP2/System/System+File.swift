import Glibc

extension System {
    /// Opens `path` for reading, close-on-exec (blocking: a file, or a pipe read by a thread of its own).
    public static func openForReading(_ path: String) throws(SystemError) -> Int32 {
        try callBlocking("open") { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
    }

    /// The size of the regular file `fd` refers to; nil for a pipe, a terminal or a socket.
    public static func regularFileSize(_ fd: Int32) -> Int? {
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
