extension CategoriesInput {
    static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        [
            HandoverPart(path: "categories/",
                         purpose: "the category icons, `1.png` to `\(record.count).png` (\(record.width) x \(record.height) px, 8-bit sRGB), numbered as the categories are"),
            HandoverPart(path: "categories.json", purpose: "the number, name and filter of each category, which the app's filter bar shows"),
        ]
    }
}
