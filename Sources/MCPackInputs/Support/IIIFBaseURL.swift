import Foundation


/// `[document] iiif_base_url`: the absolute HTTP(S) URL under which the
/// bundle's document/ folder will be served.
package enum IIIFBaseURL {
    /// The problem with `text` as a base URL, or nil when it is one.
    package static func problem(_ text: String) -> String? {
        let example = "e.g. \"https://example.org/iiif/magna-carta\""
        if text.contains(where: { $0.isWhitespace }) {
            return "\"\(text)\" contains white space; write a space in a URL as %20, \(example)"
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else {
            return "\"\(text)\" is not an absolute URL; expected the http:// or https:// address the document/ folder will be served under, \(example)"
        }
        guard scheme == "http" || scheme == "https" else {
            return "\"\(text)\" uses the \(scheme): scheme; IIIF viewers fetch over HTTP, so expected http:// or https://, \(example)"
        }
        guard let host = url.host, !host.isEmpty else {
            return "\"\(text)\" has no host; expected the address the document/ folder will be served under, \(example)"
        }
        if url.query != nil || url.fragment != nil {
            return "\"\(text)\" has a query or fragment; viewers append paths to the base, so give the folder's address alone, \(example)"
        }
        return nil
    }

    /// The base without a trailing slash, so `base + "/" + name` is the id.
    package static func normalised(_ text: String) -> String {
        var text = text
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Whether `text` is an absolute HTTP(S) URI, as every IIIF id must be.
    package static func isAbsolute(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host else { return false }
        return !host.isEmpty
    }
}
