import ECBRates
import Foundation

/// One file the page loads from the server itself (no CDN, no font from elsewhere): its path,
/// media type and bytes. The page names it with `?v=` and the first hex digits of its content's
/// hash, so that a new version is fetched at once whatever a cache kept.
struct PageAsset: Sendable {
    /// Where it is served (`/assets/ecbrates.css`).
    let path: String
    /// Its media type.
    let contentType: String
    /// Its bytes, as text.
    let body: String

    /// The path with its version: `/assets/ecbrates.css?v=1a2b3c4d5e6f`.
    var versionedPath: String { path + "?v=" + String(SHA256.hex(Array(body.utf8)).prefix(12)) }
}

/// The page's own assets, and the headers every page is sent with: a Content-Security-Policy
/// that lets it load nothing but these (no inline script or style, no other origin, no frames).
enum PageAssets {
    /// The style sheet: light and dark schemes, one column at 390 px, more from 800 px.
    static let style = PageAsset(
        path: "/assets/ecbrates.css", contentType: "text/css; charset=utf-8", body: PageStyle.css)
    /// The script that saves a form's reload (the page works without it).
    static let script = PageAsset(
        path: "/assets/ecbrates.js", contentType: "text/javascript; charset=utf-8", body: PageScript.javaScript)
    /// The icon a browser shows in its tab.
    static let icon = PageAsset(
        path: "/assets/icon.svg", contentType: "image/svg+xml",
        body: """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4f91"/><text x="16" y="23" font-family="sans-serif" font-size="20" font-weight="bold" text-anchor="middle" fill="#ffd54a">€</text></svg>

            """)

    /// Every asset, by path.
    static let all: [String: PageAsset] = Dictionary(uniqueKeysWithValues: [style, script, icon].map { ($0.path, $0) })

    /// What a page may load: its own script, style sheet and images, requests to its own origin
    /// (the script's), forms sent to itself; nothing inline, nothing from elsewhere, no frames.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The headers of a page: the policy, and no sniffing, referrer or framing.
    static let pageHeaders: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
    ]

    /// The asset at `path`, as an answer (nil when there is none). Its only parameter is `v`.
    static func answer(_ request: HTTPRequest) throws -> EndpointAnswer? {
        guard let asset = all[request.path] else { return nil }
        if let other = request.query.first(where: { $0.name != "v" }) {
            throw QuestionRefusal(.unknown(name: other.name, given: other.value))
        }
        var answer = EndpointAnswer(body: asset.body, contentType: asset.contentType, token: nil, freshness: .past)
        answer.headers = [("X-Content-Type-Options", "nosniff")]
        return answer
    }
}
