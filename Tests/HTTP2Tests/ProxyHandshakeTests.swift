import HTTP2
import Testing

@Suite(.timeLimit(.minutes(1)))
struct ProxyHandshakeTests {
    @Test func requestNamesTheTarget() {
        let request = ProxyHandshake.request(host: "api.push.apple.com", port: 443, proxy: ProxyConfiguration(host: "proxy", port: 3128))
        #expect(String(decoding: request, as: UTF8.self) == "CONNECT api.push.apple.com:443 HTTP/1.1\r\nHost: api.push.apple.com:443\r\n\r\n")
    }

    @Test func basicAuthAndIPv6() throws {
        let proxy = try ProxyConfiguration(url: "http://user:pa55@[::1]:8080/")
        #expect(proxy.host == "::1" && proxy.port == 8080 && proxy.credentials == "user:pa55")
        #expect(!proxy.description.contains("pa55"))
        let text = String(decoding: ProxyHandshake.request(host: "::1", port: 2197, proxy: proxy), as: UTF8.self)
        #expect(text.hasPrefix("CONNECT [::1]:2197 HTTP/1.1\r\n"))
        #expect(text.contains("Proxy-Authorization: Basic dXNlcjpwYTU1\r\n"))
    }

    @Test func parsesSuccessInPiecesAndKeepsTunnelBytes() throws {
        var handshake = ProxyHandshake()
        #expect(try handshake.receive(Array("HTTP/1.1 200 Connection est".utf8)) == nil)
        let rest = try handshake.receive(Array("ablished\r\nVia: x\r\n\r\n\u{16}\u{03}".utf8))
        #expect(rest == [0x16, 0x03])
    }

    @Test func refusalAndGarbage() {
        var refused = ProxyHandshake()
        #expect(throws: ProxyError.refused(status: 407, reason: "Proxy Authentication Required")) {
            try refused.receive(Array("HTTP/1.1 407 Proxy Authentication Required\r\n\r\n".utf8))
        }
        var garbage = ProxyHandshake()
        #expect(throws: ProxyError.self) { try garbage.receive(Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }
        var endless = ProxyHandshake()
        #expect(throws: ProxyError.self) { try endless.receive([UInt8](repeating: 65, count: 20_000)) }
    }

    @Test(arguments: ["socks5://proxy:1080", "http://:80", "http://proxy:0", "http://proxy:http"])
    func rejectsBadURLs(_ url: String) {
        #expect(throws: ProxyError.self) { try ProxyConfiguration(url: url) }
    }

    @Test func errorsNeverShowCredentials() {
        do {
            _ = try ProxyConfiguration(url: "socks5://user:secret@proxy:1080")
        } catch {
            #expect(!error.description.contains("secret"))
        }
    }
}
