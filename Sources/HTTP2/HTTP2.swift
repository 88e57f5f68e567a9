// HTTP2: Herald's transport. Event loops (one thread each, epoll, eventfd wake-ups), non-blocking
// TCP, TLS over OpenSSL memory BIOs, and HTTP/2 sessions over nghttp2, client and server side.
// See docs/ARCHITECTURE.md and docs/TRANSPORT.md.
