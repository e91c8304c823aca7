// swift-tools-version:6.1
import PackageDescription

// An adapter for a storage protocol Stratus does not know (Depot, see PROTOCOL.md), written as
// another package would write it: against Stratus's products only, with a mock built on the mock
// kit and the contract suite as its test. CI builds it against the checkout (run-tests.sh).
let package = Package(
    name: "DepotAdapter",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DepotAdapter", targets: ["DepotAdapter"]),
        .library(name: "MockDepot", targets: ["MockDepot"]),
    ],
    dependencies: [
        // The Development trait brings in the mock kit (MockSupport) and Hummingbird, which it is built on.
        .package(name: "Stratus", path: "../..", traits: ["Development"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // The adapter: Stratus's public adapter kit over StratusHTTP.
        .target(
            name: "DepotAdapter",
            dependencies: [
                .product(name: "Stratus", package: "Stratus"),
                .product(name: "StratusHTTP", package: "Stratus"),
                .product(name: "StratusAdapterKit", package: "Stratus"),
            ]
        ),
        // The mock server: Stratus's mock kit (request log, faults, blob store) and Hummingbird.
        .target(
            name: "MockDepot",
            dependencies: [
                .product(name: "MockSupport", package: "Stratus"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "DepotAdapterTests",
            dependencies: [
                "DepotAdapter", "MockDepot",
                .product(name: "Stratus", package: "Stratus"),
                .product(name: "StratusContract", package: "Stratus"),
                .product(name: "MockSupport", package: "Stratus"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
