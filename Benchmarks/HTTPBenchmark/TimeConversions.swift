import Foundation

extension Duration {
    /// The duration in seconds, with fractions.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
