import MCPackBag
import Foundation
import MCPackSchema
import Imaging

extension CategoriesInput {
    /// Every category icon is decoded: kept whole.
    package static func verifyKeeps(_ path: String) -> BagReader.Keep.Bytes { .whole }

    /// The catalog's Category1 ... CategoryN image sets match categories.json
    /// (in a bag made before the catalog: categories/1.png ... N.png).
    package static func verify(_ record: Record?, in bag: BagView) -> [Problem] {
        let path = CategoriesDocument.path
        var problems: [Problem] = []
        guard bag.files[path] != nil,
              let list = bag.decode(CategoriesDocument.self, path, rule: "categories-match", &problems)?.categories else { return problems }
        let numbers = list.map(\.icon)
        if numbers.sorted() != Array(1..<(numbers.count + 1)) {
            problems.append(Problem(path, "categories-match", "categories are not numbered 1...\(list.count)"))
        }
        let earlier = !bag.folders.holds("data/\(AssetCatalog.categoriesFolder)/") && bag.folders.holds("data/categories/")
        let folder = earlier ? "data/categories/" : "data/\(AssetCatalog.categoriesFolder)/"
        let icons = Set(bag.folders.files(under: folder).filter { $0.hasSuffix(".png") })
        let expected = Set(numbers.map { earlier ? "data/categories/\($0).png" : "data/" + AssetCatalog.categoryImagePath($0) })
        for missing in expected.subtracting(icons).sorted() {
            problems.append(Problem(missing, "categories-match", "categories.json has this icon's number, but the icon is missing"))
        }
        for extra in icons.subtracting(expected).sorted() {
            problems.append(Problem(extra, "categories-match", "no category in categories.json has this icon"))
        }
        for path in icons.sorted() {
            guard let data = bag.files[path]?.data, let image = try? Image(data: data) else { continue }
            if let problem = PictureImport.notSRGB(image) { problems.append(Problem(path, "picture-srgb", problem)) }
        }
        return problems
    }
}
