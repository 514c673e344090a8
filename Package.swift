// swift-tools-version:6.1
import PackageDescription

// MARK: Linking (issue 29: start-up pays only for what the command uses)
// The codecs, ncursesw and zlib are linked in from Debian's -dev packages' .a files, so the dynamic loader has 8 fewer
// libraries to map, relocate and search at every start. The module maps keep naming the libraries (`link "turbojpeg"`);
// `Linking/static` holds one linker script per name (`libturbojpeg.so`: `INPUT(-l:libturbojpeg.a)`), found before the
// system's shared library because -L folders come first. `-l:` in a script needs lld (Swift's toolchain ships it;
// gold cannot), which also packs the release build's 50,000 relative relocations (`-z pack-relative-relocs`, glibc
// 2.36). libstdc++ is linked in only in release builds, whose Swift runtime is linked in too (`--static-swift-stdlib`);
// debug builds load the runtime's shared libraries, which need the shared libstdc++. `--no-export-dynamic` undoes the
// `-export-dynamic` that the static Swift runtime's link arguments add: it exported 10,000 of our own symbols, which
// the runtime's start-up `dladdr` searched one by one (0.33 M instructions, 28% of `--version`); nothing looks our
// symbols up (the libraries opened late bring their own). Figures: docs/benchmarks.md.
let staticLibraries: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-L", Context.packageDirectory + "/Linking/static"]),
    .unsafeFlags(["-L", Context.packageDirectory + "/Linking/release", "-Xlinker", "-z", "-Xlinker",
                  "pack-relative-relocs", "-Xlinker", "--no-export-dynamic"], .when(configuration: .release)),
]

