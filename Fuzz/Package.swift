// swift-tools-version:6.1
import PackageDescription

// The decoder fuzzers: a package of its own, so that libFuzzer and coverage instrumentation never
// reach the project's normal build. Run with `bash Fuzz/run-fuzz.sh` from the repository root.
let package = Package(
    name: "StratusFuzz",
    dependencies: [
        .package(name: "Stratus", path: "..")
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
    ]
)
