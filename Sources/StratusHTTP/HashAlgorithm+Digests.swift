import Stratus
import StratusDigest

extension Sequence<HashAlgorithm> {
    /// Starts one digest per algorithm, for a request's ``StratusHTTPRequest/responseDigests`` or
    /// ``StratusHTTPRequest/requestDigests``.
    /// - Throws: ``StratusHTTPClientError/Code/invalidRequest`` naming an algorithm that
    ///   `StratusDigest` does not compute, before anything is sent.
    func makeDigests() throws(StratusHTTPClientError) -> [any IncrementalDigest] {
        var digests: [any IncrementalDigest] = []
        for algorithm in self {
            do {
                digests.append(try algorithm.makeDigest())
            } catch {
                throw StratusHTTPClientError(
                    .invalidRequest,
                    "The request asks for a digest the client cannot compute: \(error.message).",
                    underlying: error
                )
            }
        }
        return digests
    }
}
