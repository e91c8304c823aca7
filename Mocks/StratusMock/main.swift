import Foundation

do {
    guard let options = try MockOptions.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(MockOptions.usage)
        exit(0)
    }
    try await MockMode.run(options)
} catch let error as MockOptions.UsageError {
    FileHandle.standardError.write(Data("stratus-mock: \(error)\n\n\(MockOptions.usage)".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("stratus-mock: \(error)\n".utf8))
    exit(1)
}
