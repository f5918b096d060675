import MCPackSchema

extension CategoriesInput {
    package static func handover(_ record: Record, files: [String]) -> [HandoverPart] {
        [
            HandoverPart(path: AssetCatalog.categoriesFolder + "/",
                         purpose: "the category icons as image sets of the catalog, `\(AssetCatalog.categoryImageName(1))` to `\(AssetCatalog.categoryImageName(record.count))` (\(record.width) x \(record.height) px, 8-bit sRGB), numbered as the categories are"),
            HandoverPart(path: "categories.json", purpose: "the number, name and filter of each category, which the app's filter bar shows"),
        ]
    }
}
