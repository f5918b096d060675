import Foundation
import MCPackSchema
import Imaging
@testable import MCPackKit
import Testing

/// The category input's verify stage, in process.
@Suite struct CategoriesStagesTests {
    @Test func iconsMatchTheList() {
        let list = JSON.encode(CategoriesDocument([Category(name: "Key", icon: 1), Category(name: "All", icon: 2, filter: "all")]))
        #expect(String(decoding: list, as: UTF8.self).contains(#""filter" : null"#), "a category with no filter says so")
        var files = ["data/categories.json": list, "data/categories/1.png": Data(), "data/categories/2.png": Data()]
        #expect(CategoriesInput.verify(nil, in: DocumentStagesTests.bag(files)).isEmpty)
        files["data/categories/2.png"] = nil
        files["data/categories/3.png"] = Data()
        let problems = CategoriesInput.verify(nil, in: DocumentStagesTests.bag(files))
        #expect(problems.map(\.path) == ["data/categories/2.png", "data/categories/3.png"])
    }
}
