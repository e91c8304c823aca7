import Foundation

/// A parsed `q` search expression of `files.list`: terms such as `'<id>' in parents`,
/// `name = 'a\'b'`, `trashed = false`, `mimeType != '...'`, `modifiedTime > '<RFC 3339>'`,
/// `appProperties has { key='k' and value='v' }`, combined with `and`, `or`, `not` and
/// parentheses.
indirect enum DriveQuery: Sendable {
    case all
    case and(DriveQuery, DriveQuery)
    case or(DriveQuery, DriveQuery)
    case not(DriveQuery)
    case inParents(String)
    case inOwners(String)
    case compare(field: String, op: Operator, value: Value)
    case has(field: String, key: String, value: String)

    enum Operator: String, Sendable {
        case equal = "="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains
    }

    enum Value: Sendable {
        case string(String)
        case bool(Bool)
    }

    /// Why a query was refused.
    struct ParseError: Error {}

    /// Parses a `q` value; an empty one matches everything.
    init(parsing text: String) throws(ParseError) {
        let tokens = try Self.tokenize(text)
        if tokens.isEmpty {
            self = .all
            return
        }
        var parser = Parser(tokens: tokens)
        self = try parser.orExpression()
        guard parser.index == tokens.count else { throw ParseError() }
    }

    /// A parent every match must have: the first `'<id>' in parents` among the terms the
    /// whole query joins with `and`, so a listing can start from that folder's index.
    var requiredParent: String? {
        switch self {
        case .inParents(let raw): raw
        case .and(let left, let right): left.requiredParent ?? right.requiredParent
        default: nil
        }
    }

    /// A name every match must have exactly (`name = '...'` joined with `and`).
    var requiredName: String? {
        switch self {
        case .compare(field: "name", op: .equal, value: .string(let name)): name
        case .and(let left, let right): left.requiredName ?? right.requiredName
        default: nil
        }
    }

    /// What the matcher needs to know about a file.
    struct Subject {
        var node: DriveNode
        var trashed: Bool
        /// Resolves aliases such as `root` to real ids.
        var resolve: (String) -> String?
    }

    /// Whether a file matches.
    func matches(_ subject: Subject) -> Bool {
        switch self {
        case .all: return true
        case .and(let left, let right): return left.matches(subject) && right.matches(subject)
        case .or(let left, let right): return left.matches(subject) || right.matches(subject)
        case .not(let inner): return !inner.matches(subject)
        case .inParents(let raw):
            guard let id = subject.resolve(raw) else { return false }
            return subject.node.parents.contains(id)
        case .inOwners(let owner):
            return owner == "me" || owner == "stratus-mock@example.com"
        case .has(let field, let key, let value):
            let map = field == "appProperties" ? subject.node.appProperties : subject.node.properties
            return map[key] == value
        case .compare(let field, let op, let value):
            return Self.compare(field, op, value, subject)
        }
    }

    private static func compare(_ field: String, _ op: Operator, _ value: Value, _ subject: Subject) -> Bool {
        switch (field, value) {
        case ("trashed", .bool(let wanted)):
            return op == .equal ? subject.trashed == wanted : subject.trashed != wanted
        case ("starred", .bool(let wanted)):
            return op == .equal ? subject.node.starred == wanted : subject.node.starred != wanted
        case ("name", .string(let text)), ("mimeType", .string(let text)), ("fullText", .string(let text)):
            let actual = field == "mimeType" ? subject.node.mimeType : subject.node.name
            switch op {
            case .equal: return actual == text
            case .notEqual: return actual != text
            case .contains:
                if field == "fullText", let description = subject.node.description,
                    description.localizedCaseInsensitiveContains(text)
                {
                    return true
                }
                return actual.localizedCaseInsensitiveContains(text)
            default: return false
            }
        case ("modifiedTime", .string(let text)), ("createdTime", .string(let text)),
            ("viewedByMeTime", .string(let text)):
            guard let date = DriveTime.parse(text) else { return false }
            let actual = field == "createdTime" ? subject.node.createdTime : subject.node.modifiedTime
            switch op {
            case .equal: return actual == date
            case .notEqual: return actual != date
            case .less: return actual < date
            case .lessOrEqual: return actual <= date
            case .greater: return actual > date
            case .greaterOrEqual: return actual >= date
            case .contains: return false
            }
        default:
            return false
        }
    }

    // MARK: Parsing

    enum Token: Equatable {
        case string(String)
        case word(String)
        case symbol(String)
    }

    static func tokenize(_ text: String) throws(ParseError) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "'" || character == "\"" {
                let quote = character
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == "\\" {
                        guard index + 1 < characters.count else { throw ParseError() }
                        value.append(characters[index + 1])
                        index += 2
                    } else if next == quote {
                        closed = true
                        index += 1
                        break
                    } else {
                        value.append(next)
                        index += 1
                    }
                }
                guard closed else { throw ParseError() }
                tokens.append(.string(value))
            } else if character.isLetter || character == "_" {
                let start = index
                while index < characters.count,
                    characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
                {
                    index += 1
                }
                tokens.append(.word(String(characters[start..<index])))
            } else if "()={}".contains(character) {
                tokens.append(.symbol(String(character)))
                index += 1
            } else if "!<>".contains(character) {
                if index + 1 < characters.count, characters[index + 1] == "=" {
                    tokens.append(.symbol(String(character) + "="))
                    index += 2
                } else if character == "!" {
                    throw ParseError()
                } else {
                    tokens.append(.symbol(String(character)))
                    index += 1
                }
            } else {
                throw ParseError()
            }
        }
        return tokens
    }

    private struct Parser {
        let tokens: [Token]
        var index = 0

        var current: Token? { index < tokens.count ? tokens[index] : nil }

        mutating func keyword(_ word: String) -> Bool {
            guard case .word(let found) = current, found.lowercased() == word else { return false }
            index += 1
            return true
        }

        mutating func symbol(_ symbol: String) -> Bool {
            guard current == .symbol(symbol) else { return false }
            index += 1
            return true
        }

        mutating func orExpression() throws(ParseError) -> DriveQuery {
            var result = try andExpression()
            while keyword("or") { result = .or(result, try andExpression()) }
            return result
        }

        mutating func andExpression() throws(ParseError) -> DriveQuery {
            var result = try unary()
            while keyword("and") { result = .and(result, try unary()) }
            return result
        }

        mutating func unary() throws(ParseError) -> DriveQuery {
            if keyword("not") { return .not(try unary()) }
            if symbol("(") {
                let inner = try orExpression()
                guard symbol(")") else { throw ParseError() }
                return inner
            }
            return try term()
        }

        mutating func string() throws(ParseError) -> String {
            guard case .string(let value) = current else { throw ParseError() }
            index += 1
            return value
        }

        mutating func term() throws(ParseError) -> DriveQuery {
            if case .string(let value) = current {
                index += 1
                guard keyword("in"), case .word(let collection) = current else { throw ParseError() }
                index += 1
                switch collection {
                case "parents": return .inParents(value)
                case "owners", "writers", "readers": return .inOwners(value)
                default: throw ParseError()
                }
            }
            guard case .word(let field) = current else { throw ParseError() }
            index += 1
            if field == "appProperties" || field == "properties" {
                guard keyword("has"), symbol("{"), keyword("key"), symbol("=") else { throw ParseError() }
                let key = try string()
                guard keyword("and"), keyword("value"), symbol("=") else { throw ParseError() }
                let value = try string()
                guard symbol("}") else { throw ParseError() }
                return .has(field: field, key: key, value: value)
            }
            let op: Operator
            if keyword("contains") {
                op = .contains
            } else if case .symbol(let text) = current, let found = Operator(rawValue: text) {
                op = found
                index += 1
            } else {
                throw ParseError()
            }
            let value: Value
            switch current {
            case .string(let text): value = .string(text)
            case .word(let word) where word == "true" || word == "false": value = .bool(word == "true")
            default: throw ParseError()
            }
            index += 1
            switch (field, op, value) {
            case ("trashed", .equal, .bool), ("trashed", .notEqual, .bool),
                ("starred", .equal, .bool), ("starred", .notEqual, .bool),
                ("name", .equal, .string), ("name", .notEqual, .string), ("name", .contains, .string),
                ("mimeType", .equal, .string), ("mimeType", .notEqual, .string), ("mimeType", .contains, .string),
                ("fullText", .contains, .string):
                return .compare(field: field, op: op, value: value)
            case ("modifiedTime", _, .string(let text)), ("createdTime", _, .string(let text)),
                ("viewedByMeTime", _, .string(let text)):
                guard op != .contains, DriveTime.parse(text) != nil else { throw ParseError() }
                return .compare(field: field, op: op, value: value)
            default:
                throw ParseError()
            }
        }
    }
}
