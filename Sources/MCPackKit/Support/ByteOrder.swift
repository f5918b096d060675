extension String {
    /// Byte order of the UTF-8, the order BagIt tools and `sort` with
    /// LC_ALL=C give, whatever the locale; Swift's `<` compares characters.
    func precedesInByteOrder(_ other: String) -> Bool {
        utf8.lexicographicallyPrecedes(other.utf8)
    }
}
