import Foundation
import MCPackTemplates
import Mustache

/// A folder of Templates/ (`bundle` or `init`): each `X.mustache` inside it
/// renders to the file `X` at the same relative path.
struct TemplateSet {
    let name: String
    let templates: [(path: String, template: MustacheTemplate)]

    /// Where templates are looked up: $MCPACK_TEMPLATES (a Templates/
    /// folder, for installs that moved the binary without its resources),
    /// else the resources installed beside the executable.
    static var root: URL? {
        if let override = ProcessInfo.processInfo.environment["MCPACK_TEMPLATES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return Templates.directory
    }

    static func load(_ name: String) throws -> TemplateSet {
        guard let root else {
            throw FileError(path: "Templates/\(name)", message: "the templates were not installed beside mcpack; set MCPACK_TEMPLATES to the Templates/ folder")
        }
        let folder = root.appendingPathComponent(name)
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else {
            throw FileError(path: folder.path, message: "template folder not found; set MCPACK_TEMPLATES to the Templates/ folder")
        }
        var templates: [(String, MustacheTemplate)] = []
        for case let relative as String in enumerator where relative.hasSuffix(".mustache") {
            let file = folder.appendingPathComponent(relative)
            guard let text = try? String(contentsOf: file, encoding: .utf8) else {
                throw FileError(path: file.path, message: "cannot read the template")
            }
            do {
                templates.append((String(relative.dropLast(".mustache".count)), try MustacheTemplate(string: text)))
            } catch {
                throw FileError(path: file.path, message: "template syntax: \(error)")
            }
        }
        templates.sort { $0.0.precedesInByteOrder($1.0) }
        return TemplateSet(name: name, templates: templates)
    }

    /// Renders every template with one context; paths in path order.
    func render(_ context: Any) -> [(path: String, data: Data)] {
        templates.map { ($0.path, Data($0.template.render(context).utf8)) }
    }
}

/// Text as a Swift string literal, quotes included.
func swiftLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            out += "\\u{\(String(scalar.value, radix: 16))}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
