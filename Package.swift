// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "mcpack",
    // Floors chosen on purpose (docs/guide/install.md, "Platforms"): macOS 14, the oldest
    // macOS Homebrew still bottles libvips and libarchive for; iOS 16 for
    // MCPackReader, the library the kiosk app links, which uses nothing
    // newer (PlatformTests holds every use of a newer API to #available).
    // Tools 6.1: Swift Testing's #expect(throws:) returning the error.
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .executable(name: "mcpack", targets: ["mcpack"]),
        .library(name: "MCPackReader", targets: ["MCPackReader"]),
    ],
    // Each dependency at one exact version, so two machines build the same
    // mcpack (Package.resolved is not committed). TOMLKit's bundled toml++
    // is what TOMLPreflight works around: see TOMLCrashProbeTests before
    // moving it.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1"),
        // SHA-256 for MCPackReader without OpenSSL: CryptoKit on Apple
        // platforms, its own BoringSSL copy elsewhere.
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
    ],
    targets: [
        // The C boundary: system libraries, and fixed-argument wrappers for
        // what Swift cannot call (libvips's variadic functions and macros).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            // libarchive too: Homebrew's vips.pc requires it, and it is
            // keg-only; SwiftPM looks in each .brew provider's own
            // pkgconfig folder, so swift build and Xcode find it unaided.
            providers: [.apt(["libvips-dev"]), .brew(["vips", "libarchive"])]
        ),
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // Only to check a .tar.gz's trailer (CRC-32 and length), which
        // libarchive's gzip reader skips.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Little CMS, which libvips converts colour with: read here only to
        // name and validate an embedded ICC profile before any pixel is read.
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"]), .brew(["little-cms2"])]
        ),
        .target(name: "CVipsShim", dependencies: ["CVips"]),

        // The Swift face of libvips: load, inspect, resize, tile. mcpack's
        // decisions over it (the colour policy, orientation, comparisons,
        // tiling workers) are Swift here, over CVipsShim's thin calls, and
        // Little CMS reads an embedded profile: nothing above sees C.
        // The pyramid's kinds are the schema's, named once.
        .target(name: "Imaging", dependencies: ["CVipsShim", "CLCMS2", "MCPackSchema"]),

        // Test-only: pictures made in code as photographers and designers
        // deliver them (noise, other depths, profiles and orientations, a
        // profile with perceptual tables only), so the product carries none.
        .target(name: "ImagingTestSupport", dependencies: ["Imaging", "CLCMS2"], path: "Tests/ImagingTestSupport"),

        // The Swift face of POSIX file work: chunked and positioned reads,
        // atomic temporary-then-rename writes, folder listing, Ctrl-C cleanup.
        .target(name: "FileIO"),

        // The Swift face of libarchive and zlib: zip and tar (plain, gzip,
        // zstd) read and written, a zip's central directory, a gzip trailer.
        .target(name: "Archiving", dependencies: ["CArchive", "CZlib", "FileIO"]),

        // The Swift face of OpenSSL's digests: the BagIt ones (md5, sha1, sha256,
        // sha512) and those signature formats prehash with (BLAKE2b-512, SHA-2).
        .target(name: "Hashing", dependencies: ["COpenSSL"]),

        // The Swift face of OpenSSL's signatures: Ed25519, RSA and ECDSA keys
        // built from SSH's numbers, signed and checked, and scrypt for an
        // encrypted minisign key. The digests signature formats prehash with
        // (BLAKE2b, SHA-2) are Hashing's, as are OpenSSL's error words.
        .target(name: "Signing", dependencies: ["COpenSSL", "Hashing"]),

        // The templates under Templates/, compiled into the binary (so it
        // needs nothing beside it): the EmbedTemplates plugin turns every
        // file in these folders into bytes in a generated Swift source.
        .target(
            name: "MCPackTemplates",
            path: "Templates",
            exclude: ["bundle", "init", "launch", "html", "preview"],
            plugins: ["EmbedTemplates"]
        ),
        .plugin(name: "EmbedTemplates", capability: .buildTool(), dependencies: ["mcpack-embed-templates"]),
        .executableTarget(name: "mcpack-embed-templates", dependencies: ["SwiftLiteral"], path: "Plugins/EmbedTemplatesTool"),

        // Swift string literals, for the Swift source mcpack renders and the
        // templates its build compiles in.
        .target(name: "SwiftLiteral"),

        // Floor 1, the schema: every file format a bundle holds (bundle.json
        // and the records an app reads, clauses.json, categories.json, the
        // .dzi, IIIF info.json and manifest, Contents.json, BagIt manifest
        // lines), declared once with the encoding rules that keep bytes
        // reproducible. Foundation only, so an iOS app can link it.
        .target(name: "MCPackSchema"),

        // Floor 2, the bag: the one reader of bags (an archive of any format
        // or a folder, its safety rules and limits applied once) and the one
        // writer. It sees the schema and the boundaries, nothing above, so
        // the compiler refuses a line that reaches up into the inputs.
        .target(name: "MCPackBag", dependencies: ["MCPackSchema", "Archiving", "Hashing", "FileIO"]),

        // Floor 3, the inputs: one folder each (the document, the clauses,
        // the category icons, the app icon, the launch screen, the IIIF
        // manifest, the preview page) holding all of its behaviour, with
        // bundle.toml's reader (Project/) and the vocabulary the inputs and
        // the loops share (Vocabulary/: problems, changes, the bag view,
        // build events). Nothing here names a loop.
        .target(
            name: "MCPackInputs",
            dependencies: [
                "MCPackSchema", "MCPackBag", "Imaging", "Archiving", "Hashing", "FileIO", "MCPackTemplates", "SwiftLiteral",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),

        // The loops over the inputs: build, verify, diff, render, preview,
        // drift, sign and publish, each asking every input in turn.
        .target(
            name: "MCPackKit",
            dependencies: [
                "MCPackSchema", "MCPackBag", "MCPackInputs", "Imaging", "Archiving", "Hashing", "Signing", "FileIO", "MCPackTemplates", "SwiftLiteral",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),

        // The library the kiosk app links: the bundle opened and verified,
        // the tiles in view chosen within a memory budget, the clause under
        // a finger; on Apple platforms a zoomable view. It stands on the
        // schema only: nothing in C of its own, so an app builds it as is.
        .target(
            name: "MCPackReader",
            dependencies: ["MCPackSchema", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // The command line: parse, call the kit, print, exit.
        .executableTarget(
            name: "mcpack",
            dependencies: [
                // MCPackReader for pull: the updater an app links is the
                // one the command runs.
                "MCPackKit", "MCPackInputs", "MCPackSchema", "MCPackReader",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Unit tests of the kit, and end-to-end runs of the built binary
        // (which `swift test` builds first, as a product of the package).
        .testTarget(name: "MCPackTests", dependencies: ["MCPackKit", "MCPackBag", "MCPackInputs", "MCPackSchema", "MCPackReader", "CZlib", "Imaging", "ImagingTestSupport", "Archiving", "Hashing", "Signing",
                                                        "FileIO", "SwiftLiteral", "mcpack-build-stop", "toml-crash-probe"]),

        // The schema on its own: it links Foundation and nothing else.
        .testTarget(name: "SchemaTests", dependencies: ["MCPackSchema"]),

        // The reader on small bundles mcpack builds in the tests; libvips
        // (Imaging) decodes the tiles it chooses, to compare with the master.
        .testTarget(name: "MCPackReaderTests", dependencies: ["MCPackReader", "MCPackSchema", "MCPackKit", "MCPackBag", "MCPackInputs", "Imaging", "ImagingTestSupport"]),

        // What an app writes: a test that imports MCPackReader alone and
        // names every type of its API through it.
        .testTarget(name: "ReaderAPITests", dependencies: ["MCPackReader"]),

        // The example app's decisions (UpdatePlan.swift: plain Swift on
        // MCPackReader) compiled from its own file and tested on Linux; the
        // rest of the app is UIKit and SwiftUI, built by Xcode only.
        .testTarget(name: "KioskPlanTests", dependencies: ["MCPackReader"], path: "Examples/Kiosk",
                    sources: ["Kiosk/UpdatePlan.swift", "PlanTests"]),

        // The package as Apple's compilers see it, checked from Linux: no
        // top-level name that Apple's SDKs export, no API newer than the
        // floors without #available. Reads the sources; depends on nothing.
        .testTarget(name: "PlatformTests", path: "Tests/PlatformTests", exclude: ["AppleNames", "Floors"]),

        // Bench-only (scripts/bench.sh): the reader's peak memory verifying
        // a bundle, and the tiles' decoded bytes on the iPad screens.
        .executableTarget(name: "mcpack-reader-bench", dependencies: ["MCPackReader"], path: "Tests/ReaderBench"),

        // Bench-only (scripts/bench.sh): the floor under verify, every
        // digest it must compute over the same bytes on every core.
        .executableTarget(name: "mcpack-verify-floor", dependencies: ["Archiving", "Hashing", "FileIO", "CZlib"], path: "Tests/VerifyFloor"),

        // The Swift face of libvips on its own: the bytes parsed in Swift
        // (a file's EXIF orientation), damaged ones too.
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),

        // The Swift faces of libarchive, zlib, OpenSSL and POSIX, each tested
        // on its own, without the kit.
        .testTarget(name: "BoundaryTests", dependencies: ["Archiving", "Hashing", "Signing", "FileIO"]),

        // Test-only: a build that stops itself at a hook, for the tests that
        // kill it there.
        .executableTarget(name: "mcpack-build-stop", dependencies: ["MCPackKit", "MCPackInputs"], path: "Tests/BuildStop"),

        // Test-only: parses stdin with TOMLKit alone (no pre-flight scan), so
        // TOMLCrashProbeTests can see whether toml++ still aborts on the
        // shapes TOMLPreflight guards against. Built with the tests (a
        // dependency of MCPackTests); `make build` builds only mcpack.
        .executableTarget(
            name: "toml-crash-probe",
            dependencies: [.product(name: "TOMLKit", package: "TOMLKit")],
            path: "Tests/TOMLCrashProbe"
        ),
    ]
)

// Fuzz targets (scripts/fuzz.sh, `make fuzz`): built only on request, since
// they link libFuzzer, which a plain build lacks. fuzz.sh compiles every
// target with AddressSanitizer and libFuzzer's coverage, and only this one
// links libFuzzer: -sanitize=fuzzer given to all (-Xswiftc) would link it
// into the EmbedTemplates plugin's tool too, whose link then fails for
// want of LLVMFuzzerTestOneInput (ld.gold crashes saying so).
if Context.environment["MCPACK_FUZZ"] == "1" {
    package.targets += [
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "mcpack-fuzz", dependencies: ["MCPackKit", "MCPackBag", "MCPackInputs", "MCPackReader", "Archiving", "CLibFuzzer"], path: "Fuzz/mcpack-fuzz",
                          linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])]),
    ]
}
