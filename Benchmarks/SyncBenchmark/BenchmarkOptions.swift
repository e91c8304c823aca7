import BenchmarkSupport

/// The command line: `--records N --files N --file-kib N --changes N --concurrency N
/// --remote local|dropbox|dropbox-single|dropbox-uncontended|drive|onedrive|s3|webdav (repeatable)
/// --mock PATH --propagation-changes N --idle-seconds N`. `dropbox` is the mock with its write
/// contention (Dropbox's `too_many_write_operations`) and the adapter's batch commits, both the
/// defaults; `dropbox-single` commits each upload on its own against that mock, and
/// `dropbox-uncontended` runs the default adapter against a mock without contention.
struct BenchmarkOptions {
    var records = 10_000
    var files = 1_000
    var fileKiB = 64
    var changes = 100
    var concurrency = 8
    var remotes: [String] = []
    var mockExecutable: String?
    /// Saves whose propagation to a second device is timed, per remote.
    var propagationChanges = 200
    /// How long both devices are watched while nothing changes.
    var idleSeconds = 60

    init(_ arguments: ArraySlice<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { throw BenchmarkFailure("\(argument) needs a value") }
            switch argument {
            case "--records": records = try Self.number(value, argument)
            case "--files": files = try Self.number(value, argument)
            case "--file-kib": fileKiB = try Self.number(value, argument)
            case "--changes": changes = try Self.number(value, argument)
            case "--concurrency": concurrency = try Self.number(value, argument)
            case "--remote": remotes.append(value)
            case "--mock": mockExecutable = value
            case "--propagation-changes": propagationChanges = try Self.number(value, argument)
            case "--idle-seconds": idleSeconds = try Self.number(value, argument)
            default: throw BenchmarkFailure("unknown option \(argument)")
            }
        }
        if remotes.isEmpty { remotes = mockExecutable == nil ? ["local"] : ["local", "dropbox"] }
        guard files <= records, changes <= records, records > 0 else {
            throw BenchmarkFailure("need files ≤ records, changes ≤ records")
        }
    }

    private static func number(_ text: String, _ name: String) throws -> Int {
        guard let value = Int(text), value > 0 else {
            throw BenchmarkFailure("\(name) takes a positive number, not \(text)")
        }
        return value
    }
}
