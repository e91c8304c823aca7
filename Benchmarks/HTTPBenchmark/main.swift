import BenchmarkSupport
import Foundation

// Two roles share this executable: without a subcommand it is the benchmark (server, curl,
// and child processes for the Swift clients); with a child subcommand it runs one workload
// for one Swift client and prints a report for the parent to read.

let arguments = Array(CommandLine.arguments.dropFirst())

do {
    if let command = try ChildCommand(arguments: arguments) {
        try await ChildMain.run(command)
        exit(0)
    }
    let options = try BenchmarkOptions(arguments: arguments)
    if options.showHelp {
        print(BenchmarkOptions.usage)
        exit(0)
    }
    let benchmark = Task { try await BenchmarkRunner(options: options).run() }
    let interruption = InterruptionHandler { benchmark.cancel() }
    let allPassed = try await benchmark.value
    interruption.cancel()
    exit(allPassed ? 0 : 1)
} catch let error as BenchmarkOptions.ParseError {
    StandardError.write("stratus-http-benchmark: \(error.message)\n\n\(BenchmarkOptions.usage)\n")
    exit(2)
} catch is CancellationError {
    StandardError.write("stratus-http-benchmark: interrupted; temporary files removed\n")
    exit(130)
} catch {
    StandardError.write("stratus-http-benchmark: \(error)\n")
    exit(1)
}
