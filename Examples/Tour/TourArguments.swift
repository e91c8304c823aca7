import Foundation

/// The tour's command line: `stratus-tour [--root DIR] [--help]`.
struct TourArguments {
    /// The folder to use as the local root, or `nil` for a new temporary folder.
    var root: URL?
    /// Whether the help text was asked for.
    var wantsHelp = false

    static let usage = """
        Usage: stratus-tour [--root DIR]

        A one-minute tour of Stratus on the local backend: upload a save file, read the change
        feed, keep versions, restore one, and watch a stale write get refused.

          --root DIR   Use DIR as the local root and keep it afterwards (it is created if its
                       parent exists). Without it, the tour works in a temporary folder and
                       removes it at the end.
          --help       Show this text.
        """

    /// Reads the arguments.
    /// - Parameter arguments: The arguments after the program name.
    /// - Throws: ``TourArgumentError`` for an unknown option or a missing value.
    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--root":
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    throw TourArgumentError(message: "--root needs a folder, as in --root ./my-cloud")
                }
                root = URL(filePath: NSString(string: value).expandingTildeInPath, directoryHint: .isDirectory)
            case "--help", "-h":
                wantsHelp = true
            default:
                throw TourArgumentError(message: "unknown argument \(argument.debugDescription)")
            }
        }
    }
}

/// A command line the tour cannot use.
struct TourArgumentError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
