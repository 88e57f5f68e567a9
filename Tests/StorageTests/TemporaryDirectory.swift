import Glibc

/// A fresh directory under /tmp for one test, removed with its files by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/herald-storage-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TemporaryDirectoryError(errno: errno) }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != ".", name != ".." { unlink(file(name)) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

struct TemporaryDirectoryError: Error {
    let errno: Int32
}
