/// A failure with a message meant for the person running a benchmark.
package struct BenchmarkFailure: Error, CustomStringConvertible, Sendable {
    /// The message, printed as it is.
    package var description: String

    /// A failure that says `description`.
    package init(_ description: String) {
        self.description = description
    }
}
