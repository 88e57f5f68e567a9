/// Counts the HTTP/2 frames in one direction of a byte stream fed to it in arbitrary pieces, so
/// tests can check what went over the wire (WINDOW_UPDATE, RST_STREAM codes, GOAWAY).
struct FrameTally {
    enum FrameType: UInt8 {
        case data = 0x0
        case headers = 0x1
        case priority = 0x2
        case rstStream = 0x3
        case settings = 0x4
        case pushPromise = 0x5
        case ping = 0x6
        case goAway = 0x7
        case windowUpdate = 0x8
        case continuation = 0x9
    }

    private var pending: [UInt8] = []
    private var prefaceLeft: Int
    /// The client's side of the connection.
    let clientSide: Bool
    private(set) var counts: [UInt8: Int] = [:]
    /// (stream id, error code) of each RST_STREAM.
    private(set) var resets: [(streamID: Int32, code: UInt32)] = []
    /// Payload size of each HEADERS frame, in order.
    private(set) var headerBlockSizes: [Int] = []
    /// The header block fragment of each HEADERS frame (past padding and priority), in order.
    private(set) var headerBlocks: [[UInt8]] = []

    /// `clientSide`: the stream starts with the 24-byte connection preface.
    init(clientSide: Bool) {
        prefaceLeft = clientSide ? 24 : 0
        self.clientSide = clientSide
    }

    func count(_ type: FrameType) -> Int { counts[type.rawValue, default: 0] }

    mutating func feed(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
        if prefaceLeft > 0 {
            let skipped = min(prefaceLeft, pending.count)
            pending.removeFirst(skipped)
            prefaceLeft -= skipped
        }
        var offset = 0
        while pending.count - offset >= 9 {
            let length = Int(pending[offset]) << 16 | Int(pending[offset + 1]) << 8 | Int(pending[offset + 2])
            guard pending.count - offset >= 9 + length else { break }
            let type = pending[offset + 3]
            let streamID = Int32(bitPattern: readUInt32(at: offset + 5) & 0x7fff_ffff)
            counts[type, default: 0] += 1
            if type == FrameType.rstStream.rawValue, length == 4 {
                resets.append((streamID, readUInt32(at: offset + 9)))
            }
            if type == FrameType.headers.rawValue {
                headerBlockSizes.append(length)
                let flags = pending[offset + 4]
                let padded = flags & 0x8 != 0
                let start = offset + 9 + (padded ? 1 : 0) + (flags & 0x20 != 0 ? 5 : 0)
                let end = offset + 9 + length - (padded ? Int(pending[offset + 9]) : 0)
                headerBlocks.append(Array(pending[start..<max(start, end)]))
            }
            offset += 9 + length
        }
        pending.removeFirst(offset)
    }

    private func readUInt32(at offset: Int) -> UInt32 {
        pending[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
