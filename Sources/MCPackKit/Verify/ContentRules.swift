import MCPackInputs
import Foundation
import MCPackSchema

/// Rules for bags mcpack made (those holding data/bundle.json): bundle.json
/// is readable, and each input's files keep the rules that input's verify
/// stage states (Inputs/*/…+Verify.swift), and the asset catalog they make
/// together keeps Xcode's rules (AssetCatalogRules). Each rule has a stable
/// short name.
enum ContentRules {
    static func check(_ contents: BagContents) -> [Problem] {
        guard contents.files["data/bundle.json"] != nil else { return [] }
        let bag = BagView(contents: contents)
        var problems: [Problem] = []
        if let head = bag.decode(BundleJSON.Head.self, "data/bundle.json", rule: "bundle-json", &problems),
           head.bundle == nil || head.components == nil {
            problems.append(Problem("data/bundle.json", "bundle-json", "has no \"bundle\" or \"components\" object"))
        }
        for input in Inputs.all { problems += input.runVerify(bag) }
        problems += AssetCatalogRules.check(bag)
        return problems
    }
}
