import Foundation

/// Where a bundle's one asset catalog sits and what it names, for mcpack,
/// the generated Swift source, the storyboard and MCPackReader alike.
/// Every path is relative to the bag's data/ folder.
public enum AssetCatalog {
    /// The catalog a developer drags into the Xcode project.
    public static let folder = "Assets.xcassets"
    /// The app icon set's name: what `CFBundleIconName` and Xcode's
    /// `ASSETCATALOG_COMPILER_APPICON_NAME` must say.
    public static let appIconName = "AppIcon"
    public static let appIconSet = "\(folder)/\(appIconName).appiconset"
    /// The folder holding one image set per category icon; it gives no
    /// namespace, so the images are named `Category1` ... `CategoryN`.
    public static let categoriesFolder = "\(folder)/Categories"
    /// The launch screen's storyboard, without its extension: what
    /// `UILaunchStoryboardName` must say.
    public static let launchStoryboardName = "LaunchScreen"
    /// The launch layers' image sets' names, as the storyboard uses them.
    public static let launchBackground = "LaunchBackground"
    public static let launchText = "LaunchText"

    /// The image name of category icon `number`, as `UIImage(named:)` and
    /// the generated ClauseData.swift use it.
    public static func categoryImageName(_ number: Int) -> String { "Category\(number)" }

    /// The PNG of category icon `number`.
    public static func categoryImagePath(_ number: Int) -> String {
        let name = categoryImageName(number)
        return "\(categoriesFolder)/\(name).imageset/\(name).png"
    }

    /// The image set of a launch layer.
    public static func launchSet(_ name: String) -> String { "\(folder)/\(name).imageset" }
}
