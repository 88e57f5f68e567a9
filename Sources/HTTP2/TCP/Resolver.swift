// Name resolution without blocking an event loop: getaddrinfo runs on a fresh thread per call.
//
// getaddrinfo blocks (DNS, /etc/hosts, NSS modules) and cannot be cancelled, so it must never run on
// a loop thread, nor on the cooperative pool where it would starve other tasks. A thread per lookup
// costs tens of microseconds, nothing next to a TLS handshake; it is detached and ends with the call.
// Numeric addresses skip it entirely.
import Glibc

/// Resolves host names to socket addresses.
///
/// Thread-safety: stateless; may be called from any thread or task.
public enum Resolver {
    /// The TCP addresses of `host` (a name or a numeric address) with `port`, in `getaddrinfo`'s order
    /// (RFC 6724 preference), without duplicates.
    ///
    /// Numeric hosts ("127.0.0.1", "::1", "[::1]") return at once. Names are looked up on a new
    /// thread. The lookup is not cancellable: a cancelled task still waits for it. Throws
    /// ``ResolverError`` when the name does not resolve, `SystemError` if no thread can be started.
    public static func resolve(host: String, port: UInt16) async throws -> [SocketAddress] {
        if let numeric = SocketAddress(ipAddress: host, port: port) { return [numeric] }
        return try await withCheckedThrowingContinuation { continuation in
            resolve(host: host, port: port) { continuation.resume(with: $0) }
        }
    }

    /// The same lookup with a callback, for code on an event loop: `completion` is called exactly
    /// once, on the lookup's own thread (hop back with `loop.execute`). Needs no task and no
    /// cooperative-pool thread, so a busy pool cannot delay a connect.
    public static func resolve(
        host: String, port: UInt16, completion: @escaping @Sendable (Result<[SocketAddress], any Error>) -> Void
    ) {
        if let numeric = SocketAddress(ipAddress: host, port: port) {
            completion(.success([numeric]))
            return
        }
        let lookup = Lookup(host: host, port: port, completion: completion)
        let retained = Unmanaged.passRetained(lookup)
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, resolverThreadMain, retained.toOpaque())
        if result == 0 {
            pthread_detach(thread)
        } else {
            retained.release()
            completion(.failure(SystemError(function: "pthread_create", errno: result)))
        }
    }

    /// Runs `getaddrinfo` on the calling thread, blocking it.
    static func lookUp(host: String, port: UInt16) -> Result<[SocketAddress], ResolverError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        guard code == 0 else {
            let systemErrno = Glibc.errno
            let message =
                code == EAI_SYSTEM
                ? SystemError(function: "getaddrinfo", errno: systemErrno).message
                : String(cString: gai_strerror(code))
            return .failure(ResolverError(host: host, code: code, message: message))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let current = entry {
            if let raw = current.pointee.ai_addr, current.pointee.ai_addrlen <= MemoryLayout<sockaddr_storage>.size {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { destination in
                    destination.copyMemory(
                        from: UnsafeRawBufferPointer(start: raw, count: Int(current.pointee.ai_addrlen)))
                }
                if let address = SocketAddress(storage)?.withPort(port), !addresses.contains(address) {
                    addresses.append(address)
                }
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(ResolverError(host: host, code: EAI_NONAME, message: "no IPv4 or IPv6 address"))
        }
        return .success(addresses)
    }
}

/// One lookup, handed to its thread.
private final class Lookup: Sendable {
    let host: String
    let port: UInt16
    let completion: @Sendable (Result<[SocketAddress], any Error>) -> Void

    init(host: String, port: UInt16, completion: @escaping @Sendable (Result<[SocketAddress], any Error>) -> Void) {
        self.host = host
        self.port = port
        self.completion = completion
    }
}

private func resolverThreadMain(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let argument else { return nil }
    let lookup = Unmanaged<Lookup>.fromOpaque(argument).takeRetainedValue()
    lookup.completion(Resolver.lookUp(host: lookup.host, port: lookup.port).mapError { $0 })
    return nil
}
