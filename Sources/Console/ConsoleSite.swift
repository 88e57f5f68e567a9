// The console's files under one mount: the gateway serves its page at `/`, the emulator's console
// listener at `/console`. Assets are answered from memory with their content type, an etag and
// `cache-control: no-cache` (the browser keeps them and revalidates: a 304 costs one round trip, and
// a new binary's files are never stale), and a content security policy that allows the page's own
// scripts, styles and API only.
//
//   GET {mount}                  -> the page (gateway.html or emulator.html)
//   GET {mount}/assets/{name}    -> an asset (css, js, svg)
//   GET {mount}/assets/reasons.json -> the reason table, explained (ConsoleReasons)
//   GET /favicon.ico             -> favicon.svg (browsers ask for it; a 404 is logged as an error)
import HTTP2

/// Which page a mount serves and where its assets live.
public struct ConsoleSite: Sendable {
    /// The page's path (`/` or `/console`).
    public let pagePath: String
    /// The asset folder's path prefix, ending in `/`.
    public let assetPrefix: String
    /// The asset that is the page.
    public let pageName: String

    /// The gateway's console: `/`, assets under `/assets/`.
    public static let gateway = ConsoleSite(pagePath: "/", assetPrefix: "/assets/", pageName: "gateway.html")
    /// The emulator's console: `/console`, assets under `/console/assets/`.
    public static let emulator = ConsoleSite(
        pagePath: "/console", assetPrefix: "/console/assets/", pageName: "emulator.html")

    static let securityHeaders = [
        HTTP2Header(
            "content-security-policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
                + "frame-ancestors 'none'"),
        HTTP2Header("x-content-type-options", "nosniff"),
        HTTP2Header("referrer-policy", "no-referrer"),
    ]

    static let reasons = ConsoleAsset(name: "reasons.json", bytes: ConsoleReasons.document)

    /// The asset `path` (without its query) names under this mount, or nil.
    public func asset(at path: String) -> ConsoleAsset? {
        let path =
            path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if path == pagePath || (pagePath != "/" && path == pagePath + "/") { return ConsoleAsset.all[pageName] }
        if path == "/favicon.ico" { return ConsoleAsset.all["favicon.svg"] }
        guard path.hasPrefix(assetPrefix) else { return nil }
        let name = String(path.dropFirst(assetPrefix.count))
        // Pages are served at the mount only, so that each has one address.
        guard !name.hasSuffix(".html") else { return nil }
        return ConsoleAsset.all[name]
    }

    /// Answers a GET for one of this mount's files: 200 with the bytes, or 304 when the request's
    /// `if-none-match` names the current etag. False (nothing answered) for any other path.
    public func respond(to request: HTTP2Request, responder: HTTP2Responder) -> Bool {
        let path = request.path ?? ""
        guard let asset = path == assetPrefix + "reasons.json" ? Self.reasons : asset(at: path) else { return false }
        var headers = [
            HTTP2Header("content-type", asset.contentType), HTTP2Header("etag", asset.etag),
            HTTP2Header("cache-control", "no-cache"),
        ]
        headers += Self.securityHeaders
        if let tags = request.headers.value(for: "if-none-match"),
            tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: " ") == asset.etag })
        {
            _ = responder.respond(status: 304, headers: headers)
            return true
        }
        _ = responder.respond(status: 200, headers: headers, body: asset.bytes)
        return true
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let start = firstIndex { !set.contains($0) } ?? endIndex
        let end = lastIndex { !set.contains($0) }.map { index(after: $0) } ?? start
        return start < end ? self[start..<end] : ""
    }
}
