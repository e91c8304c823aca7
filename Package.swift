// swift-tools-version:6.1
import PackageDescription

extension Target.Dependency {
    /// A product of a package only the mock servers, tools, examples, benchmarks and tests use:
    /// with the Development trait off (an app's build), SwiftPM neither resolves nor fetches it.
    static func development(_ name: String, package: String) -> Target.Dependency {
        .product(name: name, package: package, condition: .when(traits: ["Development"]))
    }
}

let package = Package(
    name: "Stratus",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Stratus", targets: ["Stratus"]),
        .library(name: "StratusDigest", targets: ["StratusDigest"]),
        .library(name: "StratusFileSystem", targets: ["StratusFileSystem"]),
        .library(name: "StratusHTTP", targets: ["StratusHTTP"]),
        .library(name: "StratusLocal", targets: ["StratusLocal"]),
        .library(name: "StratusContract", targets: ["StratusContract"]),
        .library(name: "StratusOAuth", targets: ["StratusOAuth"]),
        .library(name: "StratusAdapterKit", targets: ["StratusAdapterKit"]),
        .library(name: "MockSupport", targets: ["MockSupport"]),
        .library(name: "MockOAuth", targets: ["MockOAuth"]),
        .library(name: "StratusDropbox", targets: ["StratusDropbox"]),
        .library(name: "MockDropbox", targets: ["MockDropbox"]),
        .library(name: "StratusDrive", targets: ["StratusDrive"]),
        .library(name: "MockDrive", targets: ["MockDrive"]),
        .library(name: "StratusOneDrive", targets: ["StratusOneDrive"]),
        .library(name: "MockOneDrive", targets: ["MockOneDrive"]),
        .library(name: "MockNextcloud", targets: ["MockNextcloud"]),
        .library(name: "StratusS3", targets: ["StratusS3"]),
        .library(name: "StratusWebDAV", targets: ["StratusWebDAV"]),
        .library(name: "StratusSync", targets: ["StratusSync"]),
        .library(name: "StratusKeyValue", targets: ["StratusKeyValue"]),
        .library(name: "StratusCrypt", targets: ["StratusCrypt"]),
        .executable(name: "stratus-mock", targets: ["StratusMock"]),
        .executable(name: "stratus-tour", targets: ["StratusTour"]),
        .executable(name: "stratus-core-only", targets: ["StratusCoreOnly"]),
        .executable(name: "stratus", targets: ["StratusCLI"]),
        .executable(name: "stratus-save-sync", targets: ["SaveSync"]),
        .executable(name: "stratus-fault-matrix", targets: ["FaultMatrixCommand"]),
        .executable(name: "stratus-http-benchmark", targets: ["HTTPBenchmark"]),
        .executable(name: "stratus-adapter-benchmark", targets: ["AdapterBenchmark"]),
        .executable(name: "stratus-sync-sim", targets: ["SyncSimCommand"]),
        .executable(name: "stratus-sync-benchmark", targets: ["SyncBenchmark"]),
    ],
    traits: [
        .trait(
            name: "Development",
            description: """
                The mock servers, tools, examples, benchmarks and tests, and the packages only they use \
                (Hummingbird, SwiftNIO, ArgumentParser). Off by default, so an app that depends on the \
                library products resolves none of those packages: build here with --traits Development.
                """
        )
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    ],
    targets: [
        // C shims: libcurl and OpenSSL's libcrypto, found through pkg-config.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Linux system calls that Glibc's Swift module does not show (sync_file_range).
        .systemLibrary(name: "CLinux"),

        // Library targets: libcurl, OpenSSL, swift-log, swift-metrics and swift-distributed-tracing only.
        // File-system primitives (atomic replace, file locks, EINTR-safe calls, child processes):
        // nothing but the C library and the header-only CLinux shim.
        .target(name: "StratusFileSystem", dependencies: ["CLinux"]),
        // The core links no OpenSSL: hash algorithms are names here, computed in StratusDigest.
        .target(
            name: "Stratus",
            dependencies: [
                "StratusFileSystem", .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "StratusDigest", dependencies: ["Stratus", "COpenSSL", "StratusFileSystem"]),
        .target(
            name: "StratusHTTP",
            dependencies: [
                "CCurl", "CLinux", "Stratus", "StratusDigest", "StratusFileSystem",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StratusLocal",
            dependencies: [
                "Stratus", "StratusDigest", "StratusFileSystem", .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(name: "StratusContract", dependencies: ["Stratus", "StratusDigest"]),
        // The public kit for adapter authors: the plumbing every HTTP adapter shares.
        .target(
            name: "StratusAdapterKit",
            dependencies: [
                "Stratus", "StratusHTTP", "StratusDigest", "StratusFileSystem",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "StratusOAuth",
            dependencies: [
                "Stratus", "StratusHTTP", "StratusDigest", "StratusAdapterKit", "StratusFileSystem",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StratusDropbox",
            dependencies: [
                "Stratus", "StratusHTTP", "StratusOAuth", "StratusDigest", "StratusAdapterKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StratusDrive",
            dependencies: [
                "Stratus", "StratusHTTP", "StratusOAuth", "StratusDigest", "StratusAdapterKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StratusOneDrive",
            dependencies: [
                "Stratus", "StratusHTTP", "StratusOAuth", "StratusDigest", "StratusAdapterKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StratusS3",
            dependencies: [
                "Stratus", "StratusHTTP", "StratusDigest", "StratusAdapterKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StratusWebDAV",
            dependencies: [
                "Stratus", "StratusHTTP", "StratusDigest", "StratusAdapterKit", "StratusFileSystem",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The sync layer: records and their files over any Service, local state in SQLite.
        .target(
            name: "StratusSync",
            dependencies: [
                "Stratus", "StratusDigest", "StratusFileSystem",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The synced key-value store and event log, built on StratusSync's public API alone.
        .target(name: "StratusKeyValue", dependencies: ["Stratus", "StratusSync"]),
        // End-to-end encryption: a `crypt` remote over any other, in age v1 files (OpenSSL 3).
        .target(
            name: "StratusCrypt",
            dependencies: [
                "Stratus", "StratusAdapterKit", "StratusDigest", "StratusFileSystem", "COpenSSL",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Mock servers (Hummingbird is allowed here, not in the library targets).
        .target(
            name: "MockSupport",
            dependencies: [
                "StratusDigest", "StratusHTTP", "StratusFileSystem",
                .development("Hummingbird", package: "hummingbird"),
                .development("HummingbirdTLS", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .development("NIOCore", package: "swift-nio"),
                .development("NIOHTTPTypes", package: "swift-nio-extras"),
                .development("HTTPTypes", package: "swift-http-types"),
                .development("NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Mocks/MockSupport"
        ),
        .target(
            name: "MockOAuth",
            dependencies: ["MockSupport", "StratusDigest", .development("Hummingbird", package: "hummingbird")],
            path: "Mocks/MockOAuth"
        ),
        .target(
            name: "MockDropbox",
            dependencies: [
                "MockSupport", "MockOAuth", "StratusDigest", .development("Hummingbird", package: "hummingbird"),
            ],
            path: "Mocks/MockDropbox"
        ),
        .target(
            name: "MockDrive",
            dependencies: [
                "MockSupport", "MockOAuth", "StratusDigest", .development("Hummingbird", package: "hummingbird"),
            ],
            path: "Mocks/MockDrive"
        ),
        .target(
            name: "MockOneDrive",
            dependencies: [
                "MockSupport", "MockOAuth", "StratusDigest", .development("Hummingbird", package: "hummingbird"),
            ],
            path: "Mocks/MockOneDrive"
        ),
        .target(
            name: "MockNextcloud",
            dependencies: [
                "MockSupport", "StratusAdapterKit", "StratusDigest",
                .development("Hummingbird", package: "hummingbird"),
            ],
            path: "Mocks/MockNextcloud"
        ),
        // Starts the real servers tests run against as children that stop when the process ends.
        .target(
            name: "ChildServers", dependencies: ["StratusFileSystem"], path: "Mocks/ChildServers"),
        .target(name: "MotoSupport", dependencies: ["ChildServers"], path: "Mocks/MotoSupport"),
        // A single-node Ceph with its S3 gateway (Scripts/ceph), the second real S3 server.
        .target(name: "CephSupport", dependencies: ["ChildServers"], path: "Mocks/CephSupport"),
        // Launchers of the real WebDAV servers the tests run against (Apache, rclone, WsgiDAV).
        .target(
            name: "WebDAVServers", dependencies: ["ChildServers", "StratusDigest"], path: "Mocks/WebDAVServers",
            exclude: ["wsgidav-server.py"]),
        // The one description of how to build, start and reach each provider's mock, which the
        // tests, the fault matrix and stratus-mock launch their mocks from.
        .target(
            name: "MockProviders",
            dependencies: [
                "MockSupport", "MockOAuth", "MockDropbox", "MockDrive", "MockNextcloud", "MockOneDrive", "StratusHTTP",
                .development("Hummingbird", package: "hummingbird"),
                .development("NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Mocks/MockProviders"
        ),
        .target(
            name: "FaultMatrix",
            dependencies: [
                "Stratus", "StratusDigest", "StratusHTTP", "StratusOAuth", "StratusDropbox", "StratusDrive",
                "StratusWebDAV", "StratusOneDrive",
                "MockSupport", "MockOAuth", "MockDropbox", "MockDrive", "MockNextcloud", "MockOneDrive",
                "MockProviders",
            ],
            path: "Mocks/FaultMatrix"
        ),
        .executableTarget(
            name: "FaultMatrixCommand",
            dependencies: ["FaultMatrix"],
            path: "Mocks/FaultMatrixCommand"
        ),
        .executableTarget(
            name: "StratusMock",
            dependencies: [
                "MockSupport", "MockDropbox", "MockProviders",
                .development("NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Mocks/StratusMock"
        ),

        // Examples and benchmarks.
        .executableTarget(
            name: "StratusTour",
            dependencies: ["Stratus", "StratusLocal"],
            path: "Examples/Tour"
        ),
        // Imports only the core; Scripts/check-core-links.sh proves it links no OpenSSL.
        .executableTarget(
            name: "StratusCoreOnly",
            dependencies: ["Stratus"],
            path: "Examples/CoreOnly"
        ),
        .executableTarget(
            name: "StratusCLI",
            dependencies: [
                "Stratus", "StratusLocal", "StratusOAuth", "StratusDropbox", "StratusDrive", "StratusS3",
                "StratusWebDAV", "StratusOneDrive", "StratusCrypt",
                .development("ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/CLI"
        ),
        .executableTarget(
            name: "SaveSync",
            dependencies: [
                "Stratus", "StratusSync", "StratusKeyValue", "StratusLocal", "StratusDropbox", "StratusDrive",
                "StratusS3", "StratusWebDAV", "StratusOneDrive",
                .development("ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/SaveSync"
        ),
        // What the benchmarks share: machine facts, peak memory, CPU time, measured child processes, tables.
        .target(name: "BenchmarkSupport", dependencies: ["StratusFileSystem"], path: "Benchmarks/BenchmarkSupport"),
        .executableTarget(
            name: "HTTPBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "StratusHTTP",
                "StratusDigest",
                "StratusFileSystem",
                .development("Hummingbird", package: "hummingbird"),
            ],
            path: "Benchmarks/HTTPBenchmark"
        ),
        .executableTarget(
            name: "AdapterBenchmark",
            dependencies: [
                "BenchmarkSupport", "Stratus", "StratusDigest", "StratusDropbox", "StratusDrive", "StratusFileSystem",
                "StratusHTTP", "StratusS3", "StratusWebDAV", "StratusOneDrive",
                "MotoSupport", "CephSupport", "WebDAVServers",
            ],
            path: "Benchmarks/AdapterBenchmark"
        ),
        .target(
            name: "SyncSimulation",
            dependencies: [
                "Stratus", "StratusDigest", "StratusSync", "StratusLocal", "StratusS3", "FaultMatrix", "MockSupport",
                "MotoSupport", "StratusAdapterKit", "CephSupport", "WebDAVServers", "StratusWebDAV",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/SyncSimulation"
        ),
        .executableTarget(
            name: "SyncSimCommand",
            dependencies: [
                "SyncSimulation", "StratusSync", "StratusLocal", "Stratus",
                .development("ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/SyncSimCommand"
        ),
        .executableTarget(
            name: "SyncBenchmark",
            dependencies: [
                "BenchmarkSupport", "Stratus", "StratusSync", "StratusLocal", "StratusDropbox", "StratusDrive",
                "StratusFileSystem", "StratusS3", "StratusWebDAV", "StratusOneDrive",
                "SyncSimulation", "MotoSupport", "WebDAVServers",
            ],
            path: "Benchmarks/SyncBenchmark"
        ),

        // Tests (Swift Testing).
        // Shared test helpers (a regular target so every test target can depend on it); tests start
        // mock servers through MockProviders.
        .target(
            name: "StratusTestSupport", dependencies: ["Stratus", "StratusContract"],
            path: "Tests/StratusTestSupport"),
        .testTarget(name: "StratusDigestTests", dependencies: ["StratusDigest"]),
        .testTarget(
            name: "StratusCryptTests",
            dependencies: [
                "StratusTestSupport", "StratusCrypt", "StratusLocal", "StratusContract", "StratusFileSystem",
                "StratusS3", "MotoSupport",
            ]
        ),
        .testTarget(
            name: "StratusHTTPTests",
            dependencies: [
                "StratusTestSupport", "StratusHTTP",
                "StratusDigest",
                "MockSupport",
                .development("Hummingbird", package: "hummingbird"),
                .development("HummingbirdHTTP2", package: "hummingbird"),
                .development("HummingbirdTLS", package: "hummingbird"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "StratusTests",
            dependencies: [
                "StratusTestSupport", "Stratus", "StratusAdapterKit",
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "StratusFileSystemTests", dependencies: ["StratusTestSupport", "StratusFileSystem"]),
        .testTarget(
            name: "StratusAdapterKitTests",
            dependencies: [
                "StratusTestSupport", "StratusAdapterKit", "StratusFileSystem", "Stratus", "StratusHTTP",
                "StratusDigest",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "StratusOAuthTests",
            dependencies: [
                "StratusTestSupport", "StratusOAuth", "MockOAuth", "MockSupport", "StratusHTTP",
                .development("Hummingbird", package: "hummingbird"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "MockDropboxTests",
            dependencies: [
                "StratusTestSupport", "MockProviders",
                "MockDropbox", "MockOAuth", "MockSupport", "StratusHTTP", "StratusDigest", "StratusFileSystem",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "StratusDropboxTests",
            dependencies: [
                "StratusTestSupport", "MockProviders",
                "StratusDropbox", "StratusContract", "MockDropbox", "MockOAuth", "MockSupport", "StratusOAuth",
                "StratusAdapterKit",
                "StratusFileSystem",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "MockOAuthTests",
            dependencies: [
                "MockOAuth", "MockSupport", "StratusHTTP", "StratusDigest",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(name: "FaultMatrixTests", dependencies: ["FaultMatrix"]),
        .testTarget(
            name: "StratusLocalTests",
            dependencies: [
                "StratusTestSupport", "Stratus", "StratusLocal", "StratusContract", "StratusFileSystem",
                "StratusAdapterKit",
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "MockNextcloudTests",
            dependencies: [
                "StratusTestSupport", "MockNextcloud", "MockSupport", "StratusAdapterKit", "StratusHTTP",
                "StratusDigest", .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "MockDriveTests",
            dependencies: [
                "StratusTestSupport", "MockProviders",
                "MockDrive", "MockOAuth", "MockSupport", "StratusHTTP", "StratusDigest",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "MockOneDriveTests",
            dependencies: [
                "StratusTestSupport", "MockProviders",
                "MockOneDrive", "MockOAuth", "MockSupport", "StratusHTTP", "StratusDigest",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "StratusOneDriveTests",
            dependencies: [
                "StratusTestSupport", "MockProviders",
                "StratusOneDrive", "StratusContract", "MockOneDrive", "MockOAuth", "MockSupport", "StratusOAuth",
                "StratusAdapterKit", "StratusDigest", "StratusHTTP",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "StratusDriveTests",
            dependencies: [
                "StratusTestSupport", "MockProviders",
                "StratusDrive", "StratusContract", "MockDrive", "MockOAuth", "MockSupport", "StratusOAuth",
                "StratusAdapterKit", "StratusSync",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "StratusS3Tests",
            dependencies: [
                "StratusTestSupport", "StratusS3", "StratusAdapterKit", "StratusContract", "StratusDigest",
                "StratusHTTP", "Stratus",
                "MockSupport", "MotoSupport", "CephSupport",
                .product(name: "Logging", package: "swift-log"),
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "StratusWebDAVTests",
            dependencies: [
                "StratusWebDAV", "StratusContract", "StratusDigest", "StratusHTTP", "Stratus", "WebDAVServers",
                "StratusTestSupport", "MockNextcloud", "MockSupport",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "StratusCLITests",
            dependencies: [
                "StratusTestSupport", "MockProviders",
                "Stratus", "StratusCLI", "SaveSync", "StratusHTTP", "MockDropbox", "MockDrive", "MockOAuth",
                "MockSupport", "StratusFileSystem", "MockOneDrive",
                .development("Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "StratusSyncTests",
            dependencies: [
                "StratusTestSupport", "StratusSync", "Stratus", "StratusLocal", "SyncSimulation", "StratusWebDAV",
                "WebDAVServers", "StratusFileSystem", "StratusDigest", "StratusAdapterKit", "FaultMatrix",
                "MockSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "StratusKeyValueTests",
            dependencies: [
                "StratusTestSupport", "StratusKeyValue", "StratusSync", "Stratus", "StratusLocal", "SyncSimulation",
            ]
        ),
    ]
)

// The library targets an app depends on. Their plain `import` is internal, so no dependency reaches
// an app's namespace by accident: a file writes `public import` only where its public API needs one.
let libraryTargets: Set<String> = [
    "StratusFileSystem", "Stratus", "StratusDigest", "StratusHTTP", "StratusLocal", "StratusContract",
    "StratusAdapterKit", "StratusOAuth", "StratusDropbox", "StratusDrive", "StratusOneDrive", "StratusS3",
    "StratusWebDAV", "StratusSync", "StratusKeyValue",
]

// Every Stratus target builds in the Swift 6 language mode (strict concurrency is part of it),
// with the same settings, set here once rather than on each target (as swift-log does).
for target in package.targets {
    switch target.type {
    case .regular, .test, .executable:
        var settings = target.swiftSettings ?? []
        settings.append(.enableUpcomingFeature("ExistentialAny"))
        if libraryTargets.contains(target.name) {
            settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
        }
        target.swiftSettings = settings
    case .macro, .plugin, .system, .binary:
        ()  // Not Swift code built by this package.
    @unknown default:
        ()
    }
}