let package = Package(
    name: "ThumbTable",
    products: [
        .executable(name: "thumbtable", targets: ["ThumbTableCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "4.0.0"..<"5.0.0"),
    ],
    targets: [
        // MARK: C wrappers (system libraries; only one Swift file per library imports each)
        // No pkgConfig: ncursesw's .pc file carries -D flags SwiftPM refuses (with a warning); the shim defines what
        // the wide-character API needs.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        // No pkgConfig for the codecs either: its `-L/usr/lib/...` would come before `Linking/static` (see above), and
        // Debian puts their headers in /usr/include.
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        /// zlib, for compressed kitty uploads (linked in statically, as libpng already needs it).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        /// libcurl, opened with dlopen on the first request so that commands that fetch nothing never load it. Its
        /// declarations come from `libcurl4-openssl-dev`.
        .target(name: "CCurl"),
        /// libheif (HEIC, HEIF, AVIF) and libjxl (JPEG XL), opened with dlopen on the first such image, so that
        /// commands that meet none never load them and the codecs they link. Declarations from `libheif-dev` and
        /// `libjxl-dev`.
        .target(name: "CHeif"),
        .target(name: "CJxl"),
        /// libavif, for AVIF image sequences (stills stay on libheif), opened with dlopen on the first one played.
        /// Declarations from `libavif-dev`.
        .target(name: "CAvif"),

        // MARK: Core (pure Swift, no C)
        /// What the program needs beyond FoundationEssentials (which every module imports instead of Foundation, so
        /// that ICU and its 30 MB of data stay out of the binary): ASCII trimming, fixed-point numbers, threads.
        .target(name: "Basics"),
        /// Cells, colours, a cell buffer, display widths, sanitising of untrusted text.
        .target(name: "Cells"),
        /// An RGBA bitmap: what decoders produce and renderers consume.
        .target(name: "Pixels"),
        /// Terminal images: the protocols (kitty, sixel, iTerm2), what detection asks and how the replies are read,
        /// tmux passthrough, and the bytes that carry pictures (kitty's compressed with zlib: its one C library).
        .target(name: "Graphics", dependencies: ["Cells", "Pixels", "CZlib"], linkerSettings: staticLibraries),
        /// Items, pages and the item-source protocol.
        .target(name: "Items"),
        /// Local files read safely: regular files only, opened without blocking, paths kept as bytes; blocking calls
        /// run off the cooperative pool.
        .target(name: "LocalFiles", dependencies: ["Basics", "Cells"]),
        /// HTTP(S) GETs with byte, time and redirect limits and cancellation, over libcurl.
        .target(name: "HTTP", dependencies: ["Basics", "CCurl"]),

        // MARK: Subsystems
        /// Bytes to bitmaps: JPEG, PNG, GIF, WebP, HEIF, AVIF and JPEG XL via the system libraries (the last three
        /// opened on first use, as is libavif for AVIF sequences).
        .target(name: "Codecs", dependencies: [
            "Basics", "Pixels", "LocalFiles", "CTurboJPEG", "CPNG", "CGIF", "CWebP", "CHeif", "CJxl",
            "CAvif",
        ], linkerSettings: staticLibraries),
        /// Bitmaps to grids of text cells.
        .target(name: "TextArt", dependencies: ["Pixels", "Cells"], exclude: ["Generated"]),
        /// The bundled demo data: the demo server's records, photos and credits, kept at the top level in `Resources/`.
        /// Not declared as SwiftPM resources: their generated accessor uses Foundation's Bundle, which alone links
        /// all of Foundation and ICU (44 MB); the files are found in the checkout instead.
        .target(name: "DemoResources", path: "Resources", exclude: ["demo"], sources: ["DemoResources.swift"]),
        /// Concrete item sources: SWAPI, jsonplaceholder photos, any paged JSON API, a folder of images.
        .target(name: "ItemSources", dependencies: ["Basics", "Items", "HTTP", "Cells", "LocalFiles"]),
        /// The embedded demo server on its own small HTTP/1.1 server (`LoopbackServer`, which the tests' server runs on
        /// too): SWAPI, Instant Answer and jsonplaceholder shapes, placeholder PNGs, the bundled photos, latency and faults.
        .target(name: "DemoServer", dependencies: ["Basics", "Codecs", "Pixels", "HTTP"]),
        /// One image request from URL to rendered thumbnail: load, coalesce, prioritise, limit, cancel, retry, cache
        /// in memory and on disk, decode, render; counters.
        .target(name: "Pipeline", dependencies: [
            "Basics", "Cells", "Codecs", "Pixels", "TextArt", "HTTP", "LocalFiles",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        /// The screen model: rows, slots, layout, detail pane; composes frames into a cell buffer.
        .target(name: "Table", dependencies: ["Basics", "Cells", "Items"]),
        /// The only code that calls ncursesw.
        .target(name: "Terminal", dependencies: ["Basics", "Cells", "Graphics", "CNcursesw"],
                linkerSettings: staticLibraries),
        /// The event loop, key bindings and wiring.
        .target(name: "App", dependencies: [
            "Basics", "Cells", "Items", "TextArt", "Pipeline", "Table", "Terminal", "LocalFiles", "Graphics", "Pixels",
            "Codecs",
        ]),

        // MARK: Executables
        .executableTarget(name: "ThumbTableCLI", dependencies: [
            "App", "Basics", "Codecs", "TextArt", "Cells", "Pixels", "Items", "ItemSources", "DemoResources",
            "Pipeline", "Table", "Terminal", "DemoServer", "LocalFiles", "Graphics",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        /// Release-build benchmarks: `swift run -c release thumbtable-bench`.
        .executableTarget(name: "Bench", dependencies: [
            "Table", "Cells", "Items", "Codecs", "Pixels", "TextArt", "Pipeline", "App", "TestSupport", "DemoServer",
            "HTTP", "ItemSources", "Graphics",
        ]),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: [
            "Cells", "Items", "Table", "Pipeline", "Codecs", "Pixels", "DemoServer", "Graphics",
        ], path: "Tests/TestSupport"),
        .testTarget(name: "CellsTests", dependencies: ["Cells"]),
        .testTarget(name: "BasicsTests", dependencies: ["Basics"]),
        .testTarget(name: "LocalFilesTests", dependencies: ["LocalFiles"]),
        .testTarget(name: "GraphicsTests", dependencies: ["Graphics", "Cells", "Pixels", "Codecs", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "ThumbTableCLITests", dependencies: [
            "ThumbTableCLI", "Pipeline", "Table", "Items", "LocalFiles",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "TableTests", dependencies: ["Table", "Cells", "Items", "TestSupport", "App"],
                    resources: [.copy("Golden")]),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "Pixels", "TestSupport"],
                    exclude: ["make_fixtures.py"], resources: [.copy("Fixtures")]),
        .testTarget(name: "TextArtTests", dependencies: ["TextArt", "Pixels", "Cells", "Codecs"],
                    exclude: ["quality-configs.tsv"], resources: [.copy("Golden")]),
        .testTarget(name: "PipelineTests", dependencies: [
            "Pipeline", "TestSupport", "Cells", "Codecs", "TextArt", "LocalFiles",
        ]),
        .testTarget(name: "ReuseSimulationTests", dependencies: [
            "App", "Pipeline", "Table", "Items", "Cells", "TextArt", "TestSupport", "DemoServer",
        ]),
        .testTarget(name: "AppTests", dependencies: [
            "App", "Table", "Terminal", "Cells", "Items", "TestSupport", "DemoServer", "Graphics", "LocalFiles",
            "Codecs", "Pixels",
        ]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "Graphics", "Codecs"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "Cells", "Graphics", "TestSupport"]),
        .testTarget(name: "DemoServerTests", dependencies: [
            "DemoServer", "DemoResources", "Codecs", "Pixels", "HTTP", "TestSupport",
        ]),
        .testTarget(name: "ItemSourcesTests", dependencies: [
            "ItemSources", "Items", "DemoServer", "TestSupport", "LocalFiles",
        ]),
    ]
)

// MARK: Fuzzing
// libFuzzer targets, built only by scripts/fuzz (which sets THUMBTABLE_FUZZ=1 and builds with `--sanitize fuzzer` in
// .build-fuzz): the normal build and `swift build --build-tests` never see them, because they need libFuzzer's main.
if Context.environment["THUMBTABLE_FUZZ"] == "1" {
    package.targets.append(.executableTarget(name: "thumbtable-fuzz", dependencies: [
        "Cells", "Codecs", "Pixels", "Items", "ItemSources",
    ], path: "Fuzz/Sources/thumbtable-fuzz"))
}

// MARK: Type metadata without the runtime's lookups (issue 27: a one-shot pick)
// By default the compiler asks for a generic type's metadata by its mangled name (`Dictionary<URL, Int>`): the
// runtime demangles it and finds each conformance its requirements need (`URL: Hashable`) by scanning all 4,500
// conformance records of the binary, about 120,000 instructions a scan. A one-shot `pick` made 98 such requests, 34
// of which scanned: 4.7 M of its 16.4 M instructions, demangling included. With this flag our code calls the
// metadata accessors directly, with the witness tables it already knows (0.34 M left, most of it ArgumentParser's: a
// package's settings reach only its own targets), for a binary 0.16 MB larger. Last, so that the fuzz target gets it.
// The C targets are named: a new one goes in `cTargets`. Figures: docs/benchmarks.md.
let directMetadata: SwiftSetting = .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])
let cTargets: Set = ["CCurl", "CHeif", "CJxl", "CAvif"]
for target in package.targets where target.type != .system && !cTargets.contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [directMetadata]
}
