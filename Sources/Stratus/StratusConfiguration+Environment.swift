extension StratusConfiguration {
    /// The configuration with the environment's `STRATUS_REMOTE_*` variables applied. It reads
    /// only the dictionary it is given, so tests need not touch the process environment.
    ///
    /// Variable names follow ``RemoteOptions/environmentName(remote:option:)``: the remote's name
    /// and the option's, upper-cased, with every character other than a letter or digit turned
    /// into `_`.
    /// - `STRATUS_REMOTE_<NAME>_TYPE` sets the type of the remote whose name turns into `<NAME>`.
    ///   When no remote does, it defines a new remote named `<NAME>` lower-cased, with no
    ///   options, so a remote can live in the environment alone. A variable ending in `_TYPE`
    ///   always sets a type, never an option.
    /// - `STRATUS_REMOTE_<NAME>_<OPTION>` sets an option of the remote whose name turns into
    ///   `<NAME>` (the longest such name, when one remote's name starts another's). It replaces
    ///   the option whose key turns into `<OPTION>`, so `App-Key` in the file is overridden by
    ///   `..._APP_KEY`; an option the remote does not have yet is stored as `<OPTION>`
    ///   lower-cased. A variable for a remote that is not configured is ignored.
    /// - A variable set to the empty string is ignored, as if it were not set.
    /// - Parameter environment: Environment variables by name.
    /// - Returns: The configuration with the overrides applied.
    /// - Throws: ``ServiceError`` (`invalidConfiguration`) when a variable could apply to two
    ///   remotes, or two options of one remote, whose names differ only in case or punctuation.
    public func applyingEnvironmentOverrides(_ environment: [String: String]) throws -> StratusConfiguration {
        let prefix = "STRATUS_REMOTE_"
        let typeSuffix = "_TYPE"
        var result = self
        var optionOverrides: [(variable: String, word: Substring, value: String)] = []

        for (variable, value) in environment.sorted(by: { $0.key < $1.key }) {
            guard variable.hasPrefix(prefix), !value.isEmpty else { continue }
            let rest = variable.dropFirst(prefix.count)
            if rest.hasSuffix(typeSuffix), rest.count > typeSuffix.count {
                let remoteWord = String(rest.dropLast(typeSuffix.count))
                if let name = try result.remoteName(forWord: remoteWord, variable: variable) {
                    result.remotes[name]?.type = value
                } else {
                    result.remotes[remoteWord.lowercased()] = Remote(type: value)
                }
            } else if !rest.isEmpty {
                optionOverrides.append((variable, rest, value))
            }
        }

        // Options are applied once every remote the environment defines exists.
        for (variable, word, value) in optionOverrides {
            guard let (name, optionWord) = try result.remoteAndOption(forWord: word, variable: variable) else {
                continue
            }
            let key = try result.optionKey(forWord: optionWord, ofRemote: name, variable: variable)
            result.remotes[name]?.options[key] = value
        }
        return result
    }

    /// The remote whose name turns into this environment word, if any.
    private func remoteName(forWord word: String, variable: String) throws -> String? {
        let matches = remoteNames.filter { RemoteOptions.environmentWord($0) == word }
        guard matches.count <= 1 else {
            throw ambiguity(variable, "remotes", matches)
        }
        return matches.first
    }

    /// Splits `<NAME>_<OPTION>` by the longest configured remote name that fits.
    private func remoteAndOption(forWord word: Substring, variable: String) throws -> (String, String)? {
        let fitting =
            remoteNames
            .map { (name: $0, word: RemoteOptions.environmentWord($0)) }
            .filter { word.count > $0.word.count + 1 && word.hasPrefix($0.word + "_") }
        guard let longest = fitting.map(\.word.count).max() else { return nil }
        let matches = fitting.filter { $0.word.count == longest }
        guard matches.count == 1, let match = matches.first else {
            throw ambiguity(variable, "remotes", matches.map(\.name))
        }
        return (match.name, String(word.dropFirst(longest + 1)))
    }

    /// The key of the remote's option that turns into this word, or the word lower-cased.
    private func optionKey(forWord word: String, ofRemote name: String, variable: String) throws -> String {
        let keys = (remotes[name]?.options.keys).map { $0.sorted() } ?? []
        let matches = keys.filter { RemoteOptions.environmentWord($0) == word }
        guard matches.count <= 1 else {
            throw ambiguity(variable, "options of remote '\(name)'", matches)
        }
        return matches.first ?? word.lowercased()
    }

    private func ambiguity(_ variable: String, _ what: String, _ names: [String]) -> ServiceError {
        let listed = names.sorted().map { "'\($0)'" }.joined(separator: " and ")
        return ServiceError(
            .invalidConfiguration,
            "The environment variable \(variable) could apply to the \(what) \(listed), whose names differ only in case or punctuation. Rename one of them in the configuration file."
        )
    }
}
