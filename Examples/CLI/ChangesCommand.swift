import ArgumentParser
import Foundation
import Stratus

/// `stratus changes NAME [--since TOKEN] [--follow]`: the change feed.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Print the changes on a remote since a token, and the next token.",
        discussion: """
            Without --since, prints a token for the current end of the feed: pass it to a later \
            `stratus changes NAME --since TOKEN` to see what changed in between. Save the next \
            token it prints for the time after. With --follow, waits for changes the way the \
            remote reports them (a file-system watch for local, Dropbox's long poll, polling on \
            the remote's poll_interval elsewhere), reading the feed at least every --interval \
            seconds, and prints changes as they come until interrupted; with --json it prints \
            one JSON document per line: the first at once, then one per batch of changes.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The remote's name.") var name: String
    @Option(name: .long, help: "A token from an earlier `stratus changes`.") var since: String?
    @Flag(name: .long, help: "Keep waiting for changes until interrupted.") var follow = false
    @Option(
        name: .long,
        help:
            "With --follow, the most seconds between two reads of the feed (reported changes are read at once)."
    ) var interval: Double = 60

    func validate() throws {
        guard interval > 0, interval <= 3600 else {
            throw ValidationError("--interval must be between 0 and 3600 seconds.")
        }
    }

    func run() async throws {
        let service = try global.service(named: name)
        var token = try await global.explained(remote: name) { () async throws -> ChangeToken in
            if let since { return ChangeToken(rawValue: since) }
            return try await service.latestChangeToken()
        }
        var first = true
        repeat {
            if !first {
                // The service's own way of waiting: inotify for local, Dropbox's long poll, its
                // polling schedule elsewhere. It may wake with nothing new; the feed says.
                let wait = Duration.milliseconds(Int(interval * 1000))
                _ = try await global.explained(remote: name) {
                    try await service.waitForChanges(after: token, timeout: wait)
                }
            }
            let (changes, next) = try await drain(service, from: token)
            token = next
            if first || !changes.isEmpty {
                try report(changes, next: next, streaming: follow)
            }
            first = false
        } while follow
    }

    /// Every change after `token`, page after page.
    private func drain(_ service: any Service, from token: ChangeToken) async throws -> ([Change], ChangeToken) {
        try await global.explained(remote: name) {
            var changes: [Change] = []
            var token = token
            while true {
                let page = try await service.changes(since: token)
                changes += page.changes
                token = page.nextToken
                if !page.hasMore { return (changes, token) }
            }
        }
    }

    private func report(_ changes: [Change], next: ChangeToken, streaming: Bool) throws {
        if global.json {
            let document = ChangesDocument(changes: changes.map(ChangeDocument.init), nextToken: next.rawValue)
            try streaming ? Output.jsonLine(document) : Output.json(document)
            return
        }
        for change in changes {
            switch change {
            case .upserted(let file): Output.line("upserted\t\(file.path)\t\(file.version)")
            case .deleted(let path): Output.line("deleted\t\(path)")
            }
        }
        Output.line("next token: \(next.rawValue)")
    }

    struct ChangesDocument: Encodable {
        var changes: [ChangeDocument]
        var nextToken: String

        enum CodingKeys: String, CodingKey {
            case changes
            case nextToken = "next_token"
        }
    }
}
