import BenchmarkSupport
import Foundation

// Two roles share this executable: `child ...` runs one Stratus workload against a mock and
// prints its report (see StratusChild); anything else is the benchmark itself.

let arguments = Array(CommandLine.arguments.dropFirst())

do {
    if arguments.first == "child" {
        print(try await StratusChild.run(Array(arguments.dropFirst())))
        exit(0)
    }
    let options = try BenchmarkOptions(arguments: arguments)
    if options.showHelp {
        print(BenchmarkOptions.usage)
        exit(0)
    }
    exit(try await BenchmarkRunner(options: options).run() ? 0 : 1)
} catch {
    StandardError.writeLine("stratus-adapter-benchmark: \(error)")
    exit(1)
}
