/// `UNNotificationAttachment`: a file shown with a notification. The model has no files: an attachment is
/// described by its URL and size, and made as Apple's is, by an initializer that refuses a bad file
/// (DEVICE-SEMANTICS.md 3.5): a local request with a bad file is never made, and a service extension that
/// tries to attach one gets the error and must go on without it.
public struct NotificationAttachment: Sendable, Hashable {
    public let identifier: String
    /// A `file://` URL.
    public let url: String
    public let kind: Kind
    /// The file's size in bytes.
    public let byteCount: Int

    /// The sorts of file the system accepts, each with its size limit.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case audio
        case image
        case movie

        /// The largest file of this sort the system accepts, in bytes.
        public var maximumByteCount: Int {
            switch self {
            case .audio: 5 * 1024 * 1024
            case .image: 10 * 1024 * 1024
            case .movie: 50 * 1024 * 1024
            }
        }

        /// The kind of a file by its extension (the UTIs Apple lists: AIFF, WAV, MP3, MPEG-4 audio; JPEG, GIF,
        /// PNG; MPEG, MPEG-2, MPEG-4, AVI).
        public init?(fileExtension: String) {
            switch fileExtension.lowercased() {
            case "aif", "aiff", "aifc", "wav", "mp3", "m4a": self = .audio
            case "jpg", "jpeg", "gif", "png": self = .image
            case "mpg", "mpeg", "mp2", "m2v", "mp4", "m4v", "avi": self = .movie
            default: return nil
            }
        }
    }

    /// `UNNotificationAttachment(identifier:url:options:)`: throws `attachmentInvalidURL` for a URL that is not
    /// a file URL, `attachmentUnrecognizedType` for a type outside Apple's list, `attachmentInvalidFileSize`
    /// for an empty file or one over its type's limit, and `attachmentCorrupt` for a file that does not decode.
    public init(identifier: String, url: String, byteCount: Int, isCorrupt: Bool = false)
        throws(NotificationAttachmentError)
    {
        guard url.hasPrefix("file://"), url.count > "file://".count, !url.hasSuffix("/") else {
            throw .attachmentInvalidURL(url)
        }
        let name = url.split(separator: "/").last.map(String.init) ?? ""
        let fileExtension = name.contains(".") ? String(name.split(separator: ".").last ?? "") : ""
        guard let kind = Kind(fileExtension: fileExtension) else { throw .attachmentUnrecognizedType(url) }
        guard byteCount > 0, byteCount <= kind.maximumByteCount else {
            throw .attachmentInvalidFileSize(url, byteCount: byteCount, limit: kind.maximumByteCount)
        }
        guard !isCorrupt else { throw .attachmentCorrupt(url) }
        self.identifier = identifier.isEmpty ? name : identifier
        self.url = url
        self.kind = kind
        self.byteCount = byteCount
    }
}

/// `UNError`'s attachment codes, by Apple's names.
public enum NotificationAttachmentError: Error, Sendable, Hashable, CustomStringConvertible {
    case attachmentInvalidURL(String)
    case attachmentUnrecognizedType(String)
    case attachmentInvalidFileSize(String, byteCount: Int, limit: Int)
    case attachmentCorrupt(String)

    public var description: String {
        switch self {
        case .attachmentInvalidURL(let url): "attachmentInvalidURL: \(url) is not a file URL"
        case .attachmentUnrecognizedType(let url):
            "attachmentUnrecognizedType: \(url) is not audio (AIFF, WAV, MP3, MPEG-4), an image (JPEG, GIF, PNG) "
                + "or a movie (MPEG, MPEG-2, MPEG-4, AVI)"
        case .attachmentInvalidFileSize(let url, let byteCount, let limit):
            "attachmentInvalidFileSize: \(url) has \(byteCount) bytes; its type allows 1 to \(limit)"
        case .attachmentCorrupt(let url): "attachmentCorrupt: \(url) does not decode"
        }
    }
}
