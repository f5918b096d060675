import Foundation
import MCPackSchema
import Imaging
@testable import MCPackInputs
@testable import MCPackKit
import Testing

/// The category input's verify stage, in process.
@Suite struct CategoriesStagesTests {
    @Test func iconsMatchTheList() {
        let list = JSON.encode(CategoriesDocument([ClauseCategory(name: "Key", icon: 1), ClauseCategory(name: "All", icon: 2, filter: "all")]))
        #expect(String(decoding: list, as: UTF8.self).contains(#""filter" : null"#), "a category with no filter says so")
        var files = ["data/categories.json": list, "data/" + AssetCatalog.categoryImagePath(1): Data(), "data/" + AssetCatalog.categoryImagePath(2): Data()]
        #expect(CategoriesInput.verify(nil, in: DocumentStagesTests.bag(files)).isEmpty)
        files["data/" + AssetCatalog.categoryImagePath(2)] = nil
        files["data/" + AssetCatalog.categoryImagePath(3)] = Data()
        let problems = CategoriesInput.verify(nil, in: DocumentStagesTests.bag(files))
        #expect(problems.map(\.path) == ["data/" + AssetCatalog.categoryImagePath(2), "data/" + AssetCatalog.categoryImagePath(3)])
    }

    /// A bag made before the catalog, with categories/1.png ... N.png,
    /// still verifies.
    @Test func aBagOfTheEarlierLayoutIsCheckedAsItWasMade() {
        let list = JSON.encode(CategoriesDocument([ClauseCategory(name: "Key", icon: 1), ClauseCategory(name: "All", icon: 2, filter: "all")]))
        var files = ["data/categories.json": list, "data/categories/1.png": Data(), "data/categories/2.png": Data()]
        #expect(CategoriesInput.verify(nil, in: DocumentStagesTests.bag(files)).isEmpty)
        files["data/categories/2.png"] = nil
        #expect(CategoriesInput.verify(nil, in: DocumentStagesTests.bag(files)).map(\.path) == ["data/categories/2.png"])
    }
}
