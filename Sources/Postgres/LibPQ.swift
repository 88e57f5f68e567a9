// libpq, opened when the first connection is made instead of linked into the program.
//
// Every process that links a shared library maps it at start, and libpq brings Kerberos, LDAP,
// GnuTLS and p11-kit with it, whose initializers run at load: about 3.5 MB of resident memory in
// every `herald` command (`herald send --requests` and `herald emulator` included), used only by
// a gateway on PostgreSQL. So CPostgres gives the declarations only (its module map links
// nothing), and this file looks up the functions Herald calls in Debian's libpq5 (`libpq.so.5`)
// on first use. A machine without libpq runs every command but that one, which says what is
// missing.
import CPostgres
import Glibc

/// The libpq functions Herald calls, each named after its `PQ` function without the prefix.
///
/// Lifecycle: looked up once per process (`shared`), the library never closed.
/// Thread-safety: immutable function pointers; libpq's own rules apply to the connections.
struct LibPQ: Sendable {
    /// The library file: Debian's libpq5 package (libpq-dev has the unversioned link).
    static let fileName = "libpq.so.5"

    /// The functions, or why they could not be had; looked up at the first access.
    static let shared = Result { () throws(PostgresError) in try LibPQ() }

    let connectdb: @convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?
    let status: @convention(c) (OpaquePointer?) -> ConnStatusType
    let errorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (OpaquePointer?) -> Void
    let setNoticeProcessor:
        @convention(c) (OpaquePointer?, PQnoticeProcessor?, UnsafeMutableRawPointer?) -> PQnoticeProcessor?
    let serverVersion: @convention(c) (OpaquePointer?) -> Int32
    let transactionStatus: @convention(c) (OpaquePointer?) -> PGTransactionStatusType
    let exec: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    let prepare:
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?) ->
            OpaquePointer?
    let execPrepared:
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
            UnsafePointer<Int32>?, Int32
        ) -> OpaquePointer?
    let clear: @convention(c) (OpaquePointer?) -> Void
    let resultStatus: @convention(c) (OpaquePointer?) -> ExecStatusType
    let resultErrorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let resultErrorField: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    let cmdTuples: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    let ntuples: @convention(c) (OpaquePointer?) -> Int32
    let nfields: @convention(c) (OpaquePointer?) -> Int32
    let fname: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    let ftype: @convention(c) (OpaquePointer?, Int32) -> Oid
    let getisnull: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    let getvalue: @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let getlength: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32

    /// Opens `fileName` and looks up every function; throws (operation `load libpq`) naming the file
    /// and the package to install, or the missing function.
    init(fileName: String = LibPQ.fileName) throws(PostgresError) {
        guard let library = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            throw PostgresError(
                operation: "load libpq",
                message: "\(reason); PostgreSQL needs libpq (Debian's libpq5 package provides \(LibPQ.fileName))")
        }
        func function<F>(_ name: String) throws(PostgresError) -> F {
            guard let address = dlsym(library, name) else {
                throw PostgresError(operation: "load libpq", message: "\(fileName) has no function \(name)")
            }
            return unsafeBitCast(address, to: F.self)
        }
        connectdb = try function("PQconnectdb")
        status = try function("PQstatus")
        errorMessage = try function("PQerrorMessage")
        finish = try function("PQfinish")
        setNoticeProcessor = try function("PQsetNoticeProcessor")
        serverVersion = try function("PQserverVersion")
        transactionStatus = try function("PQtransactionStatus")
        exec = try function("PQexec")
        prepare = try function("PQprepare")
        execPrepared = try function("PQexecPrepared")
        clear = try function("PQclear")
        resultStatus = try function("PQresultStatus")
        resultErrorMessage = try function("PQresultErrorMessage")
        resultErrorField = try function("PQresultErrorField")
        cmdTuples = try function("PQcmdTuples")
        ntuples = try function("PQntuples")
        nfields = try function("PQnfields")
        fname = try function("PQfname")
        ftype = try function("PQftype")
        getisnull = try function("PQgetisnull")
        getvalue = try function("PQgetvalue")
        getlength = try function("PQgetlength")
    }
}
