extension String {
    /// Whether this string's UTF-8 bytes sort before `other`'s: the order
    /// BagIt tools and `sort` with LC_ALL=C give, whatever the locale.
    /// Swift's `<` compares characters, which can order two names otherwise.
    package func precedesInUTF8Order(_ other: String) -> Bool {
        // Over the bytes where they lie (a native string's, a small one's
        // copied to the stack): the UTF8View's iterators took a tenth of
        // the verify of an unpacked bag, sorting its 17,000 names.
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs -> Bool in
                for index in 0..<Swift.min(mine.count, theirs.count) where mine[index] != theirs[index] {
                    return mine[index] < theirs[index]
                }
                return mine.count < theirs.count
            }
        }
        return (compared ?? nil) ?? utf8.lexicographicallyPrecedes(other.utf8)
    }
}
