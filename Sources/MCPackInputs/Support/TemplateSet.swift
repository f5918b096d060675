import FileIO
import Foundation
import MCPackSchema
import MCPackTemplates
import Mustache

/// A folder of Templates/ (`bundle`, `init`, `launch`, `html`, `preview`): each
/// `X.mustache` inside it renders to the file `X` at the same relative path.
package struct TemplateSet {
    package let name: String
    package let templates: [(path: String, template: MustacheTemplate)]

    /// A folder of the user's own templates, laid out as Templates/ is:
    /// `--templates DIR`, else $MCPACK_TEMPLATES, else none (the templates
    /// built into mcpack).
    package static var root: URL? {
        if let chosen = TemplateFolder.chosen { return chosen }
        if let override = ProcessInfo.processInfo.environment["MCPACK_TEMPLATES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return nil
    }

    /// The set from the user's folder when it has this one (a folder it
    /// lacks comes from mcpack), else the copy built into mcpack.
    package static func load(_ name: String) throws -> TemplateSet {
        var files = Templates.files(in: name).map { ($0.path, $0.bytes, "Templates/\(name)/\($0.path) (built in)") }
        if let root {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw FileError(path: root.path, message: "template folder not found (from --templates or MCPACK_TEMPLATES)")
            }
            let folder = root.appendingPathComponent(name)
            // (Asked first: on Linux an enumerator of a missing folder is not nil.)
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
               let enumerator = FileManager.default.enumerator(atPath: folder.path) {
                files = []
                for case let relative as String in enumerator where relative.hasSuffix(".mustache") {
                    let file = folder.appendingPathComponent(relative)
                    guard let data = try? Data(contentsOf: file) else {
                        throw FileError(path: file.path, message: "cannot read the template")
                    }
                    files.append((relative, Array(data), file.path))
                }
            }
        }
        var templates: [(String, MustacheTemplate)] = []
        for (path, bytes, shown) in files where path.hasSuffix(".mustache") {
            guard let text = String(bytes: bytes, encoding: .utf8) else {
                throw FileError(path: shown, message: "cannot read the template (not UTF-8)")
            }
            do {
                templates.append((String(path.dropLast(".mustache".count)), try MustacheTemplate(string: text)))
            } catch {
                throw FileError(path: shown, message: "template syntax: \(error)")
            }
        }
        templates.sort { $0.0.precedesInUTF8Order($1.0) }
        return TemplateSet(name: name, templates: templates)
    }

    /// Renders the template at `path` (`diff.html`) with `context`; every
    /// template of the set is a partial the others may use (`{{> pair}}`,
    /// the before-and-after the pages and the inputs' sections show alike).
    package func render(page path: String, _ context: Any) throws -> String {
        guard let template = templates.first(where: { $0.path == path }) else {
            throw FileError(path: "Templates/\(name)/\(path).mustache", message: "template not found")
        }
        var library = MustacheLibrary()
        for other in templates {
            library.register(other.template, named: other.path.hasSuffix(".html") ? String(other.path.dropLast(5)) : other.path)
        }
        return template.template.render(context, library: library)
    }

    /// Renders every template with one context; paths in path order. A
    /// template that renders to nothing but white space makes no file: a
    /// template wraps itself in a section (`{{#hasClauses}}`) to be made
    /// only for the projects it is about.
    package func render(_ context: Any) -> [(path: String, data: Data)] {
        templates.compactMap { path, template in
            let text = template.render(context)
            return text.allSatisfy(\.isWhitespace) ? nil : (path, Data(text.utf8))
        }
    }
}

/// The folder `--templates DIR` names, chosen once before a command runs;
/// it wins over $MCPACK_TEMPLATES.
package enum TemplateFolder {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folder: URL?

    package static var chosen: URL? {
        get { lock.withLock { folder } }
        set { lock.withLock { folder = newValue } }
    }
}
