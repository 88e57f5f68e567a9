import Foundation
import Testing

/// Every `herald` command maps what the binary links at start, and resident memory counts those pages
/// (`herald send --requests` at 1,000,000 lines and `herald emulator` were 12 MB bigger for it). libpq (with
/// Kerberos, LDAP and GnuTLS behind it) is opened by the first PostgreSQL connection only, and the device
/// model uses Foundation's essentials and time zones, not libFoundation.
@Suite(.timeLimit(.minutes(1)))
struct LinkedLibrariesTests {
    @Test func anEmulatorMapsNeitherLibpqNorFoundation() throws {
        let emulator = try EmulatorProcess([])
        defer { _ = emulator.stop() }
        // Read to the end: /proc files say they are empty, and a read by size stops at the first page.
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/\(emulator.process.pid)/maps"))
        defer { try? maps.close() }
        let lines = String(decoding: maps.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        let files = Set(
            lines.filter { $0.contains(" /") }.compactMap { $0.split(separator: "/").last.map(String.init) })
        #expect(!files.contains { $0.hasPrefix("libpq.so") }, "libpq is mapped: \(files.sorted())")
        #expect(!files.contains("libFoundation.so"), "libFoundation is mapped: \(files.sorted())")
        #expect(files.contains("libssl.so.3"), "the maps were read: \(files.sorted())")
    }
}
