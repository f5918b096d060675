import Foundation
import PackagePlugin

/// Compiles Templates/ into mcpack: every file in its folders (bundle/,
/// init/, launch/, html/, preview/) becomes bytes in a generated Swift source of the
/// MCPackTemplates target, so the binary needs nothing beside it.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let root = target.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedTemplates.swift")
        return [.buildCommand(
            displayName: "Embedding the templates in \(target.name)",
            executable: try context.tool(named: "mcpack-embed-templates").url,
            arguments: [root.path, output.path],
            inputFiles: try templateFiles(under: root),
            outputFiles: [output])]
    }

    /// The files the tool embeds (so that changing one rebuilds): regular
    /// files inside the target's folders, not its own Swift sources.
    func templateFiles(under root: URL) throws -> [URL] {
        let fileManager = FileManager.default
        var files: [URL] = []
        for name in try fileManager.contentsOfDirectory(atPath: root.path) where !name.hasPrefix(".") {
            var isFolder: ObjCBool = false
            let folder = root.appendingPathComponent(name)
            guard fileManager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
                  let walk = fileManager.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walk where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(url)
            }
        }
        return files
    }
}
