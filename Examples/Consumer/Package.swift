// swift-tools-version:6.1
import PackageDescription

// An app as a user of Stratus writes it: every library product, the Development trait left off.
// `check.sh` resolves it, compares the packages SwiftPM resolved with the expected set, builds it
// and runs it; CI runs the script, so a dependency that leaks into apps fails the run.
let libraries = [
    "Stratus", "StratusDigest", "StratusFileSystem", "StratusHTTP", "StratusLocal", "StratusContract", "StratusOAuth",
    "StratusAdapterKit", "StratusDropbox", "StratusDrive", "StratusOneDrive", "StratusS3", "StratusWebDAV",
    "StratusSync", "StratusKeyValue", "StratusCrypt",
]

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Stratus", path: "../..")],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: libraries.map { .product(name: $0, package: "Stratus") }
        )
    ]
)
