/// A colour as bundle.toml writes it, `#RRGGBB` (checked where it is read),
/// in the 0...255 bands libvips flattens and fills with. Shared by the
/// inputs that take a background: the document and the app icon.
package enum HexColour {
    package static func rgb(_ hex: String) -> (Double, Double, Double) {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        return (Double((value >> 16) & 0xFF), Double((value >> 8) & 0xFF), Double(value & 0xFF))
    }
}
