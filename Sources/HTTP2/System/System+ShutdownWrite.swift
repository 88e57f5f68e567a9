import Glibc

extension System {
    /// Ends the sending side of a connected socket (`shutdown(SHUT_WR)`): the peer reads end of
    /// stream after the bytes already sent, and this side can still read.
    static func shutdownWrite(_ fd: Int32) throws(SystemError) {
        _ = try callBlocking("shutdown") { Glibc.shutdown(fd, Int32(SHUT_WR)) }
    }
}
