import BenchmarkSupport
import Foundation

/// How a client reaches a running server (a mock, moto or Apache): handed from the parent to every
/// child through the environment (`BENCH_BASE`, `BENCH_USER`, `BENCH_TOKEN`, `BENCH_CA`, empty for
/// plain HTTP), so that no secret is on a command line.
struct MockEndpoint: Sendable {
    var provider: Provider
    /// `https://127.0.0.1:PORT`, no trailing slash (S3: moto's endpoint; WebDAV: the benchmark's
    /// folder on the server).
    var baseURL: String
    /// The secret: a bearer token, moto's secret key, the WebDAV password.
    var accessToken: String
    /// S3: the access key ID; WebDAV: the user; empty for the mocks.
    var user: String = ""
    /// The CA certificate the mock's TLS certificate is signed with; empty over plain HTTP.
    var caFile: String

    var environment: [String: String] {
        [
            "BENCH_PROVIDER": provider.rawValue, "BENCH_BASE": baseURL, "BENCH_USER": user, "BENCH_TOKEN": accessToken,
            "BENCH_CA": caFile,
        ]
    }

    /// Reads the endpoint a parent handed over.
    static func fromEnvironment() throws -> MockEndpoint {
        let environment = ProcessInfo.processInfo.environment
        guard let provider = environment["BENCH_PROVIDER"].flatMap(Provider.init(rawValue:)),
            let base = environment["BENCH_BASE"], let token = environment["BENCH_TOKEN"],
            let ca = environment["BENCH_CA"]
        else {
            throw BenchmarkFailure("a child needs BENCH_PROVIDER, BENCH_BASE, BENCH_TOKEN and BENCH_CA")
        }
        return MockEndpoint(
            provider: provider, baseURL: base, accessToken: token, user: environment["BENCH_USER"] ?? "", caFile: ca)
    }
}
