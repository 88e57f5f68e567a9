import Testing

@testable import Postgres

/// libpq is opened at the first connection (LibPQ.swift); a machine without it gets an error that names
/// what to install, not a crash.
@Suite(.timeLimit(.minutes(1)))
struct LibPQLoadingTests {
    @Test func aMissingLibraryIsAnErrorNamingThePackage() {
        #expect {
            _ = try LibPQ(fileName: "libpq-absent.so.5")
        } throws: { error in
            guard let error = error as? PostgresError else { return false }
            return error.operation == "load libpq" && error.message.contains("libpq-absent.so.5")
                && error.message.contains("Debian's libpq5 package")
        }
    }

    @Test func theInstalledLibraryHasEveryFunction() throws {
        let pq = try LibPQ()
        // PQconnectdb with an unparsable string fails without a server: a real call through the pointer.
        let connection = try #require(pq.connectdb("not a connection string"))
        defer { pq.finish(connection) }
        let message = pq.errorMessage(connection).map { String(cString: $0) } ?? ""
        #expect(message.contains("connection info string"), "libpq said: \(message)")
    }
}
