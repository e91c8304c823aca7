import Foundation
import Stratus

extension ContractSuite {
    /// Names that trip naive adapters: Unicode forms, emoji, spaces, the longest allowed, case.
    static var nameChecks: [ContractCheck.Definition] {
        [unicodeForms, emojiAndSpaces, longestName, caseVariants]
    }

    private static let unicodeForms = ContractCheck.Definition("names: Unicode NFC and NFD forms are kept as given") {
        run in
        // "café Ångström.txt", composed and decomposed.
        let forms = [
            ("nfc", "caf\u{E9} \u{C5}ngstr\u{F6}m.txt"),
            ("nfd", "cafe\u{301} A\u{30A}ngstro\u{308}m.txt"),
        ]
        for (label, name) in forms {
            let folder = try run.path("unicode-\(label)")
            let path = try folder.appending(name)
            let content = Data("written under the \(label.uppercased()) name".utf8)
            let uploaded = try await run.upload(.bytes(content), to: path)
            try expect(
                sameScalars(uploaded.path.name, name),
                "upload to the \(label.uppercased()) name \(spelledOut(name)) returned the name \(spelledOut(uploaded.path.name))"
            )
            let listed = try await run.service.list(folder)
            try expectEqual(listed.count, 1, "number of files listed in \(folder)")
            try expect(
                sameScalars(listed[0].path.name, name),
                "list(\(folder)) returned the name \(spelledOut(listed[0].path.name)); it was written as \(spelledOut(name))"
            )
            let described = try await run.service.metadata(of: path)
            try expect(
                sameScalars(described.path.name, name),
                "metadata(of:) returned the name \(spelledOut(described.path.name)); it was written as \(spelledOut(name))"
            )
            try await run.expectContent(of: path, content, "content under the \(label.uppercased()) name")
        }
    }

    private static let emojiAndSpaces = ContractCheck.Definition("names: emoji, spaces and punctuation") { run in
        let candidates = [
            "🎮 save slot 1.json",
            "level 3 (copy).dat",
            "🇯🇵 日本語 ファイル.txt",
            "two  spaces and ünïcödé.txt",
            "100% #1 & more; a=b+c ~'quoted'.txt",
        ]
        let forbidden = run.capabilities.pathRules.forbiddenCharacters
        let names = candidates.filter { name in !name.contains { forbidden.contains($0) } }
        let folder = try run.path("names")
        for (index, name) in names.enumerated() {
            _ = try await run.upload(.bytes(Data("file \(index)".utf8)), to: try folder.appending(name))
        }
        let listed = try await run.service.list(folder)
        try expectEqual(listed.count, names.count, "number of files listed in \(folder)")
        for (index, name) in names.enumerated() {
            try expect(
                listed.contains { sameScalars($0.path.name, name) },
                "list(\(folder)) does not have \(name.debugDescription); it has \(listed.map(\.path.name))")
            try await run.expectContent(
                of: try folder.appending(name), Data("file \(index)".utf8), "content of \(name.debugDescription)")
        }
    }

    private static let longestName = ContractCheck.Definition(
        "names: a name of the longest allowed length keeps its content and metadata"
    ) { run in
        let limit = min(run.capabilities.pathRules.maximumComponentLength ?? 255, 255)
        // Two-byte letters first, so a limit counted in characters instead of bytes shows.
        var name = "long-"
        while name.utf8.count + 2 <= limit - 4 { name += "é" }
        while name.utf8.count < limit - 4 { name += "x" }
        name += ".txt"
        if limit < 16 { name = String(repeating: "x", count: limit) }
        try expectEqual(name.utf8.count, limit, "length of the check's own long name")
        let path = try run.path("long").appending(name)
        let content = Data("a \(limit)-byte name".utf8)
        // Custom metadata too, where kept: a service may store it apart from the content (an
        // extended attribute, a side record keyed by the name) with a shorter limit.
        let metadata: [String: String]? =
            run.capabilities.supportsCustomMetadata ? ["slot": "long", "note": "kept with a \(limit)-byte name"] : nil
        let uploaded = try await run.upload(.bytes(content), to: path, options: UploadOptions(metadata: metadata))
        let listed = try await run.service.list(try run.path("long"))
        try expect(
            listed.count == 1 && sameScalars(listed[0].path.name, name),
            "list(long) returned \(listed.map { "\($0.path.name.utf8.count)-byte name" }); expected the \(limit)-byte name as written"
        )
        try await run.expectContent(of: path, content, "content under the \(limit)-byte name")
        if let metadata {
            try expectEqual(uploaded.metadata, metadata, "metadata returned by the upload to the \(limit)-byte name")
            try expectEqual(listed[0].metadata, metadata, "metadata listed by list(long) for the \(limit)-byte name")
            try expectEqual(
                try await run.service.metadata(of: path).metadata, metadata, "metadata(of:) of the \(limit)-byte name")
        }

        if let declared = run.capabilities.pathRules.maximumComponentLength {
            let tooLong = String(repeating: "y", count: declared + 1)
            let tooLongPath = try run.path("long").appending(tooLong)
            try await run.expectError(
                .invalidPath, "upload to a \(declared + 1)-byte name (maximumComponentLength is \(declared))"
            ) {
                try await run.service.upload(from: .bytes(content), to: tooLongPath)
            }
        }
    }

    private static let caseVariants = ContractCheck.Definition("names: names that differ only in case") { run in
        let folder = try run.path("case")
        let upper = try folder.appending("Save.json")
        let lower = try folder.appending("save.json")
        let upperContent = Data("upper".utf8)
        let lowerContent = Data("lower, written second".utf8)
        _ = try await run.upload(.bytes(upperContent), to: upper)
        _ = try await run.upload(.bytes(lowerContent), to: lower)
        let listed = try await run.service.list(folder)
        if run.capabilities.pathRules.isCaseSensitive {
            try expectEqual(
                Set(listed.map(\.path.name)), ["Save.json", "save.json"],
                "names listed in \(folder) (pathRules.isCaseSensitive is true)")
            try await run.expectContent(of: upper, upperContent, "content of Save.json")
            try await run.expectContent(of: lower, lowerContent, "content of save.json")
        } else {
            try expectEqual(
                listed.count, 1,
                "number of files listed in \(folder) (pathRules.isCaseSensitive is false, so both names are one file)")
            try await run.expectContent(of: upper, lowerContent, "content of Save.json after writing save.json")
        }
    }
}
