// The templates under Templates/, compiled in: the EmbedTemplates plugin
// generates EmbeddedTemplates from the files in bundle/, init/, launch/,
// html/ and preview/ at build time (Plugins/EmbedTemplatesTool).

public enum Templates {
    /// The files of one folder (`bundle`, `init`, `launch`, `html`, `preview`) as built
    /// into mcpack: paths relative to that folder, bytes exactly as in the
    /// repository, in byte order of the paths.
    public static func files(in folder: String) -> [(path: String, bytes: [UInt8])] {
        let prefix = folder + "/"
        return EmbeddedTemplates.files.compactMap { file in
            file.path.hasPrefix(prefix) ? (String(file.path.dropFirst(prefix.count)), file.bytes) : nil
        }
    }

    /// Every folder built in, in order.
    public static var folders: [String] {
        var seen: [String] = []
        for file in EmbeddedTemplates.files {
            let folder = String(file.path.prefix { $0 != "/" })
            if seen.last != folder { seen.append(folder) }
        }
        return seen
    }
}
