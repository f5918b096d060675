import Foundation
import Imaging

/// One picture before and after (or an asset and its copy), with their
/// sizes and, when the sizes match, where they differ: the one way both
/// pages show a pair (Templates/html/pair.html.mustache).
package struct PairView {
    /// What the pair shows; with the captions, the pictures' accessible names.
    var label: String
    var oldCaption: String
    var oldImage: String?
    var oldSize: String?
    var newCaption: String
    var newImage: String?
    var newSize: String?
    var differenceImage: String?

    package init(label: String, old: Image?, new: Image?, oldCaption: String = "before", newCaption: String = "after", photo: Int? = nil) {
        func shown(_ image: Image?) -> String? {
            guard let image else { return nil }
            if let photo { return (try? image.previewJPEG(side: photo)).map { "data:image/jpeg;base64," + $0.base64EncodedString() } }
            return (try? image.previewPNG()).map { "data:image/png;base64," + $0.base64EncodedString() }
        }
        self.label = label
        self.oldCaption = oldCaption
        self.newCaption = newCaption
        oldImage = shown(old)
        newImage = shown(new)
        oldSize = old.map { "\($0.width) x \($0.height)" }
        newSize = new.map { "\($0.width) x \($0.height)" }
        if let old, let new, old.width == new.width, old.height == new.height {
            differenceImage = shown(try? old.differenceImage(to: new))
        }
    }
}
