import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import MCPackSchema
import Testing

/// The bundle's title in the files rendered from Templates/bundle: XML,
/// a property list and Swift, each left well-formed whatever it holds.
@Suite struct TitleTests {
    let top = "test-bundle-1.0.0/data/"

    /// "--" may not stand inside an XML comment: a title holding it must
    /// leave the plist and the storyboard well-formed. XMLParser (libxml2)
    /// is the judge: Foundation's plist reader and XMLDocument recover
    /// from the error and read such a file anyway.
    @Test func aTitleWithADoubleHyphenLeavesTheXmlWellFormed() throws {
        let project = try TestProject.make(images: true)
        defer { project.destroy() }
        try project.edit("bundle.toml", #"title = "Test Bundle""#, #"title = "A -- B""#)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let fragment = try #require(files[top + "app/Info-fragment.plist"])
        let plist = try #require(try PropertyListSerialization.propertyList(from: fragment, format: nil) as? [String: Any])
        #expect(plist["CFBundleIconName"] as? String == AssetCatalog.appIconName)
        let storyboard = try #require(files[top + "launch/\(AssetCatalog.launchStoryboardName).storyboard"])
        for (name, data) in [("Info-fragment.plist", fragment), ("storyboard", storyboard)] {
            let parser = XMLParser(data: data)
            #expect(parser.parse(), "\(name): \(String(describing: parser.parserError))")
        }
    }

    /// A title is text in ClauseData.swift, never code: a line break in it
    /// (a TOML basic string may hold one) once ended a comment there.
    @Test func aTitleWithALineBreakStaysOutOfTheSwiftCode() throws {
        let project = try TestProject.make()
        defer { project.destroy() }
        try project.edit("bundle.toml", #"title = "Test Bundle""#, #"title = "A\nlet injected = 1""#)
        let result = try MCPackBinary.run(["build"], in: project.root)
        #expect(result.status == 0, "\(result.stderr)")
        let files = try archiveContents(project.url("dist/test-bundle-1.0.0.zip"))
        let swift = String(decoding: try #require(files[top + "app/ClauseData.swift"]), as: UTF8.self)
        #expect(!swift.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("let injected") }, "\(swift.prefix(400))")
    }
}
