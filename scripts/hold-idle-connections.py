#!/usr/bin/env python3
"""Holds N idle HTTP/2 connections to a server (scripts/load-emulator).

Half send the client preface and an empty SETTINGS frame, then nothing; the other half also send
one request (GET /control/v1/stats) and then nothing. Nothing is read: what the server sends waits
in the kernel's buffers. Prints "open N" once every connection is made, then holds them until it
is killed.

  hold-idle-connections.py HOST PORT N [--tls]
"""
import signal
import socket
import ssl
import sys

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
SETTINGS = bytes([0, 0, 0, 0x4, 0, 0, 0, 0, 0])


def headers_frame(authority: str) -> bytes:
    # HPACK: :method GET (static 2), :scheme https (7), then :path and :authority as literals
    # without indexing, their names from the static table (4 and 1), no Huffman coding.
    path = b"/control/v1/stats"
    block = bytes([0x82, 0x87, 0x04, len(path)]) + path
    block += bytes([0x01, len(authority)]) + authority.encode()
    # END_STREAM | END_HEADERS, stream 1.
    return len(block).to_bytes(3, "big") + bytes([0x1, 0x5]) + (1).to_bytes(4, "big") + block


def main() -> None:
    host, port, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    use_tls = "--tls" in sys.argv[4:]
    context = None
    if use_tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        context.set_alpn_protocols(["h2"])
    held = []
    request = headers_frame(f"{host}:{port}")
    for index in range(count):
        raw = socket.create_connection((host, port), timeout=30)
        connection = context.wrap_socket(raw, server_hostname=host) if context else raw
        connection.sendall(PREFACE + SETTINGS + (request if index % 2 else b""))
        held.append(connection)
    print(f"open {len(held)}", flush=True)
    while True:
        signal.pause()  # until killed


if __name__ == "__main__":
    main()
