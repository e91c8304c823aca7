// swift-tools-version:6.1
import PackageDescription

// The decoder and parser fuzzers: a package of its own, so that libFuzzer and coverage instrumentation never
// reach the project's normal build. Run with `bash Fuzz/run-fuzz.sh` from the repository root.
let package = Package(
    name: "StratusFuzz",
    dependencies: [
        .package(name: "Stratus", path: "..", traits: ["Development"])
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "DecoderFuzzer",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "StratusHTTP", package: "Stratus"),
                .product(name: "StratusDropbox", package: "Stratus"),
                .product(name: "StratusDrive", package: "Stratus"),
                .product(name: "StratusS3", package: "Stratus"),
                .product(name: "StratusAdapterKit", package: "Stratus"),
                .product(name: "StratusOAuth", package: "Stratus"),
                .product(name: "MockSupport", package: "Stratus"),
                .product(name: "MockDropbox", package: "Stratus"),
                .product(name: "MockDrive", package: "Stratus"),
            ]
        ),
        // The readers of documents from a server or from disk: XML, WebDAV PROPFIND answers,
        // JSONReader, sync record documents and the key-value store's document. No mock
        // servers, so it builds without Hummingbird and NIO.
        .executableTarget(
            name: "ParserFuzzer",
            dependencies: [
                "CFuzzerDriver",
                .product(name: "Stratus", package: "Stratus"),
                .product(name: "StratusAdapterKit", package: "Stratus"),
                .product(name: "StratusWebDAV", package: "Stratus"),
                .product(name: "StratusSync", package: "Stratus"),
                .product(name: "StratusKeyValue", package: "Stratus"),
            ]
        ),
    ]
)
