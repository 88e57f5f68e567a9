// The emulator's web console on a listener of its own, so that the APNs listener's rules stay as
// APNs has them: there a connection gets one stream until it presents a provider token, and no
// HTTP/1.1 at all. A browser speaks HTTP/1.1 (or h2 over TLS only), and a page loads its files in
// parallel, so the console listens apart, plain HTTP/1.1 and h2c:
//
//   GET /console, /console/assets/{name}, /favicon.ico -> the console's files (ConsoleSite.emulator)
//   GET /                                               -> 302 to /console
//   /control/v1/...                                     -> the control API, the control token checked
//                                                          as on the APNs listener (EmulatorHandler)
//   anything else                                       -> 404 {"reason":"BadPath"}
import APNs
import Console
import HTTP2

/// The emulator's console listener: its page, and its control API on the emulator's state.
///
/// Lifecycle: ``start(for:host:port:loops:)`` after the emulator; ``shutdown()`` before it.
/// Thread-safety: `Sendable`.
public final class EmulatorConsole: Sendable {
    let server: HTTP2Server

    private init(server: HTTP2Server) {
        self.server = server
    }

    /// The port it listens on (the real one when 0 was asked for).
    public var port: Int { Int(server.port) }

    /// Listens on `host:port` (0: any free port) for the console of `emulator`, HTTP/1.1 and h2c.
    public static func start(
        for emulator: Emulator, host: String = "127.0.0.1", port: UInt16 = 0, loops: EventLoopGroup
    )
        async throws(HTTP2ConnectionError) -> EmulatorConsole
    {
        var configuration = HTTP2Server.Configuration(loops: loops, host: host, port: port, tls: nil)
        configuration.acceptsHTTP1 = true
        let server = try await HTTP2Server.start(
            configuration: configuration, handler: EmulatorConsoleHandler(control: emulator.handler))
        return EmulatorConsole(server: server)
    }

    /// Stops listening and closes every console connection; the emulator serves on.
    public func shutdown() async {
        await server.shutdown()
    }
}

/// Answers the console listener's requests (see the top of the file).
final class EmulatorConsoleHandler: HTTP2RequestHandler {
    let control: EmulatorHandler

    init(control: EmulatorHandler) {
        self.control = control
    }

    func handle(_ request: HTTP2Request, responder: HTTP2Responder) {
        let path = request.path ?? ""
        if path.hasPrefix("/control/v1/") {
            control.handleControl(request, responder: responder)
            return
        }
        if request.method == "GET" || request.method == "HEAD" {
            if ConsoleSite.emulator.respond(to: request, responder: responder) { return }
            if path == "/" {
                _ = responder.respond(status: 302, headers: [HTTP2Header("location", "/console")])
                return
            }
        }
        let body = JSONObject([.init(key: "reason", value: .string(Reason.badPath.rawValue))])
        _ = responder.respond(
            status: 404, headers: [HTTP2Header("content-type", "application/json")],
            body: JSONValue.object(body).encoded())
    }
}
