// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mcpack",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mcpack", targets: ["mcpack"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
    ],
    targets: [
        // The C boundary: system libraries, and fixed-argument wrappers for
        // what Swift cannot call (libvips's variadic functions and macros).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"]), .brew(["vips"])]
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
        // libvips is loaded by the shim on first use, not at start (see
        // mcvips.h). On Linux nothing may link it, and CVips's pkg-config
        // entry would, ahead of any --as-needed: so there the shim takes
        // libvips's headers from the system paths, and GLib's from where
        // Debian, Ubuntu and Fedora put them (libvips-dev installs both).
        .target(
            name: "CVipsShim",
            dependencies: [.target(name: "CVips", condition: .when(platforms: [.macOS]))],
            cSettings: [.unsafeFlags(glibHeaderFlags, .when(platforms: [.linux]))],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),

        // The Swift face of libvips: load, inspect, resize, tile.
        .target(name: "Imaging", dependencies: ["CVipsShim"]),

        // The Swift face of POSIX file work: chunked and positioned reads,
        // atomic temporary-then-rename writes, folder listing, Ctrl-C cleanup.
        .target(name: "FileIO"),

        // The Swift face of libarchive and zlib: zip and tar (plain, gzip,
        // zstd) read and written, a zip's central directory, a gzip trailer.
        .target(name: "Archiving", dependencies: ["CArchive", "CZlib", "FileIO"]),

        // The Swift face of OpenSSL: the BagIt digests (md5, sha1, sha256, sha512).
        .target(name: "Hashing", dependencies: ["COpenSSL"]),

        // The templates under Templates/, shipped as resources.
        .target(
            name: "MCPackTemplates",
            path: "Templates",
            resources: [.copy("bundle"), .copy("init"), .copy("launch"), .copy("html")]
        ),

        // The domain: projects, inputs, the bag, build, verify.
        .target(
            name: "MCPackKit",
            dependencies: [
                "Imaging", "Archiving", "Hashing", "FileIO", "MCPackTemplates",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),

        // The command line: parse, call the kit, print, exit.
        .executableTarget(
            name: "mcpack",
            dependencies: [
                "MCPackKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Unit tests of the kit, and end-to-end runs of the built binary
        // (which `swift test` builds first, as a product of the package).
        .testTarget(name: "MCPackTests", dependencies: ["MCPackKit", "Imaging", "Archiving", "Hashing", "FileIO"]),

        // The Swift faces of libarchive, zlib, OpenSSL and POSIX, each tested
        // on its own, without the kit.
        .testTarget(name: "BoundaryTests", dependencies: ["Archiving", "Hashing", "FileIO"]),
    ]
)

/// GLib's two header folders on Linux: one shared, one per architecture
/// (Debian and Ubuntu's multiarch folders, Fedora's lib64, Arch and
/// Alpine's lib). Folders that do not exist are ignored by the compiler.
/// MCPACK_GLIB_INCLUDE (colon-separated) adds others, e.g. a Linuxbrew prefix.
var glibHeaderFlags: [String] {
    let triples = ["x86_64-linux-gnu", "aarch64-linux-gnu", "arm-linux-gnueabihf", "i386-linux-gnu",
                   "powerpc64le-linux-gnu", "s390x-linux-gnu", "riscv64-linux-gnu"]
    let extra = (Context.environment["MCPACK_GLIB_INCLUDE"] ?? "").split(separator: ":").map(String.init)
    let folders = extra + ["/usr/include/glib-2.0"] + triples.map { "/usr/lib/\($0)/glib-2.0/include" }
        + ["/usr/lib64/glib-2.0/include", "/usr/lib/glib-2.0/include"]
    return folders.map { "-I" + $0 }
}

// Fuzz targets (scripts/fuzz.sh, `make fuzz`): built only on request, since
// they link libFuzzer and need -sanitize=fuzzer, which a plain build lacks.
if Context.environment["MCPACK_FUZZ"] == "1" {
    package.targets += [
        .target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .executableTarget(name: "mcpack-fuzz", dependencies: ["MCPackKit", "Archiving", "CLibFuzzer"], path: "Fuzz/mcpack-fuzz"),
    ]
}
