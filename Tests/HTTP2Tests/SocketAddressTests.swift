import Glibc
import Testing

@testable import HTTP2

@Suite(.timeLimit(.minutes(1)))
struct SocketAddressTests {
    @Test(arguments: [
        ("127.0.0.1", UInt16(443), "127.0.0.1:443", false),
        ("0.0.0.0", 0, "0.0.0.0:0", false),
        ("255.255.255.255", 65535, "255.255.255.255:65535", false),
        ("::1", 443, "[::1]:443", true),
        ("[::1]", 8443, "[::1]:8443", true),
        ("::", 80, "[::]:80", true),
        ("2001:db8::17", 2197, "[2001:db8::17]:2197", true),
        ("::ffff:10.0.0.1", 1, "[::ffff:10.0.0.1]:1", true),
    ])
    func parsesAndPrintsNumericAddresses(text: String, port: UInt16, description: String, isIPv6: Bool) throws {
        let address = try #require(SocketAddress(ipAddress: text, port: port))
        #expect(address.description == description)
        #expect(address.port == port)
        #expect(address.isIPv6 == isIPv6)
        #expect(address.family == (isIPv6 ? AF_INET6 : AF_INET))
    }

    @Test(arguments: ["", "localhost", "1.2.3", "1.2.3.4.5", "256.0.0.1", "::g", "[::1", "api.push.apple.com"])
    func rejectsWhatIsNotANumericAddress(text: String) {
        #expect(SocketAddress(ipAddress: text, port: 1) == nil)
    }

    @Test(arguments: ["127.0.0.1", "10.1.2.3", "::1", "fe80::1", "2001:db8::abcd"])
    func roundTripsThroughSockaddrStorage(text: String) throws {
        let address = try #require(SocketAddress(ipAddress: text, port: 12345))
        let storage = address.storage
        #expect(SocketAddress(storage) == address)
        #expect(Int32(storage.ss_family) == address.family)
        address.withSockAddr { pointer, length in
            #expect(Int32(pointer.pointee.sa_family) == address.family)
            #expect(Int(length) == (address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size))
        }
    }

    @Test func keepsPortsInHostByteOrderAndTheScopeOfLinkLocalAddresses() throws {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = UInt16(443).bigEndian
            _ = inet_pton(AF_INET6, "fe80::1", &v6.sin6_addr)
            v6.sin6_scope_id = 2
            raw.storeBytes(of: v6, as: sockaddr_in6.self)
        }
        let address = try #require(SocketAddress(storage))
        #expect(address.port == 443)
        #expect(address.description == "[fe80::1%2]:443")
        #expect(SocketAddress(address.storage) == address)
    }

    @Test func refusesOtherFamilies() {
        var storage = sockaddr_storage()
        storage.ss_family = sa_family_t(AF_UNIX)
        #expect(SocketAddress(storage) == nil)
    }

    @Test func equalityAndHashingFollowAddressAndPort() throws {
        let a = try #require(SocketAddress(ipAddress: "127.0.0.1", port: 1))
        let b = try #require(SocketAddress(ipAddress: "127.0.0.1", port: 1))
        let c = a.withPort(2)
        #expect(a == b)
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
        #expect(c.port == 2)
        #expect(c.host == "127.0.0.1")
    }
}
