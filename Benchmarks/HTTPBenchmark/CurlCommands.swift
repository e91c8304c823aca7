import Foundation

/// The curl tool's command lines for the workloads. `-q` (first) ignores any `.curlrc`.
enum CurlCommands {
    static func download(_ url: URL, to destination: URL) -> [String] {
        ["-q", "--silent", "--show-error", "--fail", "--output", destination.path, url.absoluteString]
    }

    /// `--upload-file` sends a PUT straight from the file. `Expect:` turns off the
    /// `Expect: 100-continue` round trip curl adds for large bodies; the StratusHTTP workloads
    /// turn it off too (`expectContinueThreshold: nil`), as the benchmark server never answers
    /// `100 Continue`.
    static func upload(_ source: URL, to url: URL) -> [String] {
        [
            "-q", "--silent", "--show-error", "--fail", "--upload-file", source.path, "--header", "Expect:",
            "--output", "/dev/null", url.absoluteString,
        ]
    }

    /// One curl process for all the GETs: `--parallel` with the URLs in a config file.
    static func gets(configFile: URL, concurrency: Int) -> [String] {
        [
            "-q", "--silent", "--show-error", "--fail", "--parallel", "--parallel-max", String(concurrency),
            "--config", configFile.path,
        ]
    }

    /// Writes the config file for ``gets(configFile:concurrency:)``: the URL `count` times, each
    /// body to /dev/null.
    static func writeGetsConfig(to file: URL, url: URL, count: Int) throws {
        let entry = "url = \"\(url.absoluteString)\"\noutput = \"/dev/null\"\n"
        try String(repeating: entry, count: count).write(to: file, atomically: false, encoding: .utf8)
    }
}
