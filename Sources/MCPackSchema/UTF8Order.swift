extension String {
    /// Whether this string's UTF-8 bytes sort before `other`'s: the order
    /// BagIt tools and `sort` with LC_ALL=C give, whatever the locale.
    /// Swift's `<` compares characters, which can order two names otherwise.
    package func precedesInUTF8Order(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
