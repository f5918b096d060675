import Foundation

/// A IIIF Presentation 3 manifest, in the shape mcpack writes: one canvas,
/// painted by one image, annotated by the clauses, one annotation a clause.
public struct PresentationManifest: Codable, Equatable, Sendable {
    public typealias LanguageMap = [String: [String]]

    public struct Canvas: Codable, Equatable, Sendable {
        public var id: String
        public var type = "Canvas"
        public var label: LanguageMap?
        public var width: Int
        public var height: Int
        public var items: [AnnotationPage]
        public var annotations: [AnnotationPage]?
    }

    public struct AnnotationPage: Codable, Equatable, Sendable {
        public var id: String
        public var type = "AnnotationPage"
        public var items: [Annotation]
    }

    public struct Annotation: Codable, Equatable, Sendable {
        public var id: String
        public var type = "Annotation"
        public var motivation: String
        public var label: LanguageMap?
        /// One body is written as an object, several as an array.
        public var body: [Body]
        public var target: Target

        enum CodingKeys: String, CodingKey { case id, type, motivation, label, body, target }

        public init(id: String, motivation: String, label: LanguageMap? = nil, body: [Body], target: Target) {
            self.id = id
            self.motivation = motivation
            self.label = label
            self.body = body
            self.target = target
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(type, forKey: .type)
            try container.encode(motivation, forKey: .motivation)
            try container.encodeIfPresent(label, forKey: .label)
            if body.count == 1 { try container.encode(body[0], forKey: .body) } else if !body.isEmpty { try container.encode(body, forKey: .body) }
            try container.encode(target, forKey: .target)
        }

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            type = try container.decode(String.self, forKey: .type)
            motivation = try container.decode(String.self, forKey: .motivation)
            label = try container.decodeIfPresent(LanguageMap.self, forKey: .label)
            if let one = try? container.decode(Body.self, forKey: .body) { body = [one] } else { body = try container.decodeIfPresent([Body].self, forKey: .body) ?? [] }
            target = try container.decode(Target.self, forKey: .target)
        }
    }

    /// What an annotation targets: the whole canvas (its URI), or the
    /// canvas's rectangles as one SVG selector, each rectangle a `<path>`.
    ///
    /// A clause of several rectangles is one annotation, so that a viewer
    /// lists it once, by its title. Web Annotation allows that as several
    /// targets or as one selector drawing several shapes; iiif-prezi3 and
    /// the IIIF Presentation 3 JSON schema (the presentation validator's)
    /// accept both, but Mirador draws only the first target of an annotation
    /// (AnnotationItem reads `target[0]`). So: one target, a
    /// SpecificResource of the canvas with an SvgSelector, its coordinates
    /// in canvas (master) pixels. Each rectangle is a `<path>`, not a
    /// `<rect>`: Mirador before 4.2 (3.x, 4.0, 4.1, most of those libraries
    /// run) draws only the `path` elements of a selector, and lists a clause
    /// of `<rect>`s without drawing it.
    public struct Target: Codable, Equatable, Sendable {
        /// The canvas.
        public var source: String
        /// The rectangles, or none for the whole canvas.
        public var rectangles: [PixelRect]

        public init(source: String, rectangles: [PixelRect] = []) {
            self.source = source
            self.rectangles = rectangles
        }

        /// The selector's SVG: one `<path>` a rectangle, in their order,
        /// drawn clockwise from its top-left corner.
        public var svg: String {
            let paths = rectangles.map { #"<path d="M \#($0.x),\#($0.y) h \#($0.width) v \#($0.height) h -\#($0.width) Z"/>"# }
            return #"<svg xmlns="http://www.w3.org/2000/svg">"# + paths.joined() + "</svg>"
        }

        struct Selector: Codable { var type: String; var value: String }
        struct Source: Codable { var id: String; var type: String }
        struct Specific: Codable { var type: String; var source: Source; var selector: Selector }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            if rectangles.isEmpty {
                try container.encode(source)
            } else {
                try container.encode(Specific(type: "SpecificResource", source: Source(id: source, type: "Canvas"),
                                              selector: Selector(type: "SvgSelector", value: svg)))
            }
        }

        /// Reads back what `encode` writes; a selector of another kind reads
        /// as no rectangles, which verify then reports as not the clause's.
        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let uri = try? container.decode(String.self) {
                self.init(source: uri)
                return
            }
            let specific = try container.decode(Specific.self)
            self.init(source: specific.source.id, rectangles: specific.selector.type == "SvgSelector" ? Self.rectangles(in: specific.selector.value) : [])
        }

        /// The rectangles of `svg`, in their order: each `<path>` as `svg`
        /// above writes it, and each `<rect x="" y="" width="" height=""/>`,
        /// as bundles built before wrote them. A path of another shape is
        /// not a rectangle and is left out, which verify then reports.
        static func rectangles(in svg: String) -> [PixelRect] {
            var found: [PixelRect] = []
            var rest = Substring(svg)
            while let start = rest.firstIndex(of: "<") {
                let tail = rest[rest.index(after: start)...]
                guard let end = tail.firstIndex(of: ">") else { break }
                let element = tail[..<end]
                rest = tail[tail.index(after: end)...]
                let name = element.prefix { !$0.isWhitespace && $0 != "/" }
                let attributes = Self.attributes(element.dropFirst(name.count))
                switch name {
                case "rect":
                    if let x = attributes["x"].flatMap(Int.init), let y = attributes["y"].flatMap(Int.init),
                       let w = attributes["width"].flatMap(Int.init), let h = attributes["height"].flatMap(Int.init) {
                        found.append(PixelRect(x: x, y: y, width: w, height: h))
                    }
                case "path":
                    if let d = attributes["d"], let rect = Self.rectangle(path: d) { found.append(rect) }
                default:
                    break
                }
            }
            return found
        }

        /// `name="value"` pairs; values hold no quote (none that mcpack writes does).
        private static func attributes(_ text: Substring) -> [String: String] {
            var found: [String: String] = [:]
            var rest = text
            while let equals = rest.firstIndex(of: "=") {
                let name = rest[..<equals].trimmingCharacters(in: .whitespacesAndNewlines)
                let after = rest[rest.index(after: equals)...].drop { $0.isWhitespace }
                guard let quote = after.first, quote == "\"" || quote == "'",
                      let close = after.dropFirst().firstIndex(of: quote) else { break }
                found[name] = String(after[after.index(after: after.startIndex)..<close])
                rest = after[after.index(after: close)...]
            }
            return found
        }

        /// The rectangle a path `M x,y h w v h h -w Z` draws, or nil for any
        /// other path.
        static func rectangle(path d: String) -> PixelRect? {
            // Commands and numbers as tokens: "M10,20h5" reads as "M 10 20 h 5".
            var tokens: [String] = []
            var number = ""
            for character in d {
                if character.isNumber || (character == "-" && number.isEmpty) {
                    number.append(character)
                    continue
                }
                if !number.isEmpty { tokens.append(number); number = "" }
                if character.isLetter { tokens.append(String(character)) } else if character == "-" { number = "-" }
            }
            if !number.isEmpty { tokens.append(number) }
            guard tokens.count == 10, tokens[0] == "M", tokens[3] == "h", tokens[5] == "v", tokens[7] == "h", tokens[9].uppercased() == "Z",
                  let x = Int(tokens[1]), let y = Int(tokens[2]), let w = Int(tokens[4]), let h = Int(tokens[6]), let back = Int(tokens[8]),
                  back == -w
            else { return nil }
            return PixelRect(x: x, y: y, width: w, height: h)
        }
    }

    /// The painted image (`Image`, with its service) or a clause's text (`TextualBody`).
    public struct Body: Codable, Equatable, Sendable {
        public var id: String?
        public var type: String
        public var format: String?
        public var language: String?
        public var value: String?
        /// What a `TextualBody` is for (W3C Web Annotation): `identifying`
        /// (the clause's title), `tagging` (a category), or none (the text).
        public var purpose: String?
        public var width: Int?
        public var height: Int?
        public var service: [Service]?
    }

    public struct Service: Codable, Equatable, Sendable {
        public var id: String
        public var type = "ImageService3"
        public var profile = "level0"
    }

    public var context = "http://iiif.io/api/presentation/3/context.json"
    public var id: String
    public var type = "Manifest"
    public var label: LanguageMap
    public var items: [Canvas]

    enum CodingKeys: String, CodingKey {
        case context = "@context", id, type, label, items
    }

    /// The painting annotation's id; the clauses' page is beside it.
    public static func canvasID(base: String) -> String { base + "/canvas/1" }

    /// A clause id as one segment of a URI path.
    public static func segment(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? id
    }

    public static func mediaType(_ format: String) -> String { "image/" + format }

    /// The manifest of an image service at `serviceID` (under `base`, where
    /// document/ is served) whose pyramid is `geometry` with tiles in
    /// `format` (jpeg, png, webp), annotated by `clauses`.
    public init(base: String, serviceID: String, geometry: PyramidGeometry, format: String, clauses: [Clause], title: String) {
        let canvas = Self.canvasID(base: base)
        let layout = IIIFLayout(width: geometry.width, height: geometry.height, tileSize: geometry.tileSize, ext: IIIFLayout.ext(format))
        let full = layout.maxSize
        let image = Annotation(
            id: canvas + "/page/1/image", motivation: "painting",
            body: [Body(id: serviceID + "/" + layout.fullMaxPath, type: "Image", format: Self.mediaType(format),
                        width: full.width, height: full.height, service: [Service(id: serviceID)])],
            target: Target(source: canvas))
        id = base + "/manifest.json"
        label = ["en": [title]]
        items = [Canvas(id: canvas, label: ["en": [title]], width: geometry.width, height: geometry.height,
                        items: [AnnotationPage(id: canvas + "/page/1", items: [image])],
                        annotations: [AnnotationPage(id: canvas + "/clauses", items: clauses.map { Self.annotation($0, canvas: canvas) })])]
    }

    /// A clause as a viewer lists it: labelled with its title, its text
    /// the translation (and the context, when it has one), on all its
    /// rectangles at once.
    ///
    /// Mirador's annotation panel shows an annotation's bodies, not its
    /// label: the text of every body but the tagging ones, run together,
    /// as sanitised HTML, and the tagging ones as chips. So the title is a
    /// body too, first, as HTML in bold (`identifying`: it names the
    /// target), and each category a `tagging` body; the panel then reads
    /// as the kiosk's clause: title, translation, context, categories.
    public static func annotation(_ clause: Clause, canvas: String) -> Annotation {
        let title = Body(type: "TextualBody", format: "text/html", language: "en", value: "<p><b>\(htmlEscaped(clause.title))</b></p>",
                         purpose: "identifying")
        let texts = [clause.translation, clause.context].filter { !$0.isEmpty }
            .map { Body(type: "TextualBody", format: "text/plain", language: "en", value: $0) }
        let tags = clause.categories.map { Body(type: "TextualBody", format: "text/plain", language: "en", value: $0, purpose: "tagging") }
        return Annotation(
            id: canvas + "/clauses/\(segment(clause.id))", motivation: "commenting",
            label: ["en": [clause.title]],
            body: [title] + texts + tags,
            target: Target(source: canvas, rectangles: clause.overlays))
    }

    /// Text as HTML shows it: `&`, `<`, `>` and `"` as entities.
    public static func htmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// The clauses' annotations.
    public var clauseAnnotations: [Annotation] { items.flatMap { $0.annotations ?? [] }.flatMap(\.items) }

    /// Every id the manifest gives, body and service ids included.
    public var allIDs: [String] {
        var ids = [id]
        for canvas in items {
            ids.append(canvas.id)
            for page in canvas.items + (canvas.annotations ?? []) {
                ids.append(page.id)
                for annotation in page.items {
                    ids.append(annotation.id)
                    ids += annotation.body.compactMap(\.id) + annotation.body.flatMap { $0.service ?? [] }.map(\.id)
                }
            }
        }
        return ids
    }
}
