import APNs
import DeviceModel
import Testing

/// DEVICE-SEMANTICS.md 3.5: attachments, each test named after its rule.
@Suite(.timeLimit(.minutes(1)))
struct AttachmentTests {
    static let megabyte = 1024 * 1024

    static let accepted: [(String, Int, NotificationAttachment.Kind)] = [
        ("file:///tmp/photo.JPG", 10 * megabyte, .image), ("file:///tmp/a.png", 1, .image),
        ("file:///tmp/a.gif", 2 * megabyte, .image), ("file:///tmp/ring.wav", 5 * megabyte, .audio),
        ("file:///tmp/v.mp3", 1000, .audio), ("file:///tmp/clip.mp4", 50 * megabyte, .movie),
        ("file:///tmp/clip.avi", 3 * megabyte, .movie),
    ]

    @Test("ATTACHMENT-TYPES (3.5, D): audio up to 5 MB, images up to 10 MB, movies up to 50 MB", arguments: accepted)
    func acceptedTypes(_ url: String, _ size: Int, _ kind: NotificationAttachment.Kind) throws {
        let attachment = try NotificationAttachment(identifier: "", url: url, byteCount: size)
        #expect(attachment.kind == kind && attachment.byteCount == size)
    }

    static let refused: [(String, Int, String)] = [
        ("file:///tmp/photo.jpg", 10 * megabyte + 1, "attachmentInvalidFileSize"),
        ("file:///tmp/ring.wav", 5 * megabyte + 1, "attachmentInvalidFileSize"),
        ("file:///tmp/clip.mp4", 50 * megabyte + 1, "attachmentInvalidFileSize"),
        ("file:///tmp/empty.png", 0, "attachmentInvalidFileSize"),
        ("file:///tmp/doc.pdf", 1000, "attachmentUnrecognizedType"),
        ("file:///tmp/noextension", 1000, "attachmentUnrecognizedType"),
        ("https://example.com/photo.jpg", 1000, "attachmentInvalidURL"),
        ("file:///tmp/", 1000, "attachmentInvalidURL"),
    ]

    @Test("ATTACHMENT-TYPES, ATTACHMENT-URL (3.5, D): a bad file fails with its error, by name", arguments: refused)
    func refusedFiles(_ url: String, _ size: Int, _ error: String) {
        #expect {
            _ = try NotificationAttachment(identifier: "a", url: url, byteCount: size)
        } throws: { thrown in
            "\(thrown)".hasPrefix(error + ":")
        }
    }

    @Test("ATTACHMENT-URL (3.5, D): a file that does not decode is attachmentCorrupt")
    func corruptFile() {
        #expect(throws: NotificationAttachmentError.attachmentCorrupt("file:///tmp/a.png")) {
            try NotificationAttachment(identifier: "a", url: "file:///tmp/a.png", byteCount: 10, isCorrupt: true)
        }
    }

    /// Adds an image to whatever it receives.
    final class AttachingExtension: NotificationServiceExtension {
        func didReceive(
            _ request: NotificationRequest, withContentHandler contentHandler: @escaping (NotificationContent) -> Void
        ) {
            var content = request.content
            if let image = try? NotificationAttachment(identifier: "map", url: "file:///tmp/map.png", byteCount: 2048) {
                content.attachments.append(image)
            }
            contentHandler(content)
        }

        func serviceExtensionTimeWillExpire() {}
    }

    @Test("ATTACHMENT-TYPES (3.5, D): an image a service extension attaches is presented with the notification")
    func serviceExtensionAttaches() throws {
        let fixture = DeviceFixture.ready()
        fixture.app.serviceExtension = AttachingExtension()
        try fixture.push(#"{"aps":{"alert":{"title":"Route","body":"Turn left"},"mutable-content":1}}"#)
        let presented = try #require(fixture.lastPresentation)
        #expect(presented.notification.request.content.attachments.map(\.identifier) == ["map"])
        #expect(fixture.device.timeline.entries.last?.message.contains("image map") == true)
    }
}
