// Connecting: resolve (off the loop), TCP connect trying each address, the proxy's CONNECT, TLS,
// then the HTTP/2 session. One connect timer covers it all.

extension HTTP2ClientConnection {
    func start() {
        connectTimer = loop.schedule(after: configuration.connectTimeout.clampedNanoseconds) { [self] in
            guard !self.isReady, !self.isClosed else { return }
            self.fail(.timedOut(self.stageDescription))
        }
        let host = configuration.proxy?.host ?? configuration.host
        let port = configuration.proxy?.port ?? configuration.port
        if let address = SocketAddress(ipAddress: host, port: UInt16(clamping: port)) {
            connect([address], index: 0)
            return
        }
        let loop = self.loop
        nonisolated(unsafe) let connection = self  // SAFETY: only touched again on `loop`, below
        Resolver.resolve(host: host, port: UInt16(clamping: port)) { result in
            let outcome: Result<[SocketAddress], HTTP2ConnectionError> = result.mapError { error in
                if let error = error as? ResolverError { return .resolve(error) }
                return .resolve(ResolverError(host: host, code: -1, message: "\(error)"))
            }
            loop.execute {
                switch outcome {
                case .success(let addresses): connection.connect(addresses, index: 0)
                case .failure(let error): connection.fail(error)
                }
            }
        }
    }

    /// What a connection not ready yet is waiting for ("the TLS handshake", ...), for messages.
    public var stageDescription: String {
        switch phase {
        case .resolving: "name resolution"
        case .connecting: "TCP connect to \(configuration.host):\(configuration.port)"
        case .proxying: "the proxy's CONNECT answer"
        case .handshaking: "the TLS handshake"
        case .awaitingSettings: "the server's HTTP/2 SETTINGS"
        default: "the connection"
        }
    }

    func connect(_ addresses: [SocketAddress], index: Int) {
        guard !isClosed else { return }
        guard index < addresses.count else {
            fail(.resolve(ResolverError(host: configuration.host, code: -1, message: "no address to connect to")))
            return
        }
        phase = .connecting(addresses: addresses, index: index)
        do {
            let (socket, connected) = try TCPSocket.connect(to: addresses[index])
            io = ConnectionIO(socket: socket)
            try loop.register(socket.fd, interest: connected ? .read : [.read, .write], handler: self)
            registered = true
            writeInterest = !connected
            if connected { didConnect() }
        } catch {
            connectFailed(addresses, index, error)
        }
    }

    /// Connecting to `addresses[index]` failed: the next address, or the end.
    private func connectFailed(_ addresses: [SocketAddress], _ index: Int, _ error: SystemError) {
        closeSocket()
        if index + 1 < addresses.count {
            connect(addresses, index: index + 1)
        } else {
            fail(.system(error))
        }
    }

    /// A non-blocking connect finished (the socket became writable).
    func finishConnecting(_ addresses: [SocketAddress], _ index: Int) {
        do {
            try io?.socket.finishConnect()
        } catch {
            connectFailed(addresses, index, error)
            return
        }
        didConnect()
    }

    func didConnect() {
        try? io?.socket.setNoDelay()
        lastActivity = EventLoop.now()
        if let proxy = configuration.proxy {
            phase = .proxying(ProxyHandshake())
            io?.queueRaw(ProxyHandshake.request(host: configuration.host, port: configuration.port, proxy: proxy))
            flush()
            return
        }
        startSession()
    }

    /// Starts TLS (if any) and the HTTP/2 session; the session's preface waits in TLS until the
    /// handshake is done.
    func startSession() {
        do {
            let session = try HTTP2ClientSession(configuration: configuration.session)
            session.owner = self
            self.session = session
            if let context = configuration.tls {
                let tls = try TLSSession(context: context, serverName: configuration.serverName ?? configuration.host)
                io?.startTLS(tls)
                try tls.startHandshake()
                phase = .handshaking
            } else {
                phase = .awaitingSettings
            }
        } catch let error as TLSError {
            fail(.tls(error))
            return
        } catch let error as HTTP2Error {
            fail(.http2(error))
            return
        } catch {
            fail(.closedLocally)
            return
        }
        flush()
    }

    /// After reading: a finished TLS handshake moves on to waiting for SETTINGS.
    func checkHandshake() throws(HTTP2ConnectionError) {
        guard case .handshaking = phase, let tls = io?.tls, tls.isHandshakeComplete else { return }
        guard tls.negotiatedALPN == "h2" else {
            throw .tls(.alpnMismatch(got: tls.negotiatedALPN, offered: ["h2"]))
        }
        phase = .awaitingSettings
    }

    /// Bytes from the proxy before the tunnel is up.
    func receiveFromProxy(_ bytes: UnsafeRawBufferPointer) throws(HTTP2ConnectionError) {
        guard case .proxying(var handshake) = phase else { return }
        let rest: [UInt8]?
        do {
            rest = try handshake.receive(bytes)
        } catch {
            throw .proxy(error)
        }
        phase = .proxying(handshake)
        guard let rest else { return }
        startSession()
        // The server may speak first (an h2c server's SETTINGS), in the same read as the proxy's answer.
        if !rest.isEmpty, let io {
            _ = try rest.withUnsafeBytes { buffer in
                Result { () throws(HTTP2ConnectionError) -> Bool in
                    try io.process(buffer) { bytes throws(HTTP2ConnectionError) in try self.deliver(bytes) }
                }
            }.get()
        }
    }
}
